/**
 * Promoted-post swaps of serving line items (docs/architecture.md, "Serving safety";
 * RELIABILITY.md, "Promoted-post swaps"). Each trial applies one ACTIVE campaign with two ACTIVE
 * line items, each with a promoted post, then a manifest that raises the campaign's budget and
 * gives both line items another post. The old promotion is removed before the new one is added, so
 * the swap has a moment with no post; the trials hold the apply to what follows from it:
 *
 * - **refused**: the emulator refuses the new post of one line item (`Tweet … was not found`, as
 *   for a post deleted since the plan). The apply exits 1, says in one line that it put the old
 *   post back, and when it ends no line item is ACTIVE without a post: the refused one carries
 *   its old post, the other its new one. No moment of the apply, replayed from the wire, serves
 *   wider than the old or the new manifest.
 * - **killed**: the swap apply (with or without the refusal, so the putting back is killed too) is
 *   killed at its nth write, before the emulator sees it or after it handled it. Then, the refusal
 *   lifted and the budget raised again: `plan --json` lists every line item left ACTIVE without a
 *   post under `serving_without_creative`, the next apply shows it at the top of its plan and
 *   sends its promotion before any other write, serving no wider than either manifest at any
 *   moment, and after it no line item is ACTIVE without a post and the plan is clean.
 *
 * Applies run with `--parallelism 1`, so the nth write is the same write in every run. The fast
 * part (`npm test`) runs three trials: a refused swap, a swap killed between its delete and its
 * add, and a refused swap killed before its putting back. `SWAP_EVERY_WRITE=1` (`npm run chaos`)
 * kills both kinds of swap at every write, before and after, `SWAP_ROUNDS` times (1 unless told),
 * each round with its own posts and refused line item drawn from `SWAP_SEED` (printed with every
 * failure).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, readLiveAccount, resetRateLimits, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import { seededRandom } from '../support/member-files.js';
import { clearRefusals, refuse } from '../support/refusals.js';
import { servingMoments, servingViolations } from '../support/serving-monitor.js';
import { startWireLog, type WireLog, type WireRequest } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';
const SEED = Number(process.env['SWAP_SEED'] ?? 5150);
const EVERY_WRITE = process.env['SWAP_EVERY_WRITE'] === '1';
const ROUNDS = Number(process.env['SWAP_ROUNDS'] ?? 1);
const LOCATIONS = ['96683cc9126741d1', 'aabd7522322d9682'];
const APPLY = ['apply', '--auto-approve', '--parallelism', '1'];
/** `SWAP_DEBUG=1` prints what each trial's runs said. */
const debug = (what: string, run: { code: number | null; stdout: string; stderr: string }): void => {
  if (process.env['SWAP_DEBUG'] !== undefined) process.stderr.write(`--- ${what}\n${transcript(run)}\n`);
};

let emulator: RunningEmulator;
let client: TestClient;
let log: WireLog;
const workspaces: Workspace[] = [];

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  log = await startWireLog(emulator.info.base_url);
});
afterAll(async () => {
  await log.close();
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

/** One trial's posts: the old and the new of each line item, and which line item's new post is refused. */
interface Posts {
  old: [string, string];
  fresh: [string, string];
  refused: 0 | 1;
}

/** Four distinct seeded posts and the line item to refuse, drawn from `random`. */
function drawPosts(random: () => number): Posts {
  const ids = new Set<string>();
  while (ids.size < 4) ids.add(SEED_POST_IDS[Math.floor(random() * SEED_POST_IDS.length)]!);
  const [a, b, c, d] = [...ids] as [string, string, string, string];
  return { old: [a, b], fresh: [c, d], refused: random() < 0.5 ? 0 : 1 };
}

const lineItemName = (n: number, i: number): string => `Swap ${n} item ${i}`;
const lineItemAddress = (i: number): string => `campaigns.trial.line_items.item_${i}`;

/** Trial `n`'s manifest: the campaign at `budget`, line item i promoting `posts[i]`. */
function manifest(n: number, budget: string, posts: readonly string[]): string {
  const items = LOCATIONS.map(
    (location, i) => `      item_${i}:
        name: ${lineItemName(n, i)}
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.00"
        start_time: 2027-01-01T00:00:00Z
        entity_status: ACTIVE
        targeting:
          - { targeting_type: LOCATION, targeting_value: ${location} }
        promoted_posts: ["${posts[i]}"]`,
  );
  return `${seededAccountHead(log.url)}campaigns:
  trial:
    name: Swap trial ${n}
    funding_instrument: main
    daily_budget: "${budget}"
    entity_status: ACTIVE
    line_items:
${items.join('\n')}
`;
}

/** The trial's line items as they are live: status, whether their campaign is ACTIVE, posts. */
async function liveItems(n: number): Promise<Array<{ name: string; id: string; serving: boolean; posts: string[] }>> {
  const live = await readLiveAccount(client, ACCOUNT);
  const campaign = live.campaigns.find((c) => c['name'] === `Swap trial ${n}`);
  return live.lineItems
    .filter((l) => l['campaign_id'] === campaign?.['id'])
    .map((l) => ({
      name: String(l['name']),
      id: String(l['id']),
      serving: l['entity_status'] === 'ACTIVE' && campaign?.['entity_status'] === 'ACTIVE',
      posts: live.promotedPosts.filter((p) => p['line_item_id'] === l['id']).map((p) => String(p['tweet_id'])).sort(),
    }));
}

/** The names of the trial's line items that are ACTIVE in an ACTIVE campaign and promote nothing. */
async function withoutPost(n: number): Promise<string[]> {
  return (await liveItems(n)).filter((l) => l.serving && l.posts.length === 0).map((l) => l.name);
}

/** Pauses a finished trial's campaign, so the trials, many in one account, stay below its limits. */
async function pauseTrial(n: number): Promise<void> {
  const live = await readLiveAccount(client, ACCOUNT);
  const campaign = live.campaigns.find((c) => c['name'] === `Swap trial ${n}`);
  if (campaign === undefined) return;
  const reply = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${String(campaign['id'])}`, { entity_status: 'PAUSED' });
  if (reply.status !== 200) throw new Error(`pausing the campaign of a finished trial answered ${reply.status}: ${reply.text}`);
}

/** Has the emulator refuse the promotion of `post`, as the service refuses a post that is gone. */
const refusePost = (post: string) =>
  refuse(emulator.info, { method: 'POST', path: '/promoted_tweets$', match: { tweet_ids: post }, status: 404, code: 'NOT_FOUND', message: `Tweet ${post} was not found`, parameter: 'tweet_ids' });

/** What the trials found, counted as RELIABILITY.md reports it. */
interface Tally {
  trials: number;
  /** Line items ACTIVE without a post when a refused swap's apply ended. */
  refusedLeftWithout: number;
  /** Line items ACTIVE without a post right after a kill (the next run's to repair), and the trials that left any. */
  killedLeftWithout: number;
  killedTrialsLeftWithout: number;
  /** Of those, the ones the next plan did not list as serving without a creative. */
  notReported: number;
  /** Of those, the ones the next apply did not repair before its other writes. */
  notRepairedFirst: number;
  /** Line items ACTIVE without a post after the next apply. */
  afterNextApply: number;
}

/** A trial: the round's posts, and where its swap apply is killed (none: it runs to the end). */
interface Trial {
  n: number;
  round: number;
  posts: Posts;
  refused: boolean;
  kill?: { at: number; when: 'before' | 'after' };
}

const describeTrial = (t: Trial): string =>
  `trial ${t.n} (seed ${SEED}, round ${t.round}): ${t.refused ? `item_${t.posts.refused}'s new post refused` : 'plain swap'}${t.kill === undefined ? '' : `, killed at write ${t.kill.at} ${t.kill.when} the emulator handled it`}`;

/** Applies the trial's first manifest to the end, in a workspace of its own. */
async function setUp(t: Trial): Promise<Workspace> {
  await resetRateLimits(emulator.info);
  const ws = createWorkspace(emulator.info, manifest(t.n, '5.00', t.posts.old));
  workspaces.push(ws);
  const first = await ws.run(APPLY);
  if (first.code !== 0) throw new Error(`${describeTrial(t)}: the first apply failed\n${transcript(first)}`);
  ws.write(manifest(t.n, '6.00', t.posts.fresh));
  if (t.refused) await refusePost(t.posts.fresh[t.posts.refused]);
  return ws;
}

/** What each of the trial's line items may serve with: its targeting and the old or the new post. */
function versionsOf(t: Trial): (name: string) => Array<{ targeting: string[]; posts: string[] }> | undefined {
  return (name) => {
    const i = ([0, 1] as const).find((k) => lineItemName(t.n, k) === name);
    if (i === undefined) return undefined;
    const targeting = [`LOCATION:${LOCATIONS[i]!}:EQ`];
    return [
      { targeting, posts: [t.posts.old[i]] },
      { targeting, posts: [t.posts.fresh[i]] },
    ];
  };
}

/** The swap applied to the end with the refusal on: counted, and checked as the file comment says. */
async function refusedTrial(t: Trial, tally: Tally, failures: string[]): Promise<number> {
  const ws = await setUp(t);
  const before = await readLiveAccount(client, ACCOUNT);
  log.reset();
  const run = await ws.run(APPLY);
  debug(`${describeTrial(t)}: the refused swap`, run);
  const wire = log.requests();
  await clearRefusals(emulator.info);
  const name = describeTrial(t);
  const r = t.posts.refused;
  if (run.code !== 1) failures.push(`${name}: the refused swap exited ${String(run.code)}, not 1\n${transcript(run)}`);
  const said = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes(lineItemAddress(r)) && line.includes(t.posts.old[r]) && line.includes(t.posts.fresh[r]));
  if (said.length !== 1) failures.push(`${name}: no one line names ${lineItemAddress(r)}, the post put back and the post refused\n${transcript(run)}`);
  const left = await withoutPost(t.n);
  tally.refusedLeftWithout += left.length;
  for (const li of left) failures.push(`${name}: ${li} is ACTIVE without a post when the apply ends`);
  for (const li of await liveItems(t.n)) {
    const i = Number(li.name.slice(-1)) as 0 | 1;
    const expected = [i === r ? t.posts.old[i] : t.posts.fresh[i]];
    if (JSON.stringify(li.posts) !== JSON.stringify(expected)) failures.push(`${name}: ${li.name} carries [${li.posts.join(', ')}] when the apply ends, not [${expected.join(', ')}]`);
  }
  for (const v of servingViolations(servingMoments(before, wire), versionsOf(t))) failures.push(`${name}: ${v}`);
  await converge(t, ws, tally, failures);
  return wire.filter((w) => w.method !== 'GET').length;
}

/** The swap killed at its nth write; then the plan, the next apply, and what they must show and do. */
async function killedTrial(t: Trial, tally: Tally, failures: string[]): Promise<void> {
  const ws = await setUp(t);
  const name = describeTrial(t);
  log.reset();
  const trapped = log.trap(t.kill!.at, t.kill!.when);
  const running = ws.start(APPLY);
  const outcome = await Promise.race([trapped.then(() => 'trapped' as const), running.done.then(() => 'finished' as const)]);
  if (outcome === 'trapped') running.child.kill('SIGKILL');
  await running.done;
  log.release();
  await clearRefusals(emulator.info);
  const left = await withoutPost(t.n);
  tally.killedLeftWithout += left.length;
  if (left.length > 0) tally.killedTrialsLeftWithout++;
  const leftIds = new Set((await liveItems(t.n)).filter((l) => left.includes(l.name)).map((l) => l.id));
  // the next run also raises the budget, so its apply has a write of its own beside any repair
  ws.write(manifest(t.n, '7.00', t.posts.fresh));
  const plan = await ws.run(['plan', '--json']);
  let reported: string[] = [];
  try {
    const doc = JSON.parse(plan.stdout) as { serving_without_creative?: Array<{ address: string }> };
    reported = (doc.serving_without_creative ?? []).map((e) => e.address);
  } catch {
    failures.push(`${name}: plan --json printed no JSON\n${transcript(plan)}`);
  }
  const addressOf = (liName: string): string => lineItemAddress(Number(liName.slice(-1)));
  for (const li of left) {
    if (!reported.includes(addressOf(li))) {
      tally.notReported++;
      failures.push(`${name}: ${li} is ACTIVE without a post after the kill, and the next plan does not say so`);
    }
  }
  for (const address of reported) if (!left.map(addressOf).includes(address)) failures.push(`${name}: the plan lists ${address} as serving without a creative, which it is not`);
  const before = await readLiveAccount(client, ACCOUNT);
  log.reset();
  const again = await ws.run(APPLY);
  for (const v of servingViolations(servingMoments(before, log.requests()), versionsOf(t))) failures.push(`${name}: in the next apply, ${v}`);
  debug(`${name}: plan --json`, plan);
  debug(`${name}: the next apply`, again);
  const writes = log.writes();
  if (left.length > 0 && !/serving without a creative/i.test(again.stdout)) failures.push(`${name}: the next apply's plan does not show what serves without a creative\n${transcript(again)}`);
  const repair = (w: WireRequest): boolean => w.path.endsWith('/promoted_tweets') && w.method === 'POST' && leftIds.has(w.params['line_item_id'] ?? '');
  const lastRepair = writes.map(repair).lastIndexOf(true);
  const firstOther = writes.findIndex((w) => !repair(w));
  for (const li of left) {
    const id = (await liveItems(t.n)).find((l) => l.name === li)?.id;
    const at = writes.findIndex((w) => repair(w) && w.params['line_item_id'] === id);
    if (at < 0 || (firstOther >= 0 && firstOther < lastRepair) || (firstOther >= 0 && firstOther < at)) {
      tally.notRepairedFirst++;
      failures.push(`${name}: the next apply did not add ${li}'s post before its other writes: ${writes.map((w) => `${w.method} ${w.path}`).join(', ')}`);
    }
  }
  if (again.code !== 0) failures.push(`${name}: the next apply failed\n${transcript(again)}`);
  const after = await withoutPost(t.n);
  tally.afterNextApply += after.length;
  for (const li of after) failures.push(`${name}: ${li} is ACTIVE without a post after the next apply`);
  await settled(t, ws, failures);
}

/** The refusal lifted: the next apply puts the new posts in place. */
async function converge(t: Trial, ws: Workspace, tally: Tally, failures: string[]): Promise<void> {
  const again = await ws.run(APPLY);
  if (again.code !== 0) failures.push(`${describeTrial(t)}: the apply after the refusal was lifted failed\n${transcript(again)}`);
  const after = await withoutPost(t.n);
  tally.afterNextApply += after.length;
  await settled(t, ws, failures);
}

/** Every line item carries its new post, and the plan is clean. */
async function settled(t: Trial, ws: Workspace, failures: string[]): Promise<void> {
  const name = describeTrial(t);
  for (const li of await liveItems(t.n)) {
    const want = [t.posts.fresh[Number(li.name.slice(-1)) as 0 | 1]];
    if (!li.serving || JSON.stringify(li.posts) !== JSON.stringify(want)) failures.push(`${name}: ${li.name} ends ${li.serving ? 'ACTIVE' : 'not serving'} with [${li.posts.join(', ')}], not ACTIVE with [${want.join(', ')}]`);
  }
  const plan = await ws.run(['plan', '--detailed-exitcode']);
  if (plan.code !== 0) failures.push(`${name}: the plan after the last apply is not clean\n${transcript(plan)}`);
  await pauseTrial(t.n);
}

/** The trials' counts, as one line for the test's output and RELIABILITY.md. */
const tallyLine = (label: string, t: Tally): string =>
  `${label}: ${t.trials} trials; ACTIVE without a post when a refused apply ended: ${t.refusedLeftWithout}; after a kill: ${t.killedLeftWithout} (in ${t.killedTrialsLeftWithout} trials), of which not reported by the next plan: ${t.notReported}, not repaired first: ${t.notRepairedFirst}; after the next apply: ${t.afterNextApply}`;

describe('promoted-post swaps of serving line items', () => {
  let counter = 0;
  const writes = { plain: 0, refused: 0 };

  it(`a refused new post puts the old one back, and the apply says so (seed ${SEED})`, async () => {
    const random = seededRandom(SEED);
    const tally: Tally = { trials: 0, refusedLeftWithout: 0, killedLeftWithout: 0, killedTrialsLeftWithout: 0, notReported: 0, notRepairedFirst: 0, afterNextApply: 0 };
    const failures: string[] = [];
    for (let round = 1; round <= (EVERY_WRITE ? ROUNDS : 1); round++) {
      const posts = drawPosts(random);
      tally.trials++;
      writes.refused = await refusedTrial({ n: ++counter, round, posts, refused: true }, tally, failures);
      if (round === 1) {
        // a plain swap to the end, to count its writes
        const ws = await setUp({ n: ++counter, round, posts, refused: false });
        log.reset();
        const run = await ws.run(APPLY);
        writes.plain = log.writes().length;
        if (run.code !== 0) failures.push(`a plain swap failed\n${transcript(run)}`);
        await pauseTrial(counter);
      }
    }
    process.stdout.write(`${tallyLine('refused', tally)}\n`);
    expect(failures, failures.join('\n\n')).toEqual([]);
    expect(writes.refused).toBeGreaterThan(3);
  }, 600_000);

  it(`a swap killed at a write is reported by the next plan and repaired first by the next apply (seed ${SEED})`, async () => {
    expect(writes.plain, 'the first step counts the writes of a swap').toBeGreaterThan(0);
    const random = seededRandom(SEED + 1);
    const tally: Tally = { trials: 0, refusedLeftWithout: 0, killedLeftWithout: 0, killedTrialsLeftWithout: 0, notReported: 0, notRepairedFirst: 0, afterNextApply: 0 };
    const failures: string[] = [];
    const trials: Trial[] = [];
    // the swap's writes with --parallelism 1: the budget, the two deletes, the two adds (and, refused, the putting back)
    if (!EVERY_WRITE) {
      const posts = drawPosts(random);
      trials.push({ n: 0, round: 1, posts, refused: false, kill: { at: 4, when: 'before' } });
      trials.push({ n: 0, round: 1, posts, refused: true, kill: { at: writes.refused, when: 'before' } });
    } else {
      for (let round = 1; round <= ROUNDS; round++) {
        for (const refused of [false, true]) {
          const posts = drawPosts(random);
          for (let at = 1; at <= (refused ? writes.refused : writes.plain); at++) for (const when of ['before', 'after'] as const) trials.push({ n: 0, round, posts, refused, kill: { at, when } });
        }
      }
    }
    for (const t of trials) {
      tally.trials++;
      await killedTrial({ ...t, n: ++counter }, tally, failures);
    }
    process.stdout.write(`${tallyLine('killed', tally)}\n`);
    expect(failures, failures.join('\n\n')).toEqual([]);
  }, 1_800_000);
});
