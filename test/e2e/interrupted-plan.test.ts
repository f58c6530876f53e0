/**
 * Ctrl-C (SIGINT) or a polite kill (SIGTERM) of a command that holds the state lock without
 * writing: `plan` and `import`, with local state and with state in PostgreSQL. The signal lands
 * while the lock is held (the run's first request is held at a gate proxy, so the moment is
 * exact): the run releases the lock through its backend — no lock file, no PostgreSQL holder row
 * left — and exits 130 or 143; the next run takes the lock at once, with no warning.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, seededAccountHead, transcript, waitUntil, type RunningCli, type Workspace } from '../support/e2e.js';
import { startGateProxy } from '../support/gate-proxy.js';
import { freshDatabase } from '../support/postgres.js';
import type { CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
  by_hand:
    name: Made by hand
    funding_instrument: main
    daily_budget: "7.00"
`;

function workspace(): Workspace {
  const ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
  workspaces.push(ws);
  return ws;
}

const lockFile = (ws: Workspace): string => join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.lock`);

/**
 * Starts `adsctl ...args` with its requests held at a gate, waits until it holds the lock
 * (`holding`) and has sent its first request, sends `signal`, and returns how it ended.
 */
async function interrupt(ws: Workspace, args: string[], signal: NodeJS.Signals, holding: () => Promise<boolean>): Promise<CliRun> {
  const gate = await startGateProxy(emulator.info.base_url);
  const run: RunningCli = ws.start(args, { ADSCTL_ENDPOINT: gate.url });
  const ended = (): boolean => run.child.exitCode !== null || run.child.signalCode !== null;
  try {
    await Promise.race([gate.firstRequest, run.done]);
    await waitUntil('the run to hold the lock', async () => ended() || (await holding()));
    expect(ended(), transcript({ code: run.child.exitCode, stdout: run.stdout(), stderr: run.stderr() })).toBe(false);
    run.child.kill(signal);
    return await run.done;
  } finally {
    if (!ended()) run.child.kill('SIGKILL');
    await gate.close();
  }
}

/** The next plan takes the lock at once (no --lock-timeout) and warns of no lock left behind. */
async function nextPlanRunsAtOnce(ws: Workspace): Promise<void> {
  const plan = await ws.run(['plan']);
  expect(plan.code, transcript(plan)).toBe(0);
  expect(plan.stderr).not.toContain('took over');
  expect(plan.stderr).not.toContain('locked');
}

describe('a signal to a command holding the local lock', () => {
  it.each([
    { signal: 'SIGINT', code: 130 },
    { signal: 'SIGTERM', code: 143 },
  ] as const)('plan: $signal releases the lock and exits $code', async ({ signal, code }) => {
    const ws = workspace();
    const ended = await interrupt(ws, ['plan'], signal, () => Promise.resolve(existsSync(lockFile(ws))));
    expect(ended.code, transcript(ended)).toBe(code);
    expect(ended.stderr).toContain('Interrupted.');
    expect(existsSync(lockFile(ws))).toBe(false);
    await nextPlanRunsAtOnce(ws);
  });

  it('import: SIGINT releases the lock and exits 130, and the import can be run again', async () => {
    const ws = workspace();
    const made = await client.post(`/12/accounts/${ACCOUNT}/campaigns`, { funding_instrument_id: 'lygyi', name: 'Made by hand', daily_budget_amount_local_micro: 7_000_000, entity_status: 'PAUSED' });
    const id = String(made.body.data.id);
    const ended = await interrupt(ws, ['import', 'campaigns.by_hand', id], 'SIGINT', () => Promise.resolve(existsSync(lockFile(ws))));
    expect(ended.code, transcript(ended)).toBe(130);
    expect(existsSync(lockFile(ws))).toBe(false);
    const again = await ws.run(['import', 'campaigns.by_hand', id]);
    expect(again.code, transcript(again)).toBe(0);
    expect(again.stderr).not.toContain('took over');
    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });
});

describe('a signal to a plan holding the lock in PostgreSQL', () => {
  it('SIGINT releases the advisory lock and deletes its holder row, and exits 130', async () => {
    const url = await freshDatabase('interrupted_plan');
    const ws = workspace();
    writeFileSync(join(ws.dir, 'adsctl.yaml'), 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n');
    ws.env['TEAM_STATE_URL'] = url;
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const holders = async (): Promise<number> => {
        const exists = await db.query("SELECT to_regclass('adsctl.lock_holders') IS NOT NULL AS there");
        if (exists.rows[0]?.there !== true) return 0;
        return (await db.query('SELECT 1 FROM adsctl.lock_holders')).rowCount ?? 0;
      };
      const ended = await interrupt(ws, ['plan'], 'SIGINT', async () => (await holders()) === 1);
      expect(ended.code, transcript(ended)).toBe(130);
      expect(ended.stderr).toContain('Interrupted.');
      expect(await holders()).toBe(0);
      await nextPlanRunsAtOnce(ws);
      expect(await holders()).toBe(0);
    } finally {
      await db.end();
    }
  });
});

describe('a signal to a state command holding its locks', () => {
  /** A workspace whose state is in the database at `url`, with the campaign applied. */
  async function applied(url: string): Promise<Workspace> {
    const ws = workspace();
    writeFileSync(join(ws.dir, 'adsctl.yaml'), 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n');
    ws.env['TEAM_STATE_URL'] = url;
    const apply = await ws.run(['apply', '--auto-approve']);
    expect(apply.code, transcript(apply)).toBe(0);
    return ws;
  }

  /**
   * Runs `adsctl ...args` while another session holds the account's state row, so the command
   * takes its locks and then waits on its write; sends `signal` once it waits there (seen from a
   * third session: a transaction sees the activity of the server as it was when it began), then
   * lets the row go. Returns how the command ended.
   */
  async function interruptWrite(ws: Workspace, url: string, args: string[], signal: NodeJS.Signals): Promise<CliRun> {
    const [rowHolder, watcher] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await rowHolder.connect();
    await watcher.connect();
    await rowHolder.query('BEGIN');
    await rowHolder.query('SELECT 1 FROM adsctl.states WHERE account = $1 FOR UPDATE', [ACCOUNT]);
    const run = ws.start(args);
    try {
      await waitUntil('the command to wait on its write, holding its locks', async () => {
        if (run.child.exitCode !== null) return true;
        const waiting = await watcher.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'adsctl' AND wait_event_type = 'Lock'");
        return (waiting.rowCount ?? 0) > 0;
      });
      expect(run.child.exitCode, transcript(run.child.exitCode === null ? { code: null, stdout: run.stdout(), stderr: run.stderr() } : await run.done)).toBeNull();
      run.child.kill(signal);
      return await run.done;
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
      await rowHolder.query('ROLLBACK');
      await rowHolder.end();
      await watcher.end();
    }
  }

  const holders = async (db: pg.Client): Promise<number> => (await db.query('SELECT 1 FROM adsctl.lock_holders')).rowCount ?? 0;

  it('state rm: SIGTERM mid-write releases the lock and its holder row, exits 143, and changes nothing', async () => {
    const url = await freshDatabase('interrupted_state_rm');
    const ws = await applied(url);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const ended = await interruptWrite(ws, url, ['state', 'rm', 'campaigns.by_hand'], 'SIGTERM');
      expect(ended.code, transcript(ended)).toBe(143);
      expect(ended.stderr).toContain('Interrupted.');
      expect(ended.stdout).not.toContain('Removed');
      expect(await holders(db)).toBe(0);
      const list = await ws.run(['state', 'list']);
      expect(list.code, transcript(list)).toBe(0);
      expect(list.stdout).toContain('campaigns.by_hand');
      const plan = await ws.run(['plan', '--detailed-exitcode']);
      expect(plan.code, transcript(plan)).toBe(0);
      expect(plan.stderr).not.toContain('locked');
    } finally {
      await db.end();
    }
  });

  it('state migrate: SIGINT mid-copy releases the local lock and the PostgreSQL one, exits 130, and the migration can be run again', async () => {
    const url = await freshDatabase('interrupted_migrate');
    const ws = workspace();
    const apply = await ws.run(['apply', '--auto-approve']);
    expect(apply.code, transcript(apply)).toBe(0);
    writeFileSync(join(ws.dir, 'adsctl.yaml'), 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n');
    ws.env['TEAM_STATE_URL'] = url;
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      // a row to hold: the account's state as an earlier migration left it, one serial behind
      const first = await ws.run(['state', 'migrate', '--from', 'local']);
      expect(first.code, transcript(first)).toBe(0);
      await db.query("UPDATE adsctl.states SET serial = serial - 1, state = jsonb_set(state, '{serial}', to_jsonb(serial - 1)) WHERE account = $1", [ACCOUNT]);
      const ended = await interruptWrite(ws, url, ['state', 'migrate', '--from', 'local', '--force'], 'SIGINT');
      expect(ended.code, transcript(ended)).toBe(130);
      expect(ended.stderr).toContain('Interrupted.');
      expect(existsSync(lockFile(ws))).toBe(false);
      expect(await holders(db)).toBe(0);
      const again = await ws.run(['state', 'migrate', '--from', 'local', '--force']);
      expect(again.code, transcript(again)).toBe(0);
      const plan = await ws.run(['plan', '--detailed-exitcode']);
      expect(plan.code, transcript(plan)).toBe(0);
    } finally {
      await db.end();
    }
  });
});
