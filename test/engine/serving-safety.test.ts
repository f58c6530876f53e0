/**
 * Serving safety (docs/architecture.md, "Serving safety"): through the engine in-process
 * (test/support/engine-harness.ts) and a recording proxy in front of the in-process emulator, which also refuses chosen writes as the service
 * refuses them. Every apply here is replayed from the wire (test/support/serving-monitor.ts) and
 * held to the invariant: at no moment does an ACTIVE line item in an ACTIVE campaign serve with
 * targeting or promotions other than the old or the new manifest's.
 *
 * - a refused targeting change of a serving line item leaves its old targeting in place: deletes
 *   and creates go in one all-or-nothing request;
 * - a new ACTIVE line item is created PAUSED and activated after its targeting; when its
 *   targeting is refused it stays PAUSED, and the next apply finishes the job;
 * - a new audience from a CSV and a new line item targeting it apply in one run: the members
 *   first, then the criterion, then the activation;
 * - more targeting changes than one request holds: the line item is paused, changed, resumed;
 * - a promoted post swapped: the old one is dropped before the new one is taken.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { readLiveAccount, seededAccountHead, transcript, type LiveAccount } from '../support/e2e.js';
import { createEngineWorkspace, type EngineRun, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { memberCsv, people, seededRandom } from '../support/member-files.js';
import { servingMoments, servingViolations } from '../support/serving-monitor.js';
import { startWireLog, type WireLog, type WireRequest } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';
const US = '96683cc9126741d1';
const GB = 'aabd7522322d9682';
const CA = '02762cca644f3e76';
const [POST_A, POST_B] = SEED_POST_IDS as [string, string];

let emulator: RunningEmulator;
let client: TestClient;
let log: WireLog;
const workspaces: EngineWorkspace[] = [];
const clock = manualClock();

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  log = await startWireLog(emulator.info.base_url);
});
afterEach(() => {
  log.allow();
});
afterAll(async () => {
  await log.close();
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

interface LineItemSpec {
  key: string;
  name: string;
  status?: 'ACTIVE' | 'PAUSED';
  /** Criteria as YAML flow maps. */
  targeting: string[];
  posts: string[];
}

function campaignYaml(key: string, name: string, lineItems: readonly LineItemSpec[]): string {
  const items = lineItems
    .map(
      (li) => `      ${li.key}:
        name: ${li.name}
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2027-01-01T00:00:00Z
        entity_status: ${li.status ?? 'ACTIVE'}
        targeting:
${li.targeting.map((t) => `          - ${t}`).join('\n')}
        promoted_posts: [${li.posts.map((p) => `"${p}"`).join(', ')}]`,
    )
    .join('\n');
  return `  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "20.00"
    entity_status: ACTIVE
    line_items:
${items}
`;
}

const location = (value: string): string => `{ targeting_type: LOCATION, targeting_value: ${value} }`;
const keyword = (value: string): string => `{ targeting_type: BROAD_KEYWORD, targeting_value: "${value}" }`;

function workspace(yaml: string): EngineWorkspace {
  const ws = createEngineWorkspace(emulator.info, yaml, clock);
  workspaces.push(ws);
  return ws;
}

/** Runs `command` (an engine run of the workspace), recording the wire from a clean log; returns the run and what it sent. */
async function recorded(command: () => Promise<EngineRun>): Promise<{ run: EngineRun; before: LiveAccount; wire: WireRequest[] }> {
  const before = await readLiveAccount(client, ACCOUNT);
  log.reset();
  const run = await command();
  return { run, before, wire: log.requests() };
}

const targetingBatches = (wire: readonly WireRequest[]): WireRequest[] => wire.filter((r) => r.method === 'POST' && r.path.endsWith('/batch/accounts/18ce54d4x5t/targeting_criteria'));

async function liveLineItem(name: string): Promise<{ status: string; targeting: string[]; posts: string[] }> {
  const live = await readLiveAccount(client, ACCOUNT);
  const li = live.lineItems.find((l) => l['name'] === name);
  if (li === undefined) throw new Error(`no live line item named ${name}`);
  const targeting = live.targeting.filter((t) => t['line_item_id'] === li['id']).map((t) => `${t['targeting_type']}:${t['targeting_value']}`);
  const posts = live.promotedPosts.filter((p) => p['line_item_id'] === li['id']).map((p) => String(p['tweet_id']));
  return { status: String(li['entity_status']), targeting: targeting.sort(), posts: posts.sort() };
}

const keys = (criteria: readonly string[]): string[] => criteria.map((c) => `${c}:EQ`);

describe('a serving line item whose targeting change is refused', () => {
  it('keeps its old targeting: the delete and the create go in one request, refused together', async () => {
    const head = seededAccountHead(log.url);
    const spec = (country: string): string =>
      `${head}campaigns:\n${campaignYaml('refused', 'Serving refused', [{ key: 'main', name: 'Refused change', targeting: [location(country), keyword('tents')], posts: [POST_A] }])}`;
    const ws = workspace(spec(US));
    const first = await ws.apply();
    expect(first.code, transcript(first)).toBe(0);
    expect(await liveLineItem('Refused change')).toEqual({ status: 'ACTIVE', targeting: [`BROAD_KEYWORD:tents`, `LOCATION:${US}`].sort(), posts: [POST_A] });

    ws.write(spec(GB));
    const plan = await ws.plan();
    expect(plan.stdout).toContain('(in one request with every other change of the targeting criteria of campaigns.refused.line_items.main, which keeps serving)');
    log.refuse((item) => (item.operationType === 'Create' && item.params['targeting_value'] === GB ? `Unknown targeting_value "${GB}" for targeting_type LOCATION` : undefined));
    const { run, before, wire } = await recorded(() => ws.apply());
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stdout + run.stderr).toContain(GB);
    const batches = targetingBatches(wire);
    expect(batches.map((b) => (b.json as Array<{ operation_type: string }>).map((op) => op.operation_type))).toEqual([['Delete', 'Create']]);
    expect(await liveLineItem('Refused change')).toEqual({ status: 'ACTIVE', targeting: [`BROAD_KEYWORD:tents`, `LOCATION:${US}`].sort(), posts: [POST_A] });
    const old = { targeting: keys([`LOCATION:${US}`, 'BROAD_KEYWORD:tents']), posts: [POST_A] };
    const next = { targeting: keys([`LOCATION:${GB}`, 'BROAD_KEYWORD:tents']), posts: [POST_A] };
    const judged = (name: string): Array<typeof old> | undefined => (name === 'Refused change' ? [old, next] : undefined);
    expect(servingViolations(servingMoments(before, wire), judged)).toEqual([]);

    log.allow();
    const again = await recorded(() => ws.apply());
    expect(again.run.code, transcript(again.run)).toBe(0);
    expect(await liveLineItem('Refused change')).toEqual({ status: 'ACTIVE', targeting: [`BROAD_KEYWORD:tents`, `LOCATION:${GB}`].sort(), posts: [POST_A] });
    expect(servingViolations(servingMoments(again.before, again.wire), judged)).toEqual([]);
    const clean = await ws.plan({ detailedExitcode: true });
    expect(clean.code, transcript(clean)).toBe(0);
  });
});

describe('a new ACTIVE line item', () => {
  it('is never created ACTIVE before its targeting, and stays PAUSED when its targeting is refused', async () => {
    const head = seededAccountHead(log.url);
    const lineItems: LineItemSpec[] = [
      { key: 'one', name: 'New one', targeting: [location(CA), keyword('canoes')], posts: [POST_A] },
      { key: 'two', name: 'New two', targeting: [location(US), keyword('refused keyword')], posts: [POST_B] },
    ];
    const ws = workspace(`${head}campaigns:\n${campaignYaml('fresh', 'Serving fresh', lineItems)}`);
    const plan = await ws.plan();
    expect(plan.stdout).toContain('(created paused, activated after its promoted posts and targeting criteria)');

    log.refuse((item) => (item.operationType === 'Create' && item.params['targeting_value'] === 'refused keyword' ? 'A keyword the service refused' : undefined));
    const { run, before, wire } = await recorded(() => ws.apply());
    expect(run.code, transcript(run)).toBe(1);
    // no line item was created ACTIVE: every create says PAUSED
    const creates = wire
      .filter((r) => r.method === 'POST' && r.path.endsWith('/batch/accounts/18ce54d4x5t/line_items'))
      .flatMap((r) => (r.json as Array<{ operation_type: string; params: Record<string, unknown> }>).filter((op) => op.operation_type === 'Create'));
    expect(creates.map((op) => op.params['entity_status'])).toEqual(['PAUSED', 'PAUSED']);
    const versions = (name: string): Array<{ targeting: string[]; posts: string[] }> | undefined => {
      const li = lineItems.find((l) => l.name === name);
      if (li === undefined) return undefined;
      const targeting = li.key === 'one' ? keys([`LOCATION:${CA}`, 'BROAD_KEYWORD:canoes']) : keys([`LOCATION:${US}`, 'BROAD_KEYWORD:refused keyword']);
      return [{ targeting, posts: li.posts }];
    };
    expect(servingViolations(servingMoments(before, wire), versions)).toEqual([]);
    // its targeting was refused: the line item waits, PAUSED; the other is complete and ACTIVE
    expect((await liveLineItem('New two')).status).toBe('PAUSED');
    expect(await liveLineItem('New one')).toEqual({ status: 'ACTIVE', targeting: [`BROAD_KEYWORD:canoes`, `LOCATION:${CA}`].sort(), posts: [POST_A] });
    expect(run.stdout + run.stderr).toMatch(/campaigns\.fresh\.line_items\.two/);

    log.allow();
    const again = await recorded(() => ws.apply());
    expect(again.run.code, transcript(again.run)).toBe(0);
    expect(await liveLineItem('New two')).toEqual({ status: 'ACTIVE', targeting: [`BROAD_KEYWORD:refused keyword`, `LOCATION:${US}`].sort(), posts: [POST_B] });
    expect(servingViolations(servingMoments(again.before, again.wire), versions)).toEqual([]);
    const clean = await ws.plan({ detailedExitcode: true });
    expect(clean.code, transcript(clean)).toBe(0);
  });
});

describe('a new audience and a new line item targeting it', () => {
  it('apply in one run: the members are uploaded before the criterion, the activation last', async () => {
    const head = seededAccountHead(log.url);
    const ws = workspace(`${head}custom_audiences:
  buyers:
    name: Serving buyers
    users: { file: data/buyers.csv, default_region: US }
campaigns:
${campaignYaml('funnel', 'Serving funnel', [{ key: 'buyers', name: 'Funnel buyers', targeting: [location(US), '{ targeting_type: CUSTOM_AUDIENCE, custom_audience: buyers }'], posts: [POST_A] }])}`);
    mkdirSync(join(ws.dir, 'data'), { recursive: true });
    writeFileSync(join(ws.dir, 'data', 'buyers.csv'), memberCsv(people(seededRandom(18), 200, 'buyer')));
    const { run, before, wire } = await recorded(() => ws.apply());
    expect(run.code, transcript(run)).toBe(0);
    const at = (test: (r: WireRequest) => boolean): number => wire.findIndex(test);
    const upload = at((r) => r.method === 'POST' && /\/custom_audiences\/[^/]+\/users$/.test(r.path));
    const criterion = at((r) => targetingBatches([r]).length === 1 && JSON.stringify(r.json).includes('CUSTOM_AUDIENCE'));
    const activation = at((r) => r.path.endsWith('/batch/accounts/18ce54d4x5t/line_items') && JSON.stringify(r.json).includes('"Update"'));
    expect(upload).toBeGreaterThanOrEqual(0);
    expect(criterion).toBeGreaterThan(upload);
    expect(activation).toBeGreaterThan(criterion);
    const live = await liveLineItem('Funnel buyers');
    expect(live.status).toBe('ACTIVE');
    expect(live.targeting).toHaveLength(2);
    const audience = live.targeting.find((t) => t.startsWith('CUSTOM_AUDIENCE:'))!;
    expect(servingViolations(servingMoments(before, wire), (name) => (name === 'Funnel buyers' ? [{ targeting: keys([`LOCATION:${US}`, audience]), posts: [POST_A] }] : undefined))).toEqual([]);
    const clean = await ws.plan({ detailedExitcode: true });
    expect(clean.code, transcript(clean)).toBe(0);
  });
});

describe('more targeting changes than one request holds', () => {
  it('pause the serving line item, change it, and resume it', async () => {
    const head = seededAccountHead(log.url);
    const words = (prefix: string): string[] => Array.from({ length: 300 }, (_, i) => `${prefix} ${i}`);
    const spec = (prefix: string): string =>
      `${head}campaigns:\n${campaignYaml('large', 'Serving large', [{ key: 'wide', name: 'Large change', targeting: [location(US), ...words(prefix).map(keyword)], posts: [POST_A] }])}`;
    const ws = workspace(spec('old'));
    const first = await ws.apply();
    expect(first.code, transcript(first)).toBe(0);
    ws.write(spec('new'));
    const plan = await ws.plan();
    expect(plan.stdout).toContain('(campaigns.large.line_items.wide is paused while its targeting criteria change, then resumed)');
    const { run, before, wire } = await recorded(() => ws.apply());
    expect(run.code, transcript(run)).toBe(0);
    const statusWrites = wire.filter((r) => r.path.endsWith('/batch/accounts/18ce54d4x5t/line_items')).map((r) => (r.json as Array<{ params: Record<string, unknown> }>)[0]?.params['entity_status']);
    expect(statusWrites).toEqual(['PAUSED', 'ACTIVE']);
    const pause = wire.findIndex((r) => r.path.endsWith('/batch/accounts/18ce54d4x5t/line_items'));
    const firstTargeting = wire.findIndex((r) => targetingBatches([r]).length === 1);
    expect(firstTargeting).toBeGreaterThan(pause);
    const old = { targeting: keys([`LOCATION:${US}`, ...words('old').map((w) => `BROAD_KEYWORD:${w}`)]), posts: [POST_A] };
    const next = { targeting: keys([`LOCATION:${US}`, ...words('new').map((w) => `BROAD_KEYWORD:${w}`)]), posts: [POST_A] };
    expect(servingViolations(servingMoments(before, wire), (name) => (name === 'Large change' ? [old, next] : undefined))).toEqual([]);
    expect((await liveLineItem('Large change')).status).toBe('ACTIVE');
    const clean = await ws.plan({ detailedExitcode: true });
    expect(clean.code, transcript(clean)).toBe(0);
  });
});

describe('a serving line item whose promoted post changes', () => {
  it('drops the old post before it takes the new one, never carrying both', async () => {
    const head = seededAccountHead(log.url);
    const spec = (post: string): string =>
      `${head}campaigns:\n${campaignYaml('swap', 'Serving swap', [{ key: 'main', name: 'Swapped post', targeting: [location(US)], posts: [post] }])}`;
    const ws = workspace(spec(POST_A));
    const first = await ws.apply();
    expect(first.code, transcript(first)).toBe(0);
    ws.write(spec(POST_B));
    const { run, before, wire } = await recorded(() => ws.apply());
    expect(run.code, transcript(run)).toBe(0);
    const removal = wire.findIndex((r) => r.method === 'DELETE' && r.path.includes('/promoted_tweets/'));
    const addition = wire.findIndex((r) => r.method === 'POST' && r.path.endsWith('/promoted_tweets'));
    expect(removal).toBeGreaterThanOrEqual(0);
    expect(addition).toBeGreaterThan(removal);
    const versions = [{ targeting: keys([`LOCATION:${US}`]), posts: [POST_A] }, { targeting: keys([`LOCATION:${US}`]), posts: [POST_B] }];
    expect(servingViolations(servingMoments(before, wire), (name) => (name === 'Swapped post' ? versions : undefined))).toEqual([]);
    expect(await liveLineItem('Swapped post')).toEqual({ status: 'ACTIVE', targeting: [`LOCATION:${US}`], posts: [POST_B] });
    const clean = await ws.plan({ detailedExitcode: true });
    expect(clean.code, transcript(clean)).toBe(0);
  });
});
