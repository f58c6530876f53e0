/**
 * Team state in PostgreSQL, end to end: working copies of one repository (separate directories,
 * as on separate CI runners) whose adsctl.yaml keeps state in one real PostgreSQL database
 * (test/support/postgres.ts), applying a fleet against one emulator. Two applies at once: one
 * waits for the other's advisory lock and both end consistent. An apply killed with SIGKILL: its
 * lock is free at once, and the next run, from the other copy, finishes the job from the journal
 * in the database. `state push` of an older serial is refused. Local state moves into PostgreSQL
 * and back without losing anything.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetAddresses, fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import { freshDatabase } from '../support/postgres.js';
import type { CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';
const POSTGRES_CONFIG = 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n';

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];
const admins: pg.Client[] = [];

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ latencyMs: 20 }));
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
  for (const admin of admins) await admin.end();
});

/** A working copy of the fleet's repository with state in the database at `url`. */
function copy(fleet: Fleet, url: string, config = POSTGRES_CONFIG): Workspace {
  const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
  workspaces.push(ws);
  writeFileSync(join(ws.dir, 'adsctl.yaml'), config);
  ws.env['TEAM_STATE_URL'] = url;
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

/** The fleet is on the service exactly once, and the state binds every address of it. */
async function converged(ws: Workspace, fleet: Fleet): Promise<void> {
  const bound = parseStateList((await adsctl(ws, ['state', 'list'], 0)).stdout);
  expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).sort()).toEqual(fleetAddresses(fleet).sort());
  expect(await fleetProblems(client, ACCOUNT, fleet, bound)).toEqual([]);
  expect((await adsctl(ws, ['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
}

describe('state in PostgreSQL', () => {
  it('serialises two applies from two working copies: one waits for the other, and both end consistent', async () => {
    const url = await freshDatabase('two_applies');
    const fleet: Fleet = { prefix: 'E2E PG Both', campaigns: 8, lineItems: 2, keywords: 2, posts: 2 };
    const [a, b] = [copy(fleet, url), copy(fleet, url)];
    const db = await admin(url);
    const first = a.start(['apply', '--auto-approve']);
    const holding = async (): Promise<boolean> => ((await db.query('SELECT 1 FROM adsctl.lock_holders h JOIN pg_stat_activity a ON a.pid = h.backend_pid').catch(() => ({ rowCount: 0 }))).rowCount ?? 0) > 0;
    await waitUntil('the first apply to hold the lock', async () => first.child.exitCode !== null || (await holding()));
    const second = b.start(['apply', '--auto-approve', '--lock-timeout', '2m']);
    const [one, two] = await Promise.all([first.done, second.done]);
    expect(one.code, transcript(one)).toBe(0);
    expect(two.code, transcript(two)).toBe(0);
    expect(one.stdout).toContain(`Apply complete! Resources: ${fleetAddresses(fleet).length} added`);
    // the second planned after the first had finished: nothing left to do
    expect(two.stdout).toContain('No changes.');
    await converged(a, fleet);
    expect((await adsctl(b, ['state', 'list'], 0)).stdout).toBe((await adsctl(a, ['state', 'list'], 0)).stdout);
  });

  it('frees the lock of an apply killed with SIGKILL at once, and the next run from another copy finishes the job', async () => {
    const url = await freshDatabase('killed');
    const fleet: Fleet = { prefix: 'E2E PG Killed', campaigns: 20, lineItems: 2, keywords: 2, posts: 4 };
    const [a, b] = [copy(fleet, url), copy(fleet, url)];
    const db = await admin(url);
    const killed = a.start(['apply', '--auto-approve']);
    // the schema appears when the killed run first connects
    const outcomes = async (): Promise<number> => Number((await db.query("SELECT count(*) AS n FROM adsctl.journal WHERE record ? 'serial'").catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n);
    await waitUntil('outcomes in the journal', async () => killed.child.exitCode !== null || (await outcomes()) >= 3);
    killed.child.kill('SIGKILL');
    const dead = await killed.done;
    expect(dead.code, transcript(dead)).toBeNull();
    // no wait: the server dropped the lock with the dead runner's connection
    const planned = await adsctl(b, ['plan', '--lock-timeout', '0s'], 0);
    expect(planned.stdout + planned.stderr).not.toContain('is locked');
    const rerun = await adsctl(b, ['apply', '--auto-approve'], 0);
    expect(rerun.stdout).toContain('Apply complete!');
    await converged(b, fleet);
  });

  it('refuses a push of an older serial, and takes a newer one', async () => {
    const url = await freshDatabase('push');
    const fleet: Fleet = { prefix: 'E2E PG Push', campaigns: 1, lineItems: 1, keywords: 1, posts: 1 };
    const ws = copy(fleet, url);
    await adsctl(ws, ['apply', '--auto-approve'], 0);
    const pulled = (await adsctl(ws, ['state', 'pull'], 0)).stdout;
    const old = join(ws.dir, 'old.json');
    writeFileSync(old, pulled);
    const serial = (JSON.parse(pulled) as { serial: number }).serial;
    const [post] = [...parseStateList((await adsctl(ws, ['state', 'list'], 0)).stdout).keys()].filter((a) => a.includes('promoted_posts'));
    await adsctl(ws, ['state', 'rm', post!], 0);
    const refused = await adsctl(ws, ['state', 'push', 'old.json'], 1);
    expect(refused.stderr).toContain(`is at serial ${serial + 1}, and the state pushed is at serial ${serial}: it is not newer`);
    const history = (await adsctl(ws, ['state', 'history'], 0)).stdout;
    expect(history).toMatch(new RegExp(`^${serial + 1}\\s+\\S+\\s+\\S+\\s+state rm`, 'm'));
    writeFileSync(old, JSON.stringify({ ...(JSON.parse(pulled) as object), serial: serial + 2 }));
    expect((await adsctl(ws, ['state', 'push', 'old.json'], 0)).stdout).toContain(`(serial ${serial + 2})`);
    expect((await adsctl(ws, ['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });

  it('moves local state into PostgreSQL and back, losing nothing', async () => {
    const url = await freshDatabase('migrate');
    const fleet: Fleet = { prefix: 'E2E PG Migrate', campaigns: 2, lineItems: 1, keywords: 1, posts: 1 };
    const ws = copy(fleet, url, 'state:\n  backend: local\n  connection_string_env: TEAM_STATE_URL\n');
    await adsctl(ws, ['apply', '--auto-approve'], 0);
    const local = (await adsctl(ws, ['state', 'list'], 0)).stdout;
    // the history goes along: the apply's version, below the one the migration keeps
    const applied = /^(\d+)\s+\S+\s+\S+\s+apply/m.exec((await adsctl(ws, ['state', 'history'], 0)).stdout)?.[1];
    expect(applied).toBeDefined();

    writeFileSync(join(ws.dir, 'adsctl.yaml'), POSTGRES_CONFIG);
    expect((await adsctl(ws, ['state', 'list'], 0)).stdout).toBe('');
    const moved = await adsctl(ws, ['state', 'migrate', '--from', 'local'], 0);
    expect(moved.stdout).toContain('Migrated 1 of 1 account from');
    expect((await adsctl(ws, ['state', 'list'], 0)).stdout).toBe(local);
    const inPostgres = (await adsctl(ws, ['state', 'history'], 0)).stdout;
    expect(inPostgres).toMatch(new RegExp(`^${applied}\\s+\\S+\\s+\\S+\\s+apply`, 'm'));
    expect((await adsctl(ws, ['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
    // a change made while the state is in PostgreSQL goes back with it
    const [post] = [...parseStateList(local).keys()].filter((a) => a.includes('promoted_posts'));
    await adsctl(ws, ['state', 'rm', post!], 0);
    const changed = (await adsctl(ws, ['state', 'list'], 0)).stdout;

    writeFileSync(join(ws.dir, 'adsctl.yaml'), 'state:\n  backend: local\n  connection_string_env: TEAM_STATE_URL\n');
    expect((await adsctl(ws, ['state', 'migrate', '--from', 'postgres'], 0)).stdout).toContain('Migrated 1 of 1 account');
    expect((await adsctl(ws, ['state', 'list'], 0)).stdout).toBe(changed);
  });
});
