/**
 * A large audience kept in sync with its member file through the engine in-process (the engine
 * harness, test/support/engine-harness.ts) and the in-process emulator at a manual clock:
 *
 * (a) a 10,000-line CSV (emails in mixed case with stray spaces, some with a national phone
 *     number, a few duplicates and invalid cells) is applied; then 1% of its lines change (100
 *     removed, 100 added). The second apply sends only the difference: a recording proxy between
 *     adsctl and the emulator counts the users requests and the user entries and identifiers in
 *     their bodies, which must be exactly the identifiers gone (Delete) and the identifiers new
 *     (Update), in one request each and with no other write; the `--debug` trace, which shows
 *     bodies only by size and user count, agrees. The emulator then holds exactly the file's
 *     distinct valid identifiers, and a plan finds no changes.
 * (b) the same two applies while 20% of requests meet the emulator's injected faults (503, a
 *     connection reset before handling, a lost answer after handling; a fixed seed per run), each
 *     apply run again until it succeeds (at most four times). So that the users requests surely
 *     meet faults too, whatever the random draws hit, the proxy meets the first upload with a
 *     reset, a lost answer and a 503 (retried within the run), and refuses the edit's Update
 *     after its Delete went through (the apply fails half-way; the next run sends the same
 *     difference again). The emulator ends with the file's distinct valid identifiers, one
 *     audience was made, and a plan under the same faults finds no changes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { memberCounts } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { seededAccountHead, setFaults, stepsInOrder, transcript } from '../support/e2e.js';
import { createEngineWorkspace, type EngineRun, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { distinctIdentifiers, memberCsv, minus, people, seededRandom, type MemberLine } from '../support/member-files.js';
import { startUsersRecorder, type UsersRecorder } from '../support/users-recorder.js';

const USERS_ROUTE = 'POST /12/accounts/:account_id/custom_audiences/:custom_audience_id/users';
const FAULTS = '503=10%,reset=5%,lost=5%';
const LINES = 10_000;

let emulator: RunningEmulator;
let client: TestClient;
const clock = manualClock();

/** Audience names are unique in an account: each part names its own. */
const manifest = (endpoint: string, name: string): string => `${seededAccountHead(endpoint)}custom_audiences:
  crm:
    name: ${name}
    users: { file: members.csv, default_region: US }
`;

/**
 * The member file before and after the edit. 9,985 people, 10 lines repeating an earlier person's
 * email with other spacing and case (no new identifier), 5 lines whose cells are invalid (left out
 * with a warning): 10,000 lines. The edit removes 100 people and adds 100 new ones at the end.
 */
function memberFiles(seed: number, prefix: string): { before: MemberLine[]; after: MemberLine[] } {
  const random = seededRandom(seed);
  const everyone = people(random, LINES - 15, prefix, 0.3);
  const duplicates: MemberLine[] = everyone.slice(100, 110).map((p) => ({ email: `  ${p.email.trim().toUpperCase()} `, phone: '', identifiers: p.identifiers.slice(0, 1) }));
  const invalid: MemberLine[] = Array.from({ length: 5 }, (_, i) => ({ email: `not-an-email-${i}`, phone: `12${i}`, identifiers: [] }));
  const before = [...everyone.slice(0, 2000), ...duplicates, ...everyone.slice(2000, 6000), ...invalid, ...everyone.slice(6000)];
  // 100 people removed (every 97th from the 200th, never one whose email is repeated), 100 new ones added
  const removed = new Set(Array.from({ length: 100 }, (_, i) => everyone[200 + i * 97]!));
  const after = [...before.filter((l) => !removed.has(l)), ...people(random, 100, `${prefix}-new`, 0.3)];
  expect(before).toHaveLength(LINES);
  expect(after).toHaveLength(LINES);
  return { before, after };
}

/** The audience's id in the workspace's state. */
async function audienceId(ws: EngineWorkspace): Promise<string> {
  const id = ws.bindings('18ce54d4x5t').get('custom_audiences.crm');
  expect(id).toBeDefined();
  return id!;
}

/** Every custom audience the emulator ever made, deleted ones included, in creation order (control endpoint). */
async function audienceIds(): Promise<string[]> {
  const reply = await client.get('/_emulator/audiences', {}, { base: 'root', creds: null });
  return (reply.body.custom_audiences as Array<{ id: string }>).map((a) => a.id);
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
});
afterAll(async () => {
  await emulator.close();
});

describe('(a) a 10,000-line member file, then 1% of its lines changed', () => {
  let ws: EngineWorkspace;
  let recorder: UsersRecorder;
  let files: { before: MemberLine[]; after: MemberLine[] };
  let before: Set<string>;
  let after: Set<string>;

  beforeAll(async () => {
    recorder = await startUsersRecorder(emulator.info.base_url);
    ws = createEngineWorkspace(emulator.info, manifest(recorder.url, 'CRM export'), clock);
    files = memberFiles(424242, 'member');
    before = distinctIdentifiers(files.before);
    after = distinctIdentifiers(files.after);
    writeFileSync(join(ws.dir, 'members.csv'), memberCsv(files.before));
  });
  afterAll(async () => {
    await recorder.close();
    ws.remove();
  });
  stepsInOrder();

  it('uploads every distinct valid identifier once', async () => {
    const run = await ws.apply();
    expect(run.code, transcript(run)).toBe(0);
    // the invalid cells are left out with a warning naming their lines, never their values
    expect(run.stdout).toContain('members.csv:6012:1: warning audience-invalid-identifiers: 10 of 13,');
    expect(run.stdout).toContain('on lines 6012, 6013, 6014, 6015, 6016');
    expect(run.stdout).not.toContain('not-an-email-');
    const sent = recorder.requests();
    expect(sent.every((r) => r.status === 200)).toBe(true);
    expect(sent.flatMap((r) => r.operations.map((o) => o.type))).toEqual(['Update']);
    expect(sent.reduce((n, r) => n + r.operations.reduce((m, o) => m + o.identifiers, 0), 0)).toBe(before.size);
    expect((await memberCounts(client, await audienceId(ws))).members).toBe(before.size);
  });

  it('plans the difference only, by its counts', async () => {
    writeFileSync(join(ws.dir, 'members.csv'), memberCsv(files.after));
    const gone = minus(before, after).size;
    const added = minus(after, before).size;
    // each changed line carries an email, and some a phone number too
    expect(gone).toBeGreaterThanOrEqual(100);
    expect(added).toBeGreaterThanOrEqual(100);
    const plan = await ws.plan({ detailedExitcode: true });
    expect(plan.code, transcript(plan)).toBe(2);
    const unchanged = before.size - gone;
    const n = (x: number): string => x.toLocaleString('en-US');
    expect(plan.stdout).toContain(`+${n(added)} members, −${n(gone)} members, ${n(unchanged)} unchanged (${n(after.size)} members)`);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  });

  it('sends only the difference: one Delete and one Update request holding exactly the identifiers gone and new', async () => {
    recorder.reset();
    const routesBefore = { ...emulator.stats.byRoute };
    const run = await ws.apply({ debug: true });
    expect(run.code, transcript(run)).toBe(0);

    const sent = recorder.requests();
    expect(sent.map((r) => [r.endpoint, r.status, r.operations.map((o) => o.type)])).toEqual([
      ['audience', 200, ['Delete']],
      ['audience', 200, ['Update']],
    ]);
    const count = (type: string, what: 'users' | 'identifiers'): number => sent.flatMap((r) => r.operations).filter((o) => o.type === type).reduce((n, o) => n + o[what], 0);
    expect(count('Delete', 'users')).toBe(minus(before, after).size);
    expect(count('Delete', 'identifiers')).toBe(minus(before, after).size);
    expect(count('Update', 'users')).toBe(minus(after, before).size);
    expect(count('Update', 'identifiers')).toBe(minus(after, before).size);

    // no other write reached the emulator: only the two users requests
    const routesAfter = emulator.stats.byRoute;
    const writes = Object.keys(routesAfter)
      .filter((route) => !route.startsWith('GET ') && (routesAfter[route] ?? 0) > (routesBefore[route] ?? 0))
      .map((route) => `${route} ×${(routesAfter[route] ?? 0) - (routesBefore[route] ?? 0)}`);
    expect(writes).toEqual([`${USERS_ROUTE} ×2`]);

    // the trace shows the same requests by size and user count only
    const traced = [...run.stderr.matchAll(/^\[debug\] POST \S+\/custom_audiences\/\S+\/users → 200 .*\[body \d+ bytes: (\d+) users\]$/gm)].map((m) => Number(m[1]));
    expect(traced).toEqual([minus(before, after).size, minus(after, before).size]);
  });

  it('leaves the emulator holding exactly the file’s distinct valid identifiers, and plans no changes', async () => {
    expect((await memberCounts(client, await audienceId(ws))).members).toBe(after.size);
    const plan = await ws.plan({ detailedExitcode: true });
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });

  // a membership's live id is its audience's: a saved plan must not take the audience's
  // fingerprint for the membership's and refuse itself as stale
  it('applies a saved plan of a member change', async () => {
    const next = files.after.slice(1);
    writeFileSync(join(ws.dir, 'members.csv'), memberCsv(next));
    const plan = await ws.plan({ out: 'delta.plan' });
    expect(plan.code, transcript(plan)).toBe(0);
    const run = await ws.applySaved('delta.plan');
    expect(run.code, transcript(run)).toBe(0);
    expect((await memberCounts(client, await audienceId(ws))).members).toBe(distinctIdentifiers(next).size);
  });
});

describe(`(b) the same under injected faults (${FAULTS})`, () => {
  let ws: EngineWorkspace;
  let recorder: UsersRecorder;
  let files: { before: MemberLine[]; after: MemberLine[] };
  let seed = 101;
  let audiencesBefore: string[];
  let faultsBefore: number;

  /** Runs `run` (an apply or a plan) with the emulator's faults on, a new seed each run. */
  async function faulty(run: () => Promise<EngineRun>): Promise<EngineRun> {
    await setFaults(emulator.info, FAULTS, seed++);
    try {
      return await run();
    } finally {
      await setFaults(emulator.info, '');
    }
  }

  /** Applies under faults until an apply succeeds, at most four times; the failed runs are the failure message. */
  async function applyUntilDone(): Promise<EngineRun[]> {
    const failed: EngineRun[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const run = await faulty(() => ws.apply());
      if (run.code === 0) return failed;
      failed.push(run);
    }
    throw new Error(`apply did not succeed in 4 runs:\n${failed.map(transcript).join('\n')}`);
  }

  beforeAll(async () => {
    recorder = await startUsersRecorder(emulator.info.base_url);
    ws = createEngineWorkspace(emulator.info, manifest(recorder.url, 'CRM export under faults'), clock);
    files = memberFiles(737373, 'faulty');
    writeFileSync(join(ws.dir, 'members.csv'), memberCsv(files.before));
    audiencesBefore = await audienceIds();
    faultsBefore = Object.values(emulator.stats.faults).reduce((a, b) => a + b, 0);
  });
  afterAll(async () => {
    await recorder.close();
    ws.remove();
  });
  stepsInOrder();

  it('uploads the whole file, its users request retried after a reset, a lost answer and a 503', async () => {
    // besides the emulator's random faults, the users requests surely meet one of each retryable kind
    recorder.inject(['reset', 'lost', '503']);
    await applyUntilDone();
    expect(recorder.requests().slice(0, 3).map((r) => r.fault)).toEqual(['reset', 'lost', '503']);
    expect((await memberCounts(client, await audienceId(ws))).members).toBe(distinctIdentifiers(files.before).size);
  });

  it('converges on the edited file after an apply that failed half-way: the emulator holds its distinct valid identifiers, and a plan finds no changes', async () => {
    writeFileSync(join(ws.dir, 'members.csv'), memberCsv(files.after));
    const before = distinctIdentifiers(files.before);
    const after = distinctIdentifiers(files.after);
    // the Delete goes through; the Update is refused (no client retries a 400), so this apply fails with the removals done
    recorder.reset();
    recorder.inject([{ operation: 'Update', fault: 'refuse' }]);
    const half = await faulty(() => ws.apply());
    expect(half.code, transcript(half)).toBe(1);
    expect(half.stderr).toContain('Refused by the test proxy');
    // (the emulator's own faults may have met the Delete too, and the client sent it again)
    const seen = recorder.requests().map((r) => [r.operations.map((o) => o.type).join(), r.fault ?? 'pass', r.status]);
    expect(seen.at(-2)).toEqual(['Delete', 'pass', 200]);
    expect(seen.at(-1)).toEqual(['Update', 'refuse', 400]);
    expect(seen.slice(0, -1).every(([type]) => type === 'Delete')).toBe(true);
    expect((await memberCounts(client, await audienceId(ws))).members).toBe(before.size - minus(before, after).size);

    // the next applies send the same difference again (the store was not written) until one succeeds
    await applyUntilDone();
    expect((await memberCounts(client, await audienceId(ws))).members).toBe(after.size);
    const plan = await faulty(() => ws.plan({ detailedExitcode: true }));
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    // the emulator's faults were really there, and one audience was made however many runs it took
    // (a create whose answer was lost is found, not made twice)
    expect(Object.values(emulator.stats.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(faultsBefore);
    expect(await audienceIds()).toEqual([...audiencesBefore, await audienceId(ws)]);
  });
});
