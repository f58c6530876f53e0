/**
 * PostgreSQL goes away mid-apply (issue 19): the server drops every connection and refuses new
 * ones — here a TCP proxy in front of the test server (tcp-proxy.ts) is cut. The apply loses its lock with its session: it sends no write beyond those in flight,
 * says in one line which lock it lost and why, and exits 1, never calling it a bug. A run started
 * during the outage says it cannot reach the server, naming it. Once the server is back, the next
 * apply recovers what the first left open and finishes: every object once, every binding kept.
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
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';
const PARALLELISM = 4;

let emulator: RunningEmulator;
let client: TestClient;
let proxy: TcpProxy;
let wire: WireLog;
const workspaces: Workspace[] = [];

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ latencyMs: 40 }));
  wire = await startWireLog(emulator.info.base_url);
});
afterAll(async () => {
  await proxy?.close();
  await wire.close();
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

describe('a PostgreSQL outage mid-apply', () => {
  it('stops the apply with a one-line error and no write after it; the next apply, once the server is back, finishes with nothing twice and nothing lost', async () => {
    const direct = await freshDatabase('outage');
    const url = new URL(direct);
    proxy = await startTcpProxy(url.hostname, Number(url.port));
    const through = new URL(direct);
    through.port = String(proxy.port);
    const fleet: Fleet = { prefix: 'E2E Outage', campaigns: 20, lineItems: 2, keywords: 2, posts: 2 };
    const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
    workspaces.push(ws);
    writeFileSync(join(ws.dir, 'adsctl.yaml'), 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n');
    ws.env['TEAM_STATE_URL'] = through.toString();
    ws.env['ADSCTL_ENDPOINT'] = wire.url;
    const db = new pg.Client({ connectionString: direct });
    await db.connect();
    try {
      const first = ws.start(['apply', '--auto-approve', '--parallelism', String(PARALLELISM)]);
      const outcomes = async (): Promise<number> => Number((await db.query("SELECT count(*) AS n FROM adsctl.journal WHERE record ? 'serial'").catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n);
      await waitUntil('outcomes in the journal', async () => first.child.exitCode !== null || (await outcomes()) >= 4);
      expect(first.child.exitCode, 'the apply is still running').toBeNull();
      await proxy.cut();
      const cut = wire.requests().length;

      const stopped = await first.done;
      expect(stopped.code, transcript(stopped)).toBe(1);
      expect(stopped.stderr).toMatch(/the state lock of account \S+ in postgres:\/\/\S+ was lost: the session that held it ended/);
      expect(stopped.stderr).toContain('No write was sent after it');
      expect(stopped.stderr).not.toContain('a bug in adsctl');
      expect(stopped.stderr).not.toMatch(/^\s+at /m);
      const late = wire.requests().slice(cut).filter((r) => r.method !== 'GET');
      expect(late.length, late.map((r) => `${r.method} ${r.path}`).join('\n')).toBeLessThanOrEqual(PARALLELISM);

      // while the server is away, a run says so in one line, naming it
      const away = await ws.run(['plan']);
      expect(away.code, transcript(away)).toBe(1);
      expect(away.stderr).toContain(`127.0.0.1:${proxy.port}`);
      expect(away.stderr).not.toContain('a bug in adsctl');
      expect(away.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^adsctl\\.yaml:\\d+:\\d+: error state-backend: cannot use the state in postgres://127\\.0\\.0\\.1:${proxy.port}/\\S+: connect ECONNREFUSED 127\\.0\\.0\\.1:${proxy.port}: check that the server is up and reachable from here, then run the command again$`))]);

      await proxy.restore();
      const finished = await ws.run(['apply', '--auto-approve']);
      expect(finished.code, transcript(finished)).toBe(0);
      expect(finished.stdout).toContain('Apply complete!');
      const bound = parseStateList((await ws.run(['state', 'list'])).stdout);
      expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).sort()).toEqual(fleetAddresses(fleet).sort());
      expect(await fleetProblems(client, ACCOUNT, fleet, bound)).toEqual([]);
      const plan = await ws.run(['plan', '--detailed-exitcode']);
      expect(plan.code, transcript(plan)).toBe(0);
      expect(plan.stdout).toContain('No changes.');
    } finally {
      await db.end();
    }
  });
});
