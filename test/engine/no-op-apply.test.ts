/**
 * An apply with nothing to do writes nothing: `.adsctl/` is byte for byte what it was (the lock's
 * generation record aside, which every run that takes the lock moves on), in local files and in
 * PostgreSQL (no row of the state, its kept versions or its journal written), for
 * `apply --auto-approve` and for a saved plan with no changes. What does change without a write
 * to the service is still written: an object made outside adsctl appearing among the unmanaged
 * ones is recorded, with a new serial, and the apply after that is a no-op again. Through the
 * engine in-process (test/support/engine-harness.ts) against the in-process emulator at a manual
 * clock, moved a second on before the object made by hand (the account history counts changes
 * from the whole second after the last apply's write).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { freshDatabase } from '../support/postgres.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
const clock = manualClock();

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
});
afterAll(async () => {
  await emulator.close();
});
stepsInOrder();

/** A paused campaign with a line item that targets a location, and a promoted post. */
const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
  quiet:
    name: No-op apply test
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
    line_items:
      us:
        name: US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: MAX
        bid_amount: "1.50"
        start_time: 2026-01-01T00:00:00Z
        entity_status: PAUSED
        targeting:
          - { targeting_type: LOCATION, targeting_value: 96683cc9126741d1 }
`;

/** Every file under `dir` with its bytes, but the lock's generation record (lock bookkeeping, not state). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('.generation')) out[relative(dir, path)] = readFileSync(path).toString('base64');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const writes = (): number => ['POST', 'PUT', 'DELETE'].reduce((n, m) => n + (emulator.stats.byMethod[m] ?? 0), 0);

/** Makes a paused campaign by hand, outside adsctl. */
async function campaignByHand(name: string): Promise<void> {
  clock.advance(1000);
  const reply = await client.post(`/12/accounts/${ACCOUNT}/campaigns`, { name, funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 3_000_000, entity_status: 'PAUSED' });
  expect(reply.status, reply.text).toBe(201);
}

describe('a no-op apply with state in local files', () => {
  let ws: EngineWorkspace;
  const adsctlDir = (): string => join(ws.dir, '.adsctl');
  afterAll(() => ws.remove());

  it('applies the manifest', async () => {
    ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url), clock);
    expect((await expectCode(ws.apply(), 0)).stdout).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
  });

  it('apply --auto-approve with nothing to do leaves .adsctl/ byte for byte as it was', async () => {
    const before = snapshot(adsctlDir());
    const sent = writes();
    const run = await expectCode(ws.apply(), 0);
    expect(run.stdout).toContain('No changes.');
    expect(run.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
    expect(writes()).toBe(sent);
    expect(snapshot(adsctlDir())).toEqual(before);
  });

  it('a saved plan with no changes, applied, leaves .adsctl/ as it was too', async () => {
    await expectCode(ws.plan({ out: 'empty.plan' }), 0);
    const before = snapshot(adsctlDir());
    const run = await expectCode(ws.applySaved('empty.plan'), 0);
    expect(run.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
    expect(snapshot(adsctlDir())).toEqual(before);
  });

  it('records an object made outside adsctl with a new serial, and is a no-op again after that', async () => {
    await campaignByHand('Made by hand beside the no-op test');
    const state = (): { serial: number; unmanaged_seen?: Record<string, string[]> } => JSON.parse(readFileSync(join(adsctlDir(), 'state', `${ACCOUNT}.json`), 'utf8'));
    const serial = state().serial;
    const recorded = await expectCode(ws.apply(), 0);
    expect(recorded.stdout).toContain('Made by hand beside the no-op test');
    expect(state().serial).toBe(serial + 1);
    expect(Object.values(state().unmanaged_seen ?? {}).flat()).toHaveLength(1);
    const before = snapshot(adsctlDir());
    await expectCode(ws.apply(), 0);
    expect(snapshot(adsctlDir())).toEqual(before);
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});

const POSTGRES_CONFIG = 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n';

/** The rows of the state, its kept versions, its journal and its member stores, in a stable order. */
async function rows(db: pg.Client): Promise<unknown> {
  const of = async (sql: string): Promise<unknown[]> => (await db.query(sql)).rows;
  return {
    states: await of('SELECT account, serial, state::text AS state, updated_at FROM adsctl.states ORDER BY account'),
    versions: await of('SELECT account, serial, state::text AS state, written_at, written_by, operation FROM adsctl.state_versions ORDER BY account, serial'),
    journal: await of('SELECT * FROM adsctl.journal ORDER BY 1, 2'),
    members: await of('SELECT * FROM adsctl.member_stores ORDER BY 1, 2'),
    cache: await of('SELECT * FROM adsctl.lookup_cache ORDER BY 1'),
  };
}

describe('a no-op apply with state in PostgreSQL', () => {
  let ws: EngineWorkspace;
  let db: pg.Client;
  afterAll(async () => {
    await db.end();
    ws.remove();
  });

  it('applies the manifest', async () => {
    const url = await freshDatabase('no_op_apply');
    ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url).replace('No-op apply test', 'No-op apply test in PostgreSQL'), clock);
    writeFileSync(join(ws.dir, 'adsctl.yaml'), POSTGRES_CONFIG);
    ws.env['TEAM_STATE_URL'] = url;
    db = new pg.Client({ connectionString: url });
    await db.connect();
    await expectCode(ws.apply(), 0);
  });

  it('writes no row for apply --auto-approve with nothing to do, nor for a saved plan with no changes', async () => {
    const before = await rows(db);
    const run = await expectCode(ws.apply(), 0);
    expect(run.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
    expect(await rows(db)).toEqual(before);
    await expectCode(ws.plan({ out: 'empty.plan' }), 0);
    await expectCode(ws.applySaved('empty.plan'), 0);
    expect(await rows(db)).toEqual(before);
    // nothing holds the lock, and nothing was written beside the manifests either
    expect((await db.query('SELECT * FROM adsctl.lock_holders')).rows).toEqual([]);
    expect(snapshot(join(ws.dir, '.adsctl', 'state'))).toEqual({});
  });
});
