/**
 * Drift keeps who and when until it is accepted or reverted (issue 32): the account history of a
 * drifted object is read since adsctl last recorded that object (`recorded_at` of its state
 * entry), and that of an object no manifest holds since the record of what was seen last changed
 * (`unmanaged_seen_at`), not since the account's last state write. Before, accepting one item with `apply
 * --refresh-only --target`, or an unrelated `import`, moved the point the history was read from
 * past the other items' changes, and those showed only `(changed outside adsctl)`. Through the
 * engine in-process (test/support/engine-harness.ts) against the in-process emulator, at a manual
 * clock the test moves on where a step needs a later second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { importInto } from '../support/engine-adoption.js';
import { manualClock } from '../support/manual-clock.js';
import { loginAs } from '../support/login.js';

const ACCOUNT = '18ce54d4x5t';
const MANAGER = '756201191646691329';
const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`;

let emulator: RunningEmulator;
let owner: TestClient;
let manager: TestClient;
let ws: EngineWorkspace;
const clock = manualClock();
let ids: Map<string, string>;

const campaign = (key: string, name: string, daily: string): string => `  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "${daily}"
    entity_status: PAUSED
`;

const manifest = (endpoint: string, extra = ''): string => `${seededAccountHead(endpoint)}campaigns:
${campaign('a', 'Alpha', '9.00')}${campaign('b', 'Beta', '8.00')}${campaign('c', 'Gamma', '7.00')}${extra}`;


/** The campaign made by hand that no manifest holds, with who made it. */
const OMEGA_MADE_BY = new RegExp(String.raw`campaign "Omega" \(id \w+\): PAUSED, daily budget 1\.00 USD, new since the last apply \(made outside adsctl by user ${MANAGER} at ${TIME}\)`);

/** The drift line of campaign `key`'s daily budget in a refresh-only plan. */
const budgetLine = (text: string, key: string): string | undefined => {
  const block = text.split(/\n(?=\s*# campaigns\.)/).find((b) => b.includes(`# campaigns.${key} `));
  return block?.split('\n').find((l) => l.includes('daily_budget'));
};

beforeAll(async () => {
  ({ emulator, client: owner } = await startTestEmulator({ clock }));
  manager = owner.as(await loginAs(owner, 'adsctl_manager'));
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('who and when, kept per object', () => {
  it('applies; then the manager changes three budgets by hand', async () => {
    await expectCode(ws.apply(), 0);
    ids = ws.bindings(ACCOUNT);
    // a later second than the apply's last write: the owner's own writes are not drift
    clock.advance(1100);
    for (const [key, micros] of [['a', 5_000_000], ['b', 4_000_000], ['c', 3_000_000]] as const) {
      const put = await manager.put(`/12/accounts/${ACCOUNT}/campaigns/${ids.get(`campaigns.${key}`)!}`, { daily_budget_amount_local_micro: micros });
      expect(put.status, put.text).toBe(200);
    }
    // and a campaign no manifest holds
    const made = await manager.post(`/12/accounts/${ACCOUNT}/campaigns`, { name: 'Omega', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 1_000_000, entity_status: 'PAUSED' });
    expect(made.status, made.text).toBeLessThan(300);
    const text = (await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2)).stdout;
    for (const key of ['a', 'b', 'c']) expect(budgetLine(text, key)).toMatch(new RegExp(`by user ${MANAGER} at ${TIME}`));
    expect(text).toMatch(OMEGA_MADE_BY);
  });

  it('accepting one with a targeted refresh-only apply keeps who and when on the others', async () => {
    // a later second again, so that the acceptance is written after the changes it leaves
    clock.advance(1100);
    await expectCode(ws.applyRefreshOnly({ target: ['campaigns.a'] }), 0);
    const text = (await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2)).stdout;
    expect(budgetLine(text, 'a')).toBeUndefined();
    for (const key of ['b', 'c']) expect(budgetLine(text, key), text).toMatch(new RegExp(`\\(changed outside adsctl by user ${MANAGER} at ${TIME}\\)`));
    expect(text).toMatch(OMEGA_MADE_BY);
  });

  it('an unrelated import keeps who and when on the drift still pending', async () => {
    const made = await manager.post(`/12/accounts/${ACCOUNT}/campaigns`, { name: 'Delta', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 6_000_000, entity_status: 'PAUSED' });
    expect(made.status, made.text).toBeLessThan(300);
    const id = String((made.body as { data: { id: string } }).data.id);
    clock.advance(1100);
    ws.write(manifest(emulator.info.base_url, campaign('d', 'Delta', '6.00')));
    await expectCode(importInto(ws, 'campaigns.d', id), 0);
    const text = (await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2)).stdout;
    for (const key of ['b', 'c']) expect(budgetLine(text, key), text).toMatch(new RegExp(`\\(changed outside adsctl by user ${MANAGER} at ${TIME}\\)`));
    expect(text).toMatch(OMEGA_MADE_BY);
  });

  it('an apply puts the budgets back; then nothing is drift', async () => {
    await expectCode(ws.apply(), 0);
    await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
  });
});
