/**
 * The round trip of `adsctl generate` (docs/architecture.md, "Contracts the code relies on"): an
 * account applied from a manifest, or built by hand through the API, is generated into an empty
 * directory, and `plan` of that directory right after plans no change and sends no write (the
 * wire is recorded by a proxy, test/support/engine-round-trip.ts). Run for every example of examples/
 * and for seeded random accounts built through the API (fixed seeds, named in every failure)
 * holding every kind generate writes, with names YAML must quote, names of one slug and budgets
 * with cents; what generate writes of an example's objects is what the example wrote, or less
 * (the values the service gave the fields it left out stay out). The golden manifests are
 * test/engine/generate-golden-roundtrip.test.ts. Through the engine in-process against an
 * in-process emulator at a manual clock; generate's refusals of its DIR, checks the command itself
 * makes, are test/e2e/generate-roundtrip.test.ts.
 */
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxAccount } from '../support/audiences.js';
import type { TestClient } from '../support/client.js';
import { listAll, resetRateLimits } from '../support/e2e.js';
import { generateInto } from '../support/engine-adoption.js';
import { expectCode } from '../support/engine-harness.js';
import { closeInProcess, engineWorkspaceAt, inProcess, roundTripInProcess, type InProcess } from '../support/engine-round-trip.js';
import { seededRandom } from '../support/member-files.js';
import { mp4, png } from '../support/media-bytes.js';
import { addToLibrary, libraryMedia, uploadMedia } from '../support/media-library.js';
import { accountsOf, asMap, expectNothingBeyond, removeScratch, scratch, shareOutsideBusiness, type Generated } from '../support/round-trip.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
const ACCOUNT = '18ce54d4x5t';

let shared: InProcess;
beforeAll(async () => {
  shared = await inProcess();
});
afterAll(async () => {
  await closeInProcess(shared);
  removeScratch();
});

describe('generate, then plan: no change and no write', () => {
  const examples = readdirSync(EXAMPLES).filter((e) => readdirSync(join(EXAMPLES, e)).some((f) => f.endsWith('.yaml')));
  it.each(examples)('examples/%s', async (example) => {
    await resetRateLimits(shared.emulator.info);
    const work = join(scratch(), example);
    cpSync(join(EXAMPLES, example), work, { recursive: true });
    await expectCode(engineWorkspaceAt(shared, work).apply({ path: '.' }), 0);
    const generated: Generated[] = [];
    for (const id of accountsOf(work)) generated.push(await roundTripInProcess(shared, id));
    expectNothingBeyond(work, generated);
  }, 120_000);

  const SEEDS = [1, 2, 3];
  it.each(SEEDS)('a random account built by hand, seed %i', async (seed) => {
    await resetRateLimits(shared.emulator.info);
    const made = await buildRandomAccount(shared.client, seed);
    const { text, doc } = await roundTripInProcess(shared, ACCOUNT);
    expect(text).toContain('# yaml-language-server: $schema=');
    // every kind the account was given is in the manifest, and the promoted post of a post it holds names it by logical name
    for (const section of ['media', 'cards', 'conversation_cards', 'posts', 'draft_posts', 'scheduled_posts', 'custom_audiences', 'campaigns']) expect(Object.keys((doc[section] ?? {}) as object).length, `seed ${seed}: ${section}\n${text}`).toBeGreaterThan(0);
    expect(doc['do_not_reach'], `seed ${seed}\n${text}`).toBeDefined();
    for (const list of ['targeting', 'promoted_posts', 'promoted_accounts', 'media_creatives', 'curated_categories', 'permissions']) expect(text, `seed ${seed}: ${list}`).toMatch(new RegExp(`^\\s+${list}:`, 'm'));
    expect(text).toMatch(/promoted_posts: .*\bposts\.\w+/);
    expect(text).toMatch(/conversation_card: \w+/);
    expect(text).toMatch(/media: \[ \w+ \]/);
    // names YAML must quote read back as they were made; two names of one slug are told apart, with a comment
    const names = Object.values(asMap(doc['campaigns'])).flatMap((c) => [asMap(c)['name'], ...Object.values(asMap(asMap(c)['line_items'])).map((l) => asMap(l)['name'])]);
    for (const name of made.names) expect(names, `seed ${seed}: ${JSON.stringify(name)}\n${text}`).toContain(name);
    expect(text, `seed ${seed}`).toContain(`# named like campaigns.summer_sale_${seed} ("summer sale ${seed}!"): given the key summer_sale_${seed}_2\n  summer_sale_${seed}_2:`);
    expect(asMap(asMap(doc['campaigns'])[`summer_sale_${seed}`])['name']).toBe(`Summer Sale ${seed}`);
    // budgets with cents, exactly
    const budgets = Object.values(asMap(doc['campaigns'])).map((c) => asMap(c)['daily_budget']);
    for (const budget of made.budgets) expect(budgets, `seed ${seed}`).toContain(budget);
    // generated again over itself only with --force, and it is the same manifest but for its header time and modeline path
    const again = engineWorkspaceAt(shared, scratch());
    await expectCode(generateInto(again, '.', [ACCOUNT], shared.log.url), 0);
    const refused = await expectCode(generateInto(again, '.', [ACCOUNT], shared.log.url), 1);
    expect(refused.stderr).toMatch(/already exists: nothing was written \(use --merge --account ID to add what it does not hold yet, or --force to overwrite\)/);
    await expectCode(generateInto(again, '.', [ACCOUNT], shared.log.url, { force: true }), 0);
    const strip = (t: string): string => t.replace(/ on \d{4}-\d\d-\d\dT[\d:]+Z\./, '').replace(/^# yaml-language-server: .*\n/, '');
    expect(strip(readFileSync(again.path(`${ACCOUNT}.yaml`), 'utf8'))).toBe(strip(text));
  }, 120_000);
});

describe('bad input: one line, exit 1, nothing written', () => {
  it('an account the credentials cannot reach', async () => {
    const ws = engineWorkspaceAt(shared, scratch());
    const run = await expectCode(generateInto(ws, 'out', ['nosuchacct'], shared.log.url), 1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('account nosuchacct cannot be reached with these credentials');
    expect(existsSync(ws.path('out'))).toBe(false);
  });
});

const ODD_NAMES = ['Summer: Sale #1', "O'Brien & Sons", '- leading dash', '* star', 'yes', '123', 'Été 50%', '日本 campaign', '"quoted"', 'a\\b', 'Summer Sale', 'summer sale!', '[brackets]', '{braces}', 'trailing space '];
const POSTS = ['1346184843436720128', '1346184843440914432'];

/** What a random account was given that its manifest must show as made: names, and daily budgets in currency units. */
interface Made {
  names: string[];
  budgets: string[];
}

/**
 * Fills the seeded account through the API with every kind generate writes: campaigns (two of
 * them named to one slug), line items of three product types with targeting, promoted posts, a
 * promoted account, a pre-roll creative and a curated category; a library image and video, a
 * website card, a conversation card, posts, a draft and a scheduled post; an audience shared with
 * another account, and the do-not-reach list. Names are picked from names YAML must quote.
 */
async function buildRandomAccount(client: TestClient, seed: number): Promise<Made> {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const made: Made = { names: [], budgets: [] };
  const cents = (): number => {
    const micros = (1 + Math.floor(rnd() * 9000)) * 10_000;
    made.budgets.push(`${Math.floor(micros / 1_000_000)}.${String((micros / 10_000) % 100).padStart(2, '0')}`);
    return micros;
  };
  const A = `/12/accounts/${ACCOUNT}`;
  const ok = (r: { status: number; text?: string }, what: string): void => {
    expect(r.status, `seed ${seed}: ${what}: ${r.text ?? ''}`).toBeLessThan(300);
  };
  const campaign = async (name: string, extra: Record<string, string | number> = {}): Promise<string> => {
    const r = await client.post(`${A}/campaigns`, { funding_instrument_id: 'lygyi', name, daily_budget_amount_local_micro: cents(), entity_status: 'PAUSED', ...extra });
    ok(r, `campaign ${name}`);
    made.names.push(name);
    return String(r.body.data.id);
  };
  const lineItem = async (campaignId: string, name: string, params: Record<string, string | number>): Promise<string> => {
    const r = await client.post(`${A}/line_items`, { campaign_id: campaignId, name, placements: 'ALL_ON_SERVICE', start_time: '2027-01-01T09:00:00Z', ...params });
    ok(r, `line item ${name}`);
    made.names.push(name);
    return String(r.body.data.id);
  };
  let lineItemId = '';
  const campaigns = 2 + Math.floor(rnd() * 3);
  for (let c = 0; c < campaigns; c += 1) {
    const campaignId = await campaign(`${pick(ODD_NAMES)} s${seed}`, rnd() < 0.5 ? { total_budget_amount_local_micro: 100_000_000_00 } : {});
    const lineItems = 1 + Math.floor(rnd() * 2);
    for (let l = 0; l < lineItems; l += 1) {
      lineItemId = await lineItem(campaignId, pick(ODD_NAMES), { product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', bid_strategy: 'MAX', bid_amount_local_micro: (1 + Math.floor(rnd() * 500)) * 10_000, entity_status: pick(['PAUSED', 'ACTIVE']) });
      ok(await client.post(`${A}/targeting_criteria`, { line_item_id: lineItemId, targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1' }), 'criterion');
      ok(await client.post(`${A}/targeting_criteria`, { line_item_id: lineItemId, targeting_type: 'BROAD_KEYWORD', targeting_value: pick(['cheap', 'free shipping', 'tents: sale']), operator_type: rnd() < 0.5 ? 'NE' : 'EQ' }), 'keyword');
      ok(await client.post(`${A}/promoted_tweets`, { line_item_id: lineItemId, tweet_ids: pick(POSTS) }), 'promotion');
    }
  }
  // two campaigns whose names slug to one key
  await campaign(`Summer Sale ${seed}`);
  await campaign(`summer sale ${seed}!`);
  // a follower campaign promoting an account, and a pre-roll line item with its creative and a curated category
  const followers = await lineItem(await campaign(`Followers: ${seed}`), `# lookalikes ${seed}`, { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS', entity_status: 'PAUSED' });
  ok(await client.post(`${A}/promoted_accounts`, { line_item_id: followers, user_id: pick(['783214', '17874544']) }), 'promoted account');
  const preroll = await lineItem(await campaign(`Video "${seed}"`), `- pre-roll ${seed}`, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS', categories: 'IAB1', advertiser_domain: 'example.com', entity_status: 'PAUSED' });
  const teaser = await uploadMedia(client, mp4(1280, 720, { durationMs: 6000 + seed * 1000 }), 'video/mp4', { category: 'amplify_video' });
  await addToLibrary(client, ACCOUNT, teaser, { name: `Teaser ${seed}` });
  const asset = (await listAll(client, `${A}/account_media`)).find((m) => m['media_key'] === teaser && m['creative_type'] === 'PREROLL');
  ok(await client.post(`${A}/media_creatives`, { line_item_id: preroll, account_media_id: String(asset?.['id']) }), 'media creative');
  ok(await client.post(`${A}/line_item_curated_categories`, { line_item_id: preroll, curated_category_id: pick(['1hd2', '1hd3']) }, { as: 'form' }), 'curated category');
  // an audience shared with another account, and the do-not-reach list
  const audience = await client.post(`${A}/custom_audiences`, { name: `${pick(ODD_NAMES)} audience ${seed}`, description: 'made by hand' });
  ok(audience, 'audience');
  await shareOutsideBusiness(client, ACCOUNT);
  ok(await client.post(`${A}/custom_audiences/${String(audience.body.data.id)}/permissions`, { granted_account_id: await createSandboxAccount(client), permission_level: 'READ_ONLY' }), 'permission');
  if ((await client.get(`${A}/do_not_reach_lists`)).body.data.length === 0) ok(await client.post(`${A}/do_not_reach_lists`), 'do-not-reach list');
  const image = await libraryMedia(client, ACCOUNT, png(32 + seed, 32), 'image/png', { name: `${pick(ODD_NAMES)} image` });
  // Part B: a website card and a conversation card on a library image, posts (one with the card, one promoted), a draft and a scheduled post
  const wide = await libraryMedia(client, ACCOUNT, png(800 + seed, 419), 'image/png', { name: `wide ${seed}` });
  ok(await client.post(`${A}/cards`, {}, { json: { name: `${pick(ODD_NAMES)} card ${seed}`, components: [{ type: 'MEDIA', media_key: wide }, { type: 'DETAILS', title: `Shop: #${seed}`, destination: { type: 'WEBSITE', url: `https://example.com/${seed}` } }] } }), 'website card');
  const conversation = await client.post(`${A}/cards/image_conversation`, { name: `${pick(ODD_NAMES)} poll ${seed}`, media_key: wide, first_cta: '#Tents', first_cta_tweet: 'I want a tent', title: 'Pick one', thank_you_text: 'Thanks!' }, { as: 'form' });
  ok(conversation, 'conversation card');
  const users = await client.get(`${A}/promotable_users`);
  const author = String((users.body.data as Array<Record<string, unknown>>).find((u) => u['promotable_user_type'] === 'FULL')?.['user_id']);
  const post = await client.post(`${A}/tweet`, { as_user_id: author, text: `Summer: sale #${seed} starts now`, name: `${pick(ODD_NAMES)} post` }, { as: 'form' });
  ok(post, 'post');
  ok(await client.post(`${A}/tweet`, { as_user_id: author, text: `Vote ${seed}`, card_uri: String(conversation.body.data.card_uri) }, { as: 'form' }), 'post with a card');
  ok(await client.post(`${A}/promoted_tweets`, { line_item_id: lineItemId, tweet_ids: String(post.body.data.id_str ?? post.body.data.id) }), 'promotion of the post');
  ok(await client.post(`${A}/draft_tweets`, { as_user_id: author, text: `Draft ${seed}: "soon"`, media_keys: image, name: `${pick(ODD_NAMES)} draft` }, { as: 'form' }), 'draft');
  ok(await client.post(`${A}/scheduled_tweets`, { as_user_id: author, text: `Scheduled ${seed}`, scheduled_at: '2031-06-01T09:00:00Z', ...(rnd() < 0.5 ? { nullcast: false } : {}) }, { as: 'form' }), 'scheduled post');
  return made;
}
