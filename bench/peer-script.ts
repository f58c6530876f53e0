/**
 * The baseline adsctl is measured against (bench/peer-bench.ts): what a careful user writes
 * instead of an infrastructure tool — a script over the API's official SDK that reads the account,
 * compares it with a YAML file, and writes the differences with the batch endpoints in chunks of
 * their documented maximum. This is the same script's requests without the SDK: list reads of
 * 1,000 records a page (targeting criteria by 200 line item ids), independent reads at once,
 * batch writes of 40 campaigns or line items and 500 targeting criteria, one promoted-posts POST
 * per line item, and after a 429 a sleep until the limit's reset. It knows only the bench's
 * manifest shape (campaigns of line items with keyword targeting and promoted posts, matched by
 * name) and keeps no state, lock, journal or history; it validates nothing.
 *
 * `node peer-script.js check|apply MANIFEST`, with the endpoint in the manifest and the
 * credentials in ADSCTL_CONSUMER_KEY, ADSCTL_CONSUMER_SECRET, ADSCTL_ACCESS_TOKEN and
 * ADSCTL_ACCESS_TOKEN_SECRET; prints one line of counts. `check` exits 2 when something differs.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { load } from 'js-yaml';

interface Criterion {
  targeting_type: string;
  targeting_value: string;
}

interface LineItemSpec {
  name: string;
  product_type: string;
  objective: string;
  placements: string[];
  bid_strategy: string;
  bid_amount: string;
  entity_status: string;
  start_time: string | Date;
  targeting?: Criterion[];
  promoted_posts?: string[];
}

interface CampaignSpec {
  name: string;
  funding_instrument: string;
  daily_budget: string;
  entity_status: string;
  line_items?: Record<string, LineItemSpec>;
}

interface ManifestSpec {
  endpoint: string;
  account: { id: string };
  funding_instruments: Record<string, { id: string }>;
  campaigns?: Record<string, CampaignSpec>;
}

type Row = Record<string, unknown> & { id: string };

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const consumerKey = env('ADSCTL_CONSUMER_KEY');
const consumerSecret = env('ADSCTL_CONSUMER_SECRET');
const token = env('ADSCTL_ACCESS_TOKEN');
const tokenSecret = env('ADSCTL_ACCESS_TOKEN_SECRET');

const encode = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The OAuth 1.0a header of a request whose query (or form) parameters are `pairs`. */
function authorization(method: string, url: string, pairs: Array<[string, string]>): string {
  const oauth: Array<[string, string]> = [
    ['oauth_consumer_key', consumerKey],
    ['oauth_nonce', randomBytes(16).toString('hex')],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', String(Math.floor(Date.now() / 1000))],
    ['oauth_token', token],
    ['oauth_version', '1.0'],
  ];
  const all = [...pairs, ...oauth].map(([k, v]) => [encode(k), encode(v)] as const);
  all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const base = `${method}&${encode(url)}&${encode(all.map(([k, v]) => `${k}=${v}`).join('&'))}`;
  const signature = createHmac('sha1', `${encode(consumerSecret)}&${encode(tokenSecret)}`).update(base).digest('base64');
  const header: Array<[string, string]> = [...oauth, ['oauth_signature', signature]];
  return `OAuth ${header.map(([k, v]) => `${encode(k)}="${encode(v)}"`).join(', ')}`;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const counts = { reads: 0, writes: 0, throttled: 0 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One signed request; a JSON body for batches, else the params in the query string. */
async function call(method: string, url: string, params: Record<string, string>, json?: unknown): Promise<{ data: unknown; next_cursor?: string | null }> {
  for (;;) {
    const pairs = Object.entries(params);
    const query = pairs.length > 0 ? `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : '';
    const body = json === undefined ? undefined : JSON.stringify(json);
    const answer = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const req = httpRequest(`${url}${query}`, { method, agent, headers: { authorization: authorization(method, url, pairs), ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
    if (method === 'GET') counts.reads++;
    else counts.writes++;
    if (answer.status === 429) {
      counts.throttled++;
      const reset = Number(answer.headers['x-rate-limit-reset'] ?? 0) * 1000;
      await sleep(Math.max(1000, reset - Date.now()));
      continue;
    }
    if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text.slice(0, 500)}`);
    return JSON.parse(answer.text) as { data: unknown; next_cursor?: string | null };
  }
}

/** Every page of a list. */
async function list(url: string, params: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | undefined;
  do {
    const page = await call('GET', url, { ...params, count: '1000', ...(cursor === undefined ? {} : { cursor }) });
    rows.push(...(page.data as Row[]));
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return rows;
}

const chunk = <T>(items: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
const micros = (amount: string): number => Math.round(Number(amount) * 1_000_000);
const iso = (value: string | Date): string => (value instanceof Date ? value.toISOString().replace('.000Z', 'Z') : value);
const criterionKey = (c: Criterion): string => `${c.targeting_type}:${c.targeting_value}`;

const [mode, file] = process.argv.slice(2);
if ((mode !== 'check' && mode !== 'apply') || file === undefined) throw new Error('usage: peer-script.js check|apply MANIFEST');
const manifest = load(readFileSync(file, 'utf8')) as ManifestSpec;
const accountId = manifest.account.id;
const base = `${manifest.endpoint.replace(/\/$/, '')}/ads-api/12`;
const accountUrl = `${base}/accounts/${accountId}`;
const batchUrl = (collection: string): string => `${base}/batch/accounts/${accountId}/${collection}`;

// read: the account's campaigns, line items and promoted posts at once, then the targeting of its line items
const [account, campaigns, lineItems, posts] = await Promise.all([
  call('GET', accountUrl, {}),
  list(`${accountUrl}/campaigns`, {}),
  list(`${accountUrl}/line_items`, {}),
  list(`${accountUrl}/promoted_tweets`, {}),
]);
if ((account.data as Row).id !== accountId) throw new Error(`account ${accountId} not found`);
const criteria = (await Promise.all(chunk(lineItems.map((l) => l.id), 200).map((ids) => list(`${accountUrl}/targeting_criteria`, { line_item_ids: ids.join(',') })))).flat();

const campaignByName = new Map(campaigns.map((c) => [c['name'] as string, c]));
const lineItemsOf = new Map<string, Map<string, Row>>();
for (const l of lineItems) {
  const of = lineItemsOf.get(l['campaign_id'] as string) ?? new Map<string, Row>();
  of.set(l['name'] as string, l);
  lineItemsOf.set(l['campaign_id'] as string, of);
}
const criteriaOf = new Map<string, Map<string, Row>>();
for (const c of criteria) {
  const of = criteriaOf.get(c['line_item_id'] as string) ?? new Map<string, Row>();
  of.set(criterionKey(c as unknown as Criterion), c);
  criteriaOf.set(c['line_item_id'] as string, of);
}
const postsOf = new Map<string, Map<string, Row>>();
for (const p of posts) {
  const of = postsOf.get(p['line_item_id'] as string) ?? new Map<string, Row>();
  of.set(p['tweet_id'] as string, p);
  postsOf.set(p['line_item_id'] as string, of);
}

// compare
const campaignOps: unknown[] = [];
const lineItemOps: unknown[] = [];
const criterionOps: unknown[] = [];
const postCreates: Array<{ lineItem: string; tweets: string[] }> = [];
const postDeletes: string[] = [];
/** Line items to create once their campaign exists: campaign name → specs. */
const newLineItems: Array<{ campaign: string; spec: LineItemSpec }> = [];

const campaignParams = (spec: CampaignSpec): Record<string, unknown> => ({
  name: spec.name,
  funding_instrument_id: manifest.funding_instruments[spec.funding_instrument]!.id,
  daily_budget_amount_local_micro: micros(spec.daily_budget),
  entity_status: spec.entity_status,
});
const lineItemParams = (spec: LineItemSpec): Record<string, unknown> => ({
  name: spec.name,
  product_type: spec.product_type,
  objective: spec.objective,
  placements: spec.placements.join(','),
  bid_strategy: spec.bid_strategy,
  bid_amount_local_micro: micros(spec.bid_amount),
  entity_status: spec.entity_status,
  start_time: iso(spec.start_time),
});

function compareLineItem(live: Row, spec: LineItemSpec): void {
  const changed: Record<string, unknown> = {};
  if (live['bid_amount_local_micro'] !== micros(spec.bid_amount)) changed['bid_amount_local_micro'] = micros(spec.bid_amount);
  if (live['entity_status'] !== spec.entity_status) changed['entity_status'] = spec.entity_status;
  if (live['bid_strategy'] !== spec.bid_strategy) changed['bid_strategy'] = spec.bid_strategy;
  if (Object.keys(changed).length > 0) lineItemOps.push({ operation_type: 'Update', params: { line_item_id: live.id, ...changed } });
  const have = criteriaOf.get(live.id) ?? new Map<string, Row>();
  const want = new Map((spec.targeting ?? []).map((c) => [criterionKey(c), c]));
  for (const [key, c] of have) if (!want.has(key)) criterionOps.push({ operation_type: 'Delete', params: { targeting_criterion_id: c.id } });
  for (const [key, c] of want) if (!have.has(key)) criterionOps.push({ operation_type: 'Create', params: { line_item_id: live.id, ...c } });
  const promoted = postsOf.get(live.id) ?? new Map<string, Row>();
  const tweets = new Set(spec.promoted_posts ?? []);
  for (const [tweet, p] of promoted) if (!tweets.has(tweet)) postDeletes.push(p.id);
  const missing = [...tweets].filter((t) => !promoted.has(t));
  if (missing.length > 0) postCreates.push({ lineItem: live.id, tweets: missing });
}

for (const spec of Object.values(manifest.campaigns ?? {})) {
  const live = campaignByName.get(spec.name);
  if (live === undefined) {
    campaignOps.push({ operation_type: 'Create', params: campaignParams(spec) });
    for (const li of Object.values(spec.line_items ?? {})) newLineItems.push({ campaign: spec.name, spec: li });
    continue;
  }
  const changed: Record<string, unknown> = {};
  if (live['daily_budget_amount_local_micro'] !== micros(spec.daily_budget)) changed['daily_budget_amount_local_micro'] = micros(spec.daily_budget);
  if (live['entity_status'] !== spec.entity_status) changed['entity_status'] = spec.entity_status;
  if (Object.keys(changed).length > 0) campaignOps.push({ operation_type: 'Update', params: { campaign_id: live.id, ...changed } });
  const liveItems = lineItemsOf.get(live.id) ?? new Map<string, Row>();
  for (const li of Object.values(spec.line_items ?? {})) {
    const existing = liveItems.get(li.name);
    if (existing === undefined) newLineItems.push({ campaign: spec.name, spec: li });
    else compareLineItem(existing, li);
  }
}

const differences = campaignOps.length + lineItemOps.length + newLineItems.length + criterionOps.length + postCreates.length + postDeletes.length;
if (mode === 'apply' && differences > 0) {
  // campaigns first: new line items need their ids
  const created = await Promise.all(chunk(campaignOps, 40).map((ops) => call('POST', batchUrl('campaigns'), {}, ops)));
  for (const c of created.flatMap((r) => r.data as Row[])) campaignByName.set(c['name'] as string, c);
  for (const { campaign, spec } of newLineItems) lineItemOps.push({ operation_type: 'Create', params: { campaign_id: campaignByName.get(campaign)!.id, ...lineItemParams(spec) } });
  const items = await Promise.all(chunk(lineItemOps, 40).map((ops) => call('POST', batchUrl('line_items'), {}, ops)));
  const createdItems = new Map<string, Row>();
  for (const l of items.flatMap((r) => r.data as Row[])) createdItems.set(`${l['campaign_id'] as string}/${l['name'] as string}`, l);
  for (const { campaign, spec } of newLineItems) {
    const id = createdItems.get(`${campaignByName.get(campaign)!.id}/${spec.name}`)!.id;
    for (const c of spec.targeting ?? []) criterionOps.push({ operation_type: 'Create', params: { line_item_id: id, ...c } });
    if ((spec.promoted_posts ?? []).length > 0) postCreates.push({ lineItem: id, tweets: spec.promoted_posts ?? [] });
  }
  await Promise.all([
    ...chunk(criterionOps, 500).map((ops) => call('POST', batchUrl('targeting_criteria'), {}, ops)),
    ...postCreates.flatMap(({ lineItem, tweets }) => chunk(tweets, 50).map((ids) => call('POST', `${accountUrl}/promoted_tweets`, { line_item_id: lineItem, tweet_ids: ids.join(',') }))),
    ...postDeletes.map((id) => call('DELETE', `${accountUrl}/promoted_tweets/${id}`, {})),
  ]);
}
agent.destroy();
console.log(`${differences} differences; ${counts.reads} reads, ${counts.writes} writes, ${counts.throttled} throttled`);
process.exitCode = mode === 'check' && differences > 0 ? 2 : 0;
