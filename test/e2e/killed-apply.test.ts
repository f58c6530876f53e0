/**
 * An apply killed with SIGKILL half-way through a few hundred resources (with the answer of its
 * line item batch withheld by a proxy, or once promoted posts are bound, the emulator answering
 * after 20 ms so the apply takes long enough to be caught in the middle), then run again. The
 * killed run leaves its state lock behind, naming a process of this host that is gone: the next
 * run takes it over with a warning naming the old holder, as the operating system would release
 * Terraform's local lock. That plan reports the unfinished apply and leaves the state and the
 * journal byte for byte as they were. Then apply must finish the job from the state and the
 * journal the killed run wrote — adopting what it created without hearing the answer, sending
 * nothing twice — and the emulator must hold exactly one live object per managed address. A lock
 * taken on another host cannot be judged from here: it is refused, naming it, until `adsctl
 * force-unlock ID` removes it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetAddresses, fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import type { CliRun } from '../support/run-cli.js';
import { startAnswerGate, type SeenWrite } from './answer-gate.js';
import { replayOutcomes } from '../../src/state/apply-journal.js';
import { journalPath, readJournalFile } from '../../src/state/journal.js';
import { emptyState, type AccountState } from '../../src/state/state-file.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];

/**
 * Addresses the state binds right now, read directly (the CLI would wait for the lock): the last
 * checkpoint with the outcomes the journal holds on top, as the next run reads it.
 */
function boundNow(ws: Workspace): Record<string, { kind: string }> {
  const stateDir = join(ws.dir, '.adsctl', 'state');
  const path = join(stateDir, `${ACCOUNT}.json`);
  const state = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as AccountState) : emptyState(ACCOUNT, 'local');
  replayOutcomes(state, readJournalFile(journalPath(stateDir, ACCOUNT)).outcomes);
  return state.resources;
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ latencyMs: 20 }));
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

interface KillPoint {
  name: string;
  prefix: string;
  /** Write requests whose answers are withheld (the service made the change, the run never hears of it). */
  hold?: (write: SeenWrite) => boolean;
  /** When to send SIGKILL, from the answers withheld, the run's progress lines and the state file. */
  ready: (held: number, bound: Record<string, { kind: string }>) => boolean;
}

const KILL_POINTS: KillPoint[] = [
  // the answer of the line item batch is withheld: the kill finds it in flight, however loaded the machine
  { name: 'while its line item batch is in flight', prefix: 'E2E Killed early', hold: (write) => write.path.endsWith('/line_items'), ready: (held) => held > 0 },
  { name: 'with some promoted posts bound', prefix: 'E2E Killed late', ready: (_held, bound) => Object.values(bound).some((r) => r.kind === 'promoted_post') },
];

describe('an apply of 300 resources killed with SIGKILL', () => {
  it.each(KILL_POINTS)('$name is finished by the next apply, which takes over the lock, with nothing lost and nothing twice', async ({ prefix, hold, ready }) => {
    /** 20 campaigns + 40 line items + 80 targeting criteria + 160 promoted posts = 300 resources. */
    const fleet: Fleet = { prefix, campaigns: 20, lineItems: 2, keywords: 2, posts: 4 };
    const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
    workspaces.push(ws);
    const adsctl = async (args: string[], code: number): Promise<CliRun> => {
      const run = await ws.run(args);
      expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
      return run;
    };

    const gate = hold === undefined ? undefined : await startAnswerGate(emulator.info.base_url, hold);
    const killed = ws.start(['apply', '--auto-approve'], gate === undefined ? {} : { ADSCTL_ENDPOINT: gate.url });
    try {
      await waitUntil('the kill point', () => killed.child.exitCode !== null || ready(gate?.held() ?? 0, boundNow(ws)));
      killed.child.kill('SIGKILL');
    } finally {
      // the withheld answers are never delivered: the killed run is gone
      await gate?.close();
    }
    const dead = await killed.done;
    expect(dead.code, transcript(dead)).toBeNull();
    expect(dead.stdout).not.toContain('Apply complete!');
    const atKill = boundNow(ws);
    expect(fleetAddresses(fleet).filter((a) => atKill[a] === undefined).length).toBeGreaterThan(0);

    // the killed run's lock is left behind, naming a pid of this host that no process has any more
    const stateDir = join(ws.dir, '.adsctl', 'state');
    const lockFile = join(stateDir, `${ACCOUNT}.lock`);
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { id: string; pid: number; holder: string };
    expect(lock.pid).toBe(killed.child.pid);

    // a plan takes the lock over, naming the old holder, reports the unfinished apply and writes
    // nothing: the state directory stays byte for byte, but for the lock it took over and released
    // (and a temporary file the kill may have left)
    const snapshot = (): Record<string, string> =>
      Object.fromEntries(readdirSync(stateDir).filter((f) => !/\.lock$|\.generation$|\.tmp-\d+(?:-[0-9a-f]+)?$/.test(f)).sort().map((f) => [f, readFileSync(join(stateDir, f)).toString('base64')]));
    const beforePlan = snapshot();
    expect(Object.keys(beforePlan)).toContain(`${ACCOUNT}.journal`);
    const planned = await adsctl(['plan'], 0);
    expect(planned.stderr).toContain(`took over the state lock of account ${ACCOUNT}`);
    expect(planned.stderr).toContain(`${lock.holder} (pid ${lock.pid}, apply since`);
    expect(planned.stderr).toContain(`lock id ${lock.id}`);
    expect(planned.stderr + planned.stdout).toContain(`an apply of account ${ACCOUNT} was interrupted`);
    expect(planned.stderr + planned.stdout).toContain('the next adsctl apply or destroy first looks them up on the service');
    expect(snapshot()).toEqual(beforePlan);
    expect(existsSync(lockFile)).toBe(false);
    expect(boundNow(ws)).toEqual(atKill);

    const before = { ...emulator.stats.byRoute };
    const rerun = await adsctl(['apply', '--auto-approve'], 0);
    // the journal's unanswered creates are looked up together: a list request per kind, not one per
    // create (at most one to recover and one to refresh)
    const reads = (route: string): number => (emulator.stats.byRoute[`GET /12/accounts/:account_id/${route}`] ?? 0) - (before[`GET /12/accounts/:account_id/${route}`] ?? 0);
    for (const route of ['line_items', 'promoted_tweets', 'targeting_criteria']) expect(reads(route), `GET ${route} requests`).toBeLessThanOrEqual(2);
    expect(rerun.stdout).toContain('Apply complete!');
    const bound = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
    expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).sort()).toEqual(fleetAddresses(fleet).sort());
    expect(await fleetProblems(client, ACCOUNT, fleet, bound)).toEqual([]);
    const plan = await adsctl(['plan', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('refuses a lock taken on another host, naming it, until force-unlock removes it', async () => {
    const fleet: Fleet = { prefix: 'E2E Other host', campaigns: 1, lineItems: 1, keywords: 1, posts: 1 };
    const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
    workspaces.push(ws);
    const stateDir = join(ws.dir, '.adsctl', 'state');
    mkdirSync(stateDir, { recursive: true });
    const lock = { id: '0f8e2c1a-4b7d-4e55-9a31-6c2d8e9f0b12', holder: 'ci@build-agent-7.example.net', pid: process.pid, created_at: '2027-01-01T00:00:00.000Z', operation: 'apply' };
    writeFileSync(join(stateDir, `${ACCOUNT}.lock`), `${JSON.stringify(lock, null, 2)}\n`);

    const refused = await ws.run(['plan']);
    expect(refused.code, transcript(refused)).toBe(1);
    expect(refused.stderr).toContain(`locked by ci@build-agent-7.example.net (pid ${process.pid}, apply since 2027-01-01T00:00:00.000Z, lock id ${lock.id})`);
    expect(refused.stderr).toContain(`adsctl force-unlock ${lock.id}`);
    expect(existsSync(join(stateDir, `${ACCOUNT}.lock`))).toBe(true);

    const unlocked = await ws.run(['force-unlock', lock.id]);
    expect(unlocked.code, transcript(unlocked)).toBe(0);
    expect(unlocked.stdout).toContain(`Lock ${lock.id}`);
    const applied = await ws.run(['apply', '--auto-approve']);
    expect(applied.code, transcript(applied)).toBe(0);
    expect(applied.stderr).not.toContain('took over');
    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(0);
  });
});
