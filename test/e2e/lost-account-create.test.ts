import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, transcript, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

/** Injects `spec` into the next `count` advertising requests only. */
async function faultNext(spec: string, count: number): Promise<void> {
  const res = await request(`${emulator.info.base_url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults: spec, count }),
  });
  expect(res.statusCode).toBe(200);
  await res.body.text();
}

const manifest = (endpoint: string): string => `version: 1
endpoint: ${endpoint}
account:
  name: Lost answer
funding_instruments:
  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  c:
    name: Only campaign
    funding_instrument: card
    daily_budget: "10.00"
    entity_status: PAUSED
`;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

describe('a sandbox account whose create answer is lost', () => {
  it('is adopted, not created twice', async () => {
    const before = (await listAll(client, '/12/accounts')).length;
    // the account POST (the first advertising request of the apply) is handled, then its answer lost
    await faultNext('lost=100%', 1);
    const apply = await ws.run(['apply', '--auto-approve']);
    expect(apply.code, transcript(apply)).toBe(0);
    const accounts = await listAll(client, '/12/accounts');
    expect(accounts.length).toBe(before + 1);
    const created = accounts.find((a) => a['name'] === 'Lost answer');
    expect(created).toBeDefined();
    expect((await listAll(client, `/12/accounts/${created!['id']}/funding_instruments`)).length).toBe(1);
    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(0);
  });
});
