/**
 * A state lock that is lost stops the run (issue 19, point 1), end to end against a real
 * PostgreSQL (test/support/postgres.ts) and the emulator. The session holding an apply's lock is
 * ended mid-apply, as a failover, a pooler or an administrator ends it: the apply sends no write
 * beyond those in flight, says whose lock it lost, and exits 1, and a second runner started at
 * once finishes the job with nothing twice and nothing unbound. A server that ends idle sessions
 * does not end the lock of an apply waiting on the service. `force-unlock` refuses a holder that
 * is still running unless told `--force`, naming it, on both backends.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, resetRateLimits, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetAddresses, fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import { startGateProxy } from '../support/gate-proxy.js';
import { freshDatabase } from '../support/postgres.js';
import type { CliRun } from '../support/run-cli.js';
import { startWireLog } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';
const POSTGRES_CONFIG = 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n';
const PARALLELISM = 4;

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];
const admins: pg.Client[] = [];
const closing: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ latencyMs: 40 }));
});
afterAll(async () => {
  for (const c of closing) await c.close();
  await emulator.close();
  for (const ws of workspaces) ws.remove();
  for (const admin of admins) await admin.end();
});

/** A working copy of the fleet's repository with state in the database at `url` (or local, with no url). */
function copy(fleet: Fleet, url?: string): Workspace {
  const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
  workspaces.push(ws);
  if (url !== undefined) {
    writeFileSync(join(ws.dir, 'adsctl.yaml'), POSTGRES_CONFIG);
    ws.env['TEAM_STATE_URL'] = url;
  }
  return ws;
}

async function adsctl(ws: Workspace, args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

async function admin(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  admins.push(c);
  return c;
}

/** The lock of the fleet's account as its holder row names it, while its session is connected. */
async function liveHolder(db: pg.Client): Promise<{ id: string; pid: number; backend: number } | undefined> {
  const { rows } = await db
    .query<{ id: string; pid: number; backend: number }>(
      `SELECT h.info->>'id' AS id, (h.info->>'pid')::int AS pid, h.backend_pid AS backend FROM adsctl.lock_holders h
       JOIN pg_locks l ON l.pid = h.backend_pid AND l.locktype = 'advisory' AND l.granted`,
    )
    .catch(() => ({ rows: [] }));
  return rows[0];
}

/** The fleet is on the service exactly once, the state binds every address of it, and the next plan is clean. */
async function converged(ws: Workspace, fleet: Fleet): Promise<void> {
  const bound = parseStateList((await adsctl(ws, ['state', 'list'], 0)).stdout);
  expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).sort()).toEqual(fleetAddresses(fleet).sort());
  expect(await fleetProblems(client, ACCOUNT, fleet, bound)).toEqual([]);
  expect((await adsctl(ws, ['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
}

const isWrite = (method: string): boolean => method !== 'GET';

describe('a PostgreSQL state lock that is lost', () => {
  it('stops the apply that held it: no write after it, a clear message, exit 1; a second runner started at once finishes the job', async () => {
    const url = await freshDatabase('lock_lost');
    const fleet: Fleet = { prefix: 'E2E Lock Lost', campaigns: 24, lineItems: 2, keywords: 2, posts: 2 };
    const [a, b] = [copy(fleet, url), copy(fleet, url)];
    const db = await admin(url);
    const wire = await startWireLog(emulator.info.base_url);
    closing.push(wire);
    const first = a.start(['apply', '--auto-approve', '--parallelism', String(PARALLELISM)], { ADSCTL_ENDPOINT: wire.url });
    const outcomes = async (): Promise<number> => Number((await db.query("SELECT count(*) AS n FROM adsctl.journal WHERE record ? 'serial'").catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n);
    await waitUntil('outcomes in the journal', async () => first.child.exitCode !== null || (await outcomes()) >= 4);
    const holder = await liveHolder(db);
    expect(holder, 'the apply holds the lock').toBeDefined();
    // the server ends the session that holds the lock, as a failover or an administrator does
    await db.query('SELECT pg_terminate_backend($1)', [holder!.backend]);
    const cut = wire.requests().length;
    const second = b.start(['apply', '--auto-approve', '--lock-timeout', '2m']);

    const stopped = await first.done;
    expect(stopped.code, transcript(stopped)).toBe(1);
    expect(stopped.stderr).toMatch(new RegExp(`the state lock of account \\S+ in postgres://[^ ]+ was lost: the session that held it ended \\(terminating connection due to administrator command\\)`));
    expect(stopped.stderr).toContain('No write was sent after it');
    expect(stopped.stderr).not.toContain('a bug in adsctl');
    // what went out after the lock was lost is at most what was already in flight
    const late = wire.requests().slice(cut).filter((r) => isWrite(r.method));
    expect(late.length, late.map((r) => `${r.method} ${r.path}`).join('\n')).toBeLessThanOrEqual(PARALLELISM);

    const finished = await second.done;
    expect(finished.code, transcript(finished)).toBe(0);
    expect(finished.stdout).toContain('Apply complete!');
    await converged(b, fleet);
    await converged(a, fleet);
  });

  it('is not ended by a server that ends idle sessions: an apply waiting on the service longer keeps it', async () => {
    const url = await freshDatabase('idle_session');
    const db = await admin(url);
    const name = new URL(url).pathname.slice(1);
    await db.query(`ALTER DATABASE ${name} SET idle_session_timeout = '1s'`);
    await db.query(`ALTER DATABASE ${name} SET idle_in_transaction_session_timeout = '1s'`);
    const fleet: Fleet = { prefix: 'E2E Lock Idle', campaigns: 2, lineItems: 1, keywords: 1, posts: 1 };
    const [a, b] = [copy(fleet, url), copy(fleet, url)];
    const gate = await startGateProxy(emulator.info.base_url);
    closing.push(gate);
    const held = a.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
    await gate.firstRequest;
    // the run waits on the service three times the server's idle timeout, holding the lock
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const refused = await adsctl(b, ['plan', '--lock-timeout', '0s'], 1);
    expect(refused.stderr).toContain('is locked by');
    gate.open();
    const done = await held.done;
    expect(done.code, transcript(done)).toBe(0);
    expect(done.stdout).toContain(`Apply complete! Resources: ${fleetAddresses(fleet).length} added`);
    await converged(b, fleet);
  });
});

describe('force-unlock of a holder that is still running', () => {
  it.each([{ backend: 'postgres' }, { backend: 'local' }])('is refused without --force, naming the holder, and done with it ($backend)', async ({ backend }) => {
    const url = backend === 'postgres' ? await freshDatabase('force_live') : undefined;
    const fleet: Fleet = { prefix: `E2E Force ${backend}`, campaigns: 1, lineItems: 1, keywords: 1, posts: 1 };
    const ws = copy(fleet, url);
    const gate = await startGateProxy(emulator.info.base_url);
    closing.push(gate);
    const held = ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
    await gate.firstRequest;
    const locked = await adsctl(ws, ['plan', '--lock-timeout', '0s'], 1);
    const id = /lock id ([0-9a-f-]+)/.exec(locked.stderr)?.[1];
    expect(id, locked.stderr).toBeDefined();

    const refused = await adsctl(ws, ['force-unlock', id!], 1);
    expect(refused.stderr).toMatch(new RegExp(`lock ${id} is held by a run that is still running: \\S+@\\S+ \\(pid ${held.child.pid}, apply since \\S+\\); `));
    expect(refused.stderr).toContain('pass --force');
    expect((await adsctl(ws, ['plan', '--lock-timeout', '0s'], 1)).stderr).toContain(`lock id ${id}`);

    const removed = await adsctl(ws, ['force-unlock', id!, '--force'], 0);
    expect(removed.stdout).toContain(`Lock ${id} (held by`);
    gate.open();
    const done = await held.done;
    // the lock it held is gone (its session ended with it, or its file was removed): it sends no
    // write, and says so
    expect(done.code, transcript(done)).toBe(1);
    expect(done.stderr).toMatch(backend === 'postgres' ? /the state lock of account \S+ in postgres:\/\/\S+ was lost/ : /the state lock of account \S+ in \S+ was lost: its file was removed while this run held it/);
    expect(done.stderr).toContain('No write was sent after it');
    expect(gate.requests().filter((r) => r.method !== 'GET'), 'writes after the lock was broken').toEqual([]);
    // the file's many runs spend the emulator's budget of global lookups (5 in 15 minutes)
    await resetRateLimits(emulator.info);
    await adsctl(ws, ['apply', '--auto-approve'], 0);
    await converged(ws, fleet);
  });
});
