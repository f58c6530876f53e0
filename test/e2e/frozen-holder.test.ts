/**
 * A holder that lost its lock writes nothing, ever (issue 31, point 1). An apply is stopped with
 * SIGSTOP mid-way — a laptop lid closing, a CI runner frozen, a container paused — another run
 * takes the lock over and finishes, and the first is resumed with SIGCONT, at once or later. The
 * first must send no write of the service and write nothing of the state from then on: the state
 * keeps the second run's serial, every address stays bound, nothing is on the service twice, and
 * the next plan is clean.
 *
 * Ways the lock changes hands: `force-unlock --force` (local and PostgreSQL; PostgreSQL also with
 * the frozen holder in another pid namespace), and a second run in another pid namespace that
 * takes a local lock over once the frozen holder's heartbeat has stood still for the stale bound. `npm test` runs one trial of each backend resumed at once (force-unlock);
 * `npm run chaos` runs FROZEN_HOLDER_TRIALS (30) over every way and resume delays of 0, 15 and 60 s,
 * and prints what it counted. What the first run sends is seen through a recording proxy of its
 * own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import type { LockInfo } from '../../src/state/store.js';
import { BIN } from '../support/cli.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, resetRateLimits, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetAddresses, fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import { freshDatabase } from '../support/postgres.js';
import type { CliRun } from '../support/run-cli.js';
import { clockEnv } from '../support/test-clock.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';
const POSTGRES_CONFIG = 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n';
const UNSHARE = ['--pid', '--fork', '--mount-proc', '--kill-child'];
/** The request deadline of the frozen run: what a run taking its lock waits out, at most. */
const REQUEST_TIMEOUT = '2s';

type Way = 'local, force-unlock --force' | 'local, another pid namespace' | 'postgres, force-unlock --force' | 'postgres, another pid namespace, force-unlock --force';

/** Why runs in another pid namespace cannot be made here, or undefined when they can. */
const noNamespaces = ((): string | undefined => {
  if (process.platform !== 'linux') return 'pid namespaces exist only on Linux';
  const probe = spawnSync('unshare', [...UNSHARE, 'sh', '-c', 'echo $$'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0 || probe.stdout.trim() !== '1') return 'unshare cannot make a pid namespace here';
  return undefined;
})();

const closing: Array<{ close(): Promise<void> }> = [];
const workspaces: Workspace[] = [];

afterAll(async () => {
  for (const c of closing) await c.close();
  for (const ws of workspaces) ws.remove();
});

/** A run of the CLI: in this pid namespace, or as pid 1 of a new one. */
interface Run {
  /** The process to stop and resume: the CLI itself, not `unshare` in front of it. */
  pid(): number;
  done: Promise<CliRun>;
}

function startRun(ws: Workspace, args: string[], env: NodeJS.ProcessEnv, ownNamespace: boolean): Run {
  const command = ownNamespace ? ['unshare', [...UNSHARE, process.execPath, BIN, ...args]] as const : [process.execPath, [BIN, ...args]] as const;
  const child: ChildProcess = spawn(command[0], [...command[1]], { cwd: ws.dir, env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...clockEnv(), ...ws.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  // unshare --fork runs the CLI as its only child
  const pid = (): number => (ownNamespace ? Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0]) : child.pid!);
  return { pid, done };
}

/** What one trial counted. */
interface Counted {
  /** The state went back to an older serial after the first run resumed. */
  overwrites: number;
  /** Fleet addresses the state no longer binds. */
  lostBindings: number;
  /** Writes of the service the first run sent after the lock changed hands. */
  lateWrites: number;
  /** Objects on the service more than once, or not bound, after everything (fleet problems). */
  duplicates: number;
  /** The first run did not stop with exit 1 saying its lock was lost. */
  notStopped: number;
  /** The next plan was not clean. */
  planNotClean: number;
}

/** The state's serial as the backend holds it. */
async function serialOf(ws: Workspace, url: string | undefined): Promise<number> {
  if (url === undefined) return (JSON.parse(readFileSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.json`), 'utf8')) as { serial: number }).serial;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return Number((await db.query<{ serial: string }>('SELECT serial FROM adsctl.states WHERE account = $1', [ACCOUNT])).rows[0]?.serial ?? 0);
  } finally {
    await db.end();
  }
}

async function run(ws: Workspace, args: string[], code: number, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const done = await startRun(ws, args, env, false).done;
  expect(done.code, `adsctl ${args.join(' ')}\n${transcript(done)}`).toBe(code);
  return done;
}

let trialNumber = 0;

/** One trial: freeze the first apply mid-way, let another finish, resume the first after `resumeAfterMs`, and count. */
async function frozenTrial(way: Way, resumeAfterMs: number): Promise<Counted> {
  const n = ++trialNumber;
  // an emulator of its own: the trials' live line items would pass the account's limit together
  const { emulator, client }: { emulator: RunningEmulator; client: TestClient } = await startTestEmulator({ latencyMs: 30 });
  closing.push(emulator);
  const fleet: Fleet = { prefix: `E2E Frozen ${n}`, campaigns: 8, lineItems: 2, keywords: 2, posts: 1 };
  const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
  workspaces.push(ws);
  const url = way.startsWith('postgres') ? await freshDatabase(`frozen_${n}`) : undefined;
  if (url !== undefined) {
    writeFileSync(join(ws.dir, 'adsctl.yaml'), POSTGRES_CONFIG);
    ws.env['TEAM_STATE_URL'] = url;
  }
  await resetRateLimits(emulator.info);
  const wire: WireLog = await startWireLog(emulator.info.base_url);
  closing.push(wire);
  const writes = (): number => wire.requests().filter((r) => r.method !== 'GET').length;
  const otherNamespace = way.includes('another pid namespace');
  const first = startRun(ws, ['apply', '--auto-approve', '--parallelism', '2'], { ADSCTL_ENDPOINT: wire.url, ADSCTL_REQUEST_TIMEOUT: REQUEST_TIMEOUT }, otherNamespace);
  let exited = false;
  void first.done.then(() => (exited = true));
  await waitUntil('the first apply is half-way', () => exited || writes() >= 8);
  if (exited) expect.fail(`the first apply ended before it was frozen:\n${transcript(await first.done)}`);
  const frozen = first.pid();
  process.kill(frozen, 'SIGSTOP');
  const cut = writes();
  let resumed = false;
  try {
    if (way === 'local, another pid namespace') {
      // the frozen holder's heartbeat stands still: a run in another namespace takes the lock over
      const second = await startRun(ws, ['apply', '--auto-approve', '--lock-timeout', '1m'], {}, true).done;
      expect(second.code, transcript(second)).toBe(0);
      expect(second.stderr).toContain('took over the state lock');
    } else {
      const held = url === undefined ? (JSON.parse(readFileSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.lock`), 'utf8')) as LockInfo).id : /lock id ([0-9a-f-]+)/.exec((await run(ws, ['plan', '--lock-timeout', '0s'], 1)).stderr)?.[1];
      expect(held).toBeDefined();
      await run(ws, ['force-unlock', held!, '--force'], 0);
      const second = await run(ws, ['apply', '--auto-approve', '--lock-timeout', '30s'], 0);
      // the frozen run announced writes it did not see answered: they are waited out, then adopted
      if (second.stderr.includes('Waiting')) expect(second.stderr).toMatch(/Waiting [12] s before reading account/);
    }
    const serial = await serialOf(ws, url);
    if (resumeAfterMs > 0) await new Promise((r) => setTimeout(r, resumeAfterMs));
    process.kill(frozen, 'SIGCONT');
    resumed = true;
    const outcome = await first.done;
    // what is counted is counted, not asserted, so the same trial measures a build that fails it
    const stopped = outcome.code === 1 && outcome.stderr.includes('was lost') && !outcome.stderr.includes('a bug in adsctl') ? 0 : 1;
    const after = await serialOf(ws, url);
    const bound = parseStateList((await run(ws, ['state', 'list'], 0)).stdout);
    const lostBindings = fleetAddresses(fleet).filter((a) => !bound.has(a)).length;
    const problems = await fleetProblems(client, ACCOUNT, fleet, bound);
    await resetRateLimits(emulator.info);
    const plan = await startRun(ws, ['plan', '--detailed-exitcode'], {}, false).done;
    return { overwrites: after < serial ? 1 : 0, lostBindings, lateWrites: writes() - cut, duplicates: problems.length, notStopped: stopped, planNotClean: plan.code === 0 ? 0 : 1 };
  } finally {
    if (!resumed) process.kill(frozen, 'SIGCONT');
  }
}

const TRIALS = Number(process.env['FROZEN_HOLDER_TRIALS'] ?? 0);
const ZERO: Counted = { overwrites: 0, lostBindings: 0, lateWrites: 0, duplicates: 0, notStopped: 0, planNotClean: 0 };

describe('a holder frozen while another run takes its lock over', () => {
  it.each<Way>(['local, force-unlock --force', 'postgres, force-unlock --force'])('writes nothing once resumed (%s)', async (way) => {
    expect(await frozenTrial(way, 0)).toEqual(ZERO);
  }, 120_000);

  // the takeover waits out the stale bound of the heartbeat (10 s): in npm run chaos only
  it.skipIf(noNamespaces !== undefined || TRIALS === 0)('writes nothing once resumed (local, another pid namespace)', async () => {
    expect(await frozenTrial('local, another pid namespace', 0)).toEqual(ZERO);
  }, 120_000);

  it.skipIf(TRIALS === 0)(`over ${TRIALS} trials of every way, resumed after 0, 15 and 60 s: nothing overwritten, lost, sent late or made twice`, async () => {
    const ways: Way[] = noNamespaces === undefined ? ['local, force-unlock --force', 'local, another pid namespace', 'postgres, force-unlock --force', 'postgres, another pid namespace, force-unlock --force'] : ['local, force-unlock --force', 'postgres, force-unlock --force'];
    const delays = [0, 15_000, 60_000];
    const total: Counted = { ...ZERO };
    const byWay = new Map<string, number>();
    for (let i = 0; i < TRIALS; i++) {
      const way = ways[i % ways.length]!;
      const delay = delays[Math.floor(i / ways.length) % delays.length]!;
      const counted = await frozenTrial(way, delay);
      for (const k of Object.keys(total) as Array<keyof Counted>) total[k] += counted[k];
      byWay.set(`${way}, resumed after ${delay / 1000} s`, (byWay.get(`${way}, resumed after ${delay / 1000} s`) ?? 0) + 1);
    }
    console.log(
      `frozen holder: ${TRIALS} trials (${[...byWay].map(([w, k]) => `${k} × ${w}`).join('; ')}): ${total.overwrites} overwrites, ${total.lostBindings} lost bindings, ` +
        `${total.lateWrites} writes after the takeover, ${total.duplicates} duplicated or unbound, ${total.notStopped} first runs not stopped, ${total.planNotClean} next plans not clean`,
    );
    expect(total).toEqual(ZERO);
  }, 3_600_000);
});
