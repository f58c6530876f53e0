/**
 * The round trip of `adsctl generate` (docs/architecture.md, "Contracts the code relies on"): an
 * account applied from a manifest, or built by hand through the API, is generated into an empty
 * directory, and `plan` of that directory right after plans no change and sends no write (the
 * wire is recorded by a proxy). Run for every example of examples/ and for seeded random
 * accounts (fixed seeds, named in the test) with odd names, colliding names and budgets with
 * cents.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { emulatorEnv, resetRateLimits, transcript } from '../support/e2e.js';
import { seededRandom } from '../support/member-files.js';
import { png } from '../support/media-bytes.js';
import { libraryMedia } from '../support/media-library.js';
import { runCli } from '../support/run-cli.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
const ACCOUNT = '18ce54d4x5t';
/**
 * Lists generate reads whole that a refresh skips when nothing is bound: the do-not-reach list,
 * media library, audiences, media creatives, curated categories, image and video conversation
 * cards, posts, drafts and scheduled posts.
 */
const EMPTY_KIND_PROBES = 10;

let emulator: RunningEmulator;
let client: TestClient;
let log: WireLog;
const dirs: string[] = [];

const env = (): NodeJS.ProcessEnv => ({ ...emulatorEnv(emulator.info), ADSCTL_ENDPOINT: log.url });
const adsctl = async (cwd: string, args: string[], code: number): Promise<{ stdout: string; stderr: string }> => {
  const run = await runCli(args, { env: { ...env(), XDG_CONFIG_HOME: join(cwd, '.config') }, cwd });
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
};
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-generate-'));
  dirs.push(dir);
  return dir;
};

/** Generates account `id` into an empty directory, then plans it: no change, no write. */
async function roundTrip(id: string): Promise<string> {
  const out = join(scratch(), 'accounts');
  log.reset();
  await adsctl(join(out, '..'), ['generate', out, '--account', id], 0);
  const generateReads = log.requests().filter((r) => !r.path.endsWith('/accounts')).length;
  const text = readFileSync(join(out, `${id}.yaml`), 'utf8');
  log.reset();
  const plan = await adsctl(out, ['plan', '.', '--detailed-exitcode'], 0);
  expect(plan.stdout, text).toContain('No changes.');
  expect(log.writes(), text).toEqual([]);
  // the account list aside, no more reads than the refresh of everything it wrote, but for one
  // request for each kind the account turned out to have none of (which a refresh never reads)
  const refreshReads = log.requests().length;
  expect(generateReads, `generate ${id}: ${generateReads} reads; the refresh after it: ${refreshReads}`).toBeLessThanOrEqual(Math.ceil(refreshReads * 1.05) + EMPTY_KIND_PROBES);
  return text;
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  log = await startWireLog(emulator.info.base_url);
});
afterAll(async () => {
  await log.close();
  await emulator.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('generate, then plan: no change and no write', () => {
  const examples = readdirSync(EXAMPLES).filter((e) => readdirSync(join(EXAMPLES, e)).some((f) => f.endsWith('.yaml')));
  it.each(examples)('examples/%s', async (example) => {
    await resetRateLimits(emulator.info);
    const work = join(scratch(), example);
    cpSync(join(EXAMPLES, example), work, { recursive: true });
    await adsctl(work, ['apply', '.', '--auto-approve'], 0);
    const states = readdirSync(join(work, '.adsctl', 'state')).filter((f) => f.endsWith('.json'));
    const ids = states.map((f) => String((JSON.parse(readFileSync(join(work, '.adsctl', 'state', f), 'utf8')) as { account_id?: string }).account_id));
    for (const id of ids) await roundTrip(id);
  }, 120_000);

  const SEEDS = [1, 2, 3];
  it.each(SEEDS)('a random account built by hand, seed %i', async (seed) => {
    await resetRateLimits(emulator.info);
    const made = await buildRandomAccount(seed);
    const text = await roundTrip(made);
    expect(text).toContain('# yaml-language-server: $schema=');
    // every kind the account was given is in the manifest, and the promoted post of a post it holds names it by logical name
    const doc = parse(text) as Record<string, unknown>;
    for (const section of ['media', 'conversation_cards', 'posts', 'draft_posts', 'scheduled_posts', 'custom_audiences', 'campaigns']) expect(Object.keys((doc[section] ?? {}) as object).length, `${section}\n${text}`).toBeGreaterThan(0);
    expect(text).toMatch(/promoted_posts: .*\bposts\.\w+/);
    expect(text).toMatch(/conversation_card: \w+/);
    expect(text).toMatch(/media: \[ \w+ \]/);
    // generated again over itself only with --force, and it is the same manifest but for its header time and modeline path
    const again = scratch();
    await adsctl(again, ['generate', '.', '--account', made], 0);
    const refused = await adsctl(again, ['generate', '.', '--account', made], 1);
    expect(refused.stderr).toMatch(/already exists: nothing was written \(use --force to overwrite\)/);
    await adsctl(again, ['generate', '.', '--account', made, '--force'], 0);
    const strip = (t: string): string => t.replace(/ on \d{4}-\d\d-\d\dT[\d:]+Z\./, '').replace(/^# yaml-language-server: .*\n/, '');
    expect(strip(readFileSync(join(again, `${made}.yaml`), 'utf8'))).toBe(strip(text));
  }, 120_000);
});

describe('bad input: one line, exit 1, nothing written', () => {
  it('an account the credentials cannot reach', async () => {
    const dir = scratch();
    const run = await adsctl(dir, ['generate', 'out', '--account', 'nosuchacct'], 1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('account nosuchacct cannot be reached with these credentials');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('a DIR that is a file', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'file.yaml'), 'x: 1\n');
    const run = await adsctl(dir, ['generate', 'file.yaml', '--account', ACCOUNT], 1);
    expect(run.stderr).toBe('Error: file.yaml is a file: generate writes one manifest per account into a directory\n');
    expect(readFileSync(join(dir, 'file.yaml'), 'utf8')).toBe('x: 1\n');
  });
});

const ODD_NAMES = ['Summer: Sale #1', "O'Brien & Sons", '- leading dash', '* star', 'yes', '123', 'Été 50%', '日本 campaign', '"quoted"', 'a\\b', 'Summer Sale', 'summer sale!', '[brackets]', '{braces}', 'trailing space '];
const POSTS = ['1346184843436720128', '1346184843440914432'];

/** Makes a sandbox account and fills it through the API with campaigns, line items, criteria, promotions, an audience and a library item. */
async function buildRandomAccount(seed: number): Promise<string> {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const cents = (): number => (1 + Math.floor(rnd() * 9000)) * 10_000;
  const A = `/12/accounts/${ACCOUNT}`;
  const ok = (r: { status: number; text?: string }, what: string): void => {
    expect(r.status, `seed ${seed}: ${what}: ${r.text ?? ''}`).toBeLessThan(300);
  };
  let lineItemId = '';
  const campaigns = 2 + Math.floor(rnd() * 3);
  for (let c = 0; c < campaigns; c += 1) {
    const campaign = await client.post(`${A}/campaigns`, { funding_instrument_id: 'lygyi', name: `${pick(ODD_NAMES)} s${seed}`, daily_budget_amount_local_micro: cents(), entity_status: 'PAUSED', ...(rnd() < 0.5 ? { total_budget_amount_local_micro: 100_000_000_00 } : {}) });
    ok(campaign, 'campaign');
    const lineItems = 1 + Math.floor(rnd() * 2);
    for (let l = 0; l < lineItems; l += 1) {
      const li = await client.post(`${A}/line_items`, {
        campaign_id: String(campaign.body.data.id),
        name: pick(ODD_NAMES),
        product_type: 'PROMOTED_TWEETS',
        objective: 'ENGAGEMENTS',
        placements: 'ALL_ON_SERVICE',
        bid_strategy: 'MAX',
        bid_amount_local_micro: (1 + Math.floor(rnd() * 500)) * 10_000,
        start_time: '2027-01-01T09:00:00Z',
        entity_status: pick(['PAUSED', 'ACTIVE']),
      });
      ok(li, 'line item');
      lineItemId = String(li.body.data.id);
      ok(await client.post(`${A}/targeting_criteria`, { line_item_id: lineItemId, targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1' }), 'criterion');
      ok(await client.post(`${A}/targeting_criteria`, { line_item_id: lineItemId, targeting_type: 'BROAD_KEYWORD', targeting_value: pick(['cheap', 'free shipping', 'tents: sale']), operator_type: rnd() < 0.5 ? 'NE' : 'EQ' }), 'keyword');
      ok(await client.post(`${A}/promoted_tweets`, { line_item_id: lineItemId, tweet_ids: pick(POSTS) }), 'promotion');
    }
  }
  ok(await client.post(`${A}/custom_audiences`, { name: `${pick(ODD_NAMES)} audience ${seed}`, description: 'made by hand' }), 'audience');
  const image = await libraryMedia(client, ACCOUNT, png(32 + seed, 32), 'image/png', { name: `${pick(ODD_NAMES)} image` });
  // Part B: a conversation card on a library image, posts (one with the card, one promoted), a draft and a scheduled post
  const wide = await libraryMedia(client, ACCOUNT, png(800 + seed, 419), 'image/png', { name: `wide ${seed}` });
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
  return ACCOUNT;
}
