/**
 * Drift keeps who and when until it is accepted or reverted (issue 32): the account history of a
 * drifted object is read since adsctl last recorded that object (`recorded_at` of its state
 * entry), and that of an object no manifest holds since the record of what was seen last changed
 * (`unmanaged_seen_at`), not since the account's last state write. Before, accepting one item with `apply
 * --refresh-only --target`, or an unrelated `import`, moved the point the history was read from
 * past the other items' changes, and those showed only `(changed outside adsctl)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, parseStateList, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';
import { loginAs } from '../support/login.js';

const ACCOUNT = '18ce54d4x5t';
const MANAGER = '756201191646691329';
const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`;

let emulator: RunningEmulator;
let owner: TestClient;
let manager: TestClient;
let ws: Workspace;
let ids: Map<string, string>;

const campaign = (key: string, name: string, daily: string): string => `  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "${daily}"
    entity_status: PAUSED
`;

const manifest = (endpoint: string, extra = ''): string => `${seededAccountHead(endpoint)}campaigns:
${campaign('a', 'Alpha', '9.00')}${campaign('b', 'Beta', '8.00')}${campaign('c', 'Gamma', '7.00')}${extra}`;

const adsctl = expectRuns(() => ws);

/** The campaign made by hand that no manifest holds, with who made it. */
const OMEGA_MADE_BY = new RegExp(String.raw`campaign "Omega" \(id \w+\): PAUSED, daily budget 1\.00 USD, new since the last apply \(made outside adsctl by user ${MANAGER} at ${TIME}\)`);

/** The drift line of campaign `key`'s daily budget in a refresh-only plan. */
const budgetLine = (text: string, key: string): string | undefined => {
  const block = text.split(/\n(?=\s*# campaigns\.)/).find((b) => b.includes(`# campaigns.${key} `));
  return block?.split('\n').find((l) => l.includes('daily_budget'));
};

beforeAll(async () => {
  ({ emulator, client: owner } = await startTestEmulator());
  manager = owner.as(await loginAs(owner, 'adsctl_manager'));
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('who and when, kept per object', () => {
  it('applies; then the manager changes three budgets by hand', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    ids = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
    // a later second than the apply's last write: the owner's own writes are not drift
    await new Promise((r) => setTimeout(r, 1100));
    for (const [key, micros] of [['a', 5_000_000], ['b', 4_000_000], ['c', 3_000_000]] as const) {
      const put = await manager.put(`/12/accounts/${ACCOUNT}/campaigns/${ids.get(`campaigns.${key}`)!}`, { daily_budget_amount_local_micro: micros });
      expect(put.status, put.text).toBe(200);
    }
    // and a campaign no manifest holds
    const made = await manager.post(`/12/accounts/${ACCOUNT}/campaigns`, { name: 'Omega', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 1_000_000, entity_status: 'PAUSED' });
    expect(made.status, made.text).toBeLessThan(300);
    const text = (await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 2)).stdout;
    for (const key of ['a', 'b', 'c']) expect(budgetLine(text, key)).toMatch(new RegExp(`by user ${MANAGER} at ${TIME}`));
    expect(text).toMatch(OMEGA_MADE_BY);
  });

  it('accepting one with a targeted refresh-only apply keeps who and when on the others', async () => {
    // a later second again, so that the acceptance is written after the changes it leaves
    await new Promise((r) => setTimeout(r, 1100));
    await adsctl(['apply', '--refresh-only', '--target', 'campaigns.a', '--auto-approve'], 0);
    const text = (await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 2)).stdout;
    expect(budgetLine(text, 'a')).toBeUndefined();
    for (const key of ['b', 'c']) expect(budgetLine(text, key), text).toMatch(new RegExp(`\\(changed outside adsctl by user ${MANAGER} at ${TIME}\\)`));
    expect(text).toMatch(OMEGA_MADE_BY);
  });

  it('an unrelated import keeps who and when on the drift still pending', async () => {
    const made = await manager.post(`/12/accounts/${ACCOUNT}/campaigns`, { name: 'Delta', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 6_000_000, entity_status: 'PAUSED' });
    expect(made.status, made.text).toBeLessThan(300);
    const id = String((made.body as { data: { id: string } }).data.id);
    await new Promise((r) => setTimeout(r, 1100));
    ws.write(manifest(emulator.info.base_url, campaign('d', 'Delta', '6.00')));
    await adsctl(['import', 'campaigns.d', id], 0);
    const text = (await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 2)).stdout;
    for (const key of ['b', 'c']) expect(budgetLine(text, key), text).toMatch(new RegExp(`\\(changed outside adsctl by user ${MANAGER} at ${TIME}\\)`));
    expect(text).toMatch(OMEGA_MADE_BY);
  });

  it('an apply puts the budgets back; then nothing is drift', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 0);
  });
});
