/**
 * Issue 22, "One drift report for many accounts", through the engine in-process against the
 * in-process emulator at a manual clock (moved a second on before the changes by hand):
 * a directory of five account manifests is applied, two accounts are changed by hand through the
 * API (a budget lowered in one, an ACTIVE campaign made in another), and `plan --refresh-only
 * --detailed-exitcode` exits 2 with a digest naming exactly those two accounts — what changed
 * and the daily spend it moved (serving spend: the budget lowered is a paused campaign's, dormant,
 * so it moves nothing; the campaign made ACTIVE counts) — in text and, with `--markdown`, as one
 * issue body; the JSON keeps the budgets as written apart. An apply
 * puts the budget back and records the hand-made campaign as seen; then nothing is drift.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { lineItemByHand, madeByHand as makeByHand } from '../support/by-hand.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';

const CLIENTS = ['alpine', 'coastal', 'desert', 'forest', 'urban'];
/** The account whose budget is changed by hand, and the one that gets a campaign made by hand. */
const BUDGET_CHANGED = 'coastal';
const CAMPAIGN_MADE = 'forest';

function manifest(endpoint: string, name: string): string {
  return `version: 1
endpoint: ${endpoint}
account:
  name: ${name}
funding_instruments:
  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  brand:
    name: ${name} brand
    funding_instrument: card
    daily_budget: "10.00"
    entity_status: PAUSED
`;
}

interface PlanJson {
  accounts: Array<{ key: string; id: string | null; spend: Array<{ currency: string; daily: string }> }>;
  resource_changes: Array<{ account: string; address: string; id: string | null; drift: boolean }>;
  unmanaged?: Array<{ account: string; id: string; drift: boolean }>;
}

let emulator: RunningEmulator;
let client: TestClient;
const clock = manualClock();
let ws: EngineWorkspace;
/** Per account key (`alpine.yaml`): its live id, its campaign's and its funding instrument's. */
const ids = new Map<string, { account: string; campaign: string; card: string }>();
let madeByHand = '';

const key = (name: string): string => `${name}.yaml`;

/** The names (and manifest files) of the three accounts nobody touched by hand. */
const untouched = (): string[] => CLIENTS.filter((n) => n !== BUDGET_CHANGED && n !== CAMPAIGN_MADE);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `by user ID` or `by NAME (user ID)`, ID the emulator's seeded user's, as a pattern. */
const byTheTestUser = (): RegExp => new RegExp(`by (\\S+ \\()?user ${emulator.info.user_id}\\)?`);

/** The digest section of a refresh-only text plan. */
function digestOf(stdout: string): string {
  const at = stdout.indexOf('Drift digest:');
  expect(at, stdout).toBeGreaterThanOrEqual(0);
  return stdout.slice(at);
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, '', clock);
  mkdirSync(join(ws.dir, 'accounts'));
  for (const name of CLIENTS) writeFileSync(join(ws.dir, 'accounts', key(name)), manifest(emulator.info.base_url, name));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('one drift digest over five accounts', () => {
  it('applies the five accounts; nothing has drifted', async () => {
    await expectCode(ws.apply({ path: 'accounts' }), 0);
    const calm = await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, detailedExitcode: true }), 0);
    expect(calm.stdout).not.toContain('Drift digest');
    const md = (await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, detailedExitcode: true, format: 'markdown' }), 0)).stdout;
    expect(md).toBe('## adsctl drift report\n\n**No drift: nothing changed outside adsctl in the 5 accounts since the last apply.**\n');
    const json = JSON.parse((await expectCode(ws.plan({ path: 'accounts', format: 'json' }), 0)).stdout) as PlanJson;
    for (const a of json.accounts) {
      const idOf = (address: string): string => json.resource_changes.find((c) => c.account === a.key && c.address === address)?.id ?? '';
      ids.set(a.key, { account: a.id ?? '', campaign: idOf('campaigns.brand'), card: idOf('funding_instruments.card') });
    }
    expect([...ids.keys()].sort()).toEqual(CLIENTS.map(key));
    for (const v of ids.values()) expect(Object.values(v).every((id) => id !== '')).toBe(true);
  });

  it('names exactly the two accounts changed by hand, with what changed and the daily spend it moved', async () => {
    const budget = ids.get(key(BUDGET_CHANGED))!;
    clock.advance(1000);
    const lowered = await client.put(`/12/accounts/${budget.account}/campaigns/${budget.campaign}`, { daily_budget_amount_local_micro: 4_000_000 }, { as: 'form' });
    expect(lowered.status, lowered.text).toBe(200);
    const made = ids.get(key(CAMPAIGN_MADE))!;
    const created = await client.post(`/12/accounts/${made.account}/campaigns`, { name: 'Flash sale (by hand)', funding_instrument_id: made.card, daily_budget_amount_local_micro: 250_000_000, entity_status: 'ACTIVE' });
    expect(created.status, created.text).toBeLessThan(300);
    madeByHand = String((created.body as { data: { id: string } }).data.id);
    // it serves, through a line item of its own: its budget is spend
    await makeByHand(client, made.account, 'line_items', lineItemByHand(madeByHand, 'Flash sale US', { entity_status: 'ACTIVE' }));

    const run = await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, detailedExitcode: true }), 2);
    const digest = digestOf(run.stdout);
    expect(digest).toContain('Drift digest: 2 of 5 accounts changed outside adsctl since the last apply.\n');
    // who changed it, where the account history was read: the seeded user the test client signs as
    const by = byTheTestUser();
    const accountLines = digest.split('\n').filter((l) => l.startsWith('Account '));
    expect(accountLines).toHaveLength(2);
    expect(accountLines[0]).toContain(budget.account);
    expect(accountLines[0]).toMatch(new RegExp(`^Account .* on ${escape(emulator.info.base_url)}: 1 changed; daily spend unchanged(; changed ${by.source})?$`));
    expect(accountLines[1]).toContain(made.account);
    expect(accountLines[1]).toMatch(new RegExp(`^Account .* on ${escape(emulator.info.base_url)}: 1 appeared; daily spend \\+250\\.00 USD/day(; changed ${by.source})?$`));
    expect(digest).toMatch(new RegExp(`\n  ~ ${escape('campaigns.brand: daily_budget 10.00 USD -> 4.00 USD')}( ${by.source} at \\S+)?\n`));
    expect(digest).toMatch(new RegExp(`\n  \\+ ${escape(`campaign "Flash sale (by hand)" (id ${madeByHand}): ACTIVE, serving, daily budget 250.00 USD, not managed by adsctl`)}(, made ${by.source} at \\S+)?\n`));
    expect(digest).toContain('Daily spend moved outside adsctl: +250.00 USD/day.\n');
    for (const name of untouched()) expect(digest).not.toContain(name);
    // the JSON plan carries the same spend per account
    const json = JSON.parse((await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, format: 'json' }), 0)).stdout) as PlanJson;
    expect(json.accounts.filter((a) => a.spend.length > 0).map((a) => [a.key, a.spend.map((s) => `${s.daily} ${s.currency}`)])).toEqual([
      [key(BUDGET_CHANGED), ['-6.00 USD']],
      [key(CAMPAIGN_MADE), ['250.00 USD']],
    ]);
  });

  it('as Markdown, is one issue body naming the same two accounts, and exits 2', async () => {
    const run = await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, detailedExitcode: true, format: 'markdown' }), 2);
    const md = run.stdout;
    expect(md.startsWith('## adsctl drift report\n\n**2 of 5 accounts changed outside adsctl since the last apply.**\n')).toBe(true);
    const rows = md.split('\n').filter((l) => /^\| [a-z]+\.yaml /.test(l));
    // the "Changed by" column names the seeded user where the account history was read, else is empty
    const who = `( |\`(\\S+ \\()?user ${emulator.info.user_id}\\)?\`)`;
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(new RegExp(`^${escape(`| ${key(BUDGET_CHANGED)} (${emulator.info.base_url}) | 1 | 0 | 0 | unchanged |`)} ${who} \\|$`));
    expect(rows[1]).toMatch(new RegExp(`^${escape(`| ${key(CAMPAIGN_MADE)} (${emulator.info.base_url}) | 0 | 0 | 1 | +250.00 USD/day |`)} ${who} \\|$`));
    // the list of objects not managed by adsctl, after the digest
    expect(rows[2]).toMatch(new RegExp(`^${escape(`| ${key(CAMPAIGN_MADE)} (${emulator.info.base_url}) | campaign "Flash sale (by hand)" (id ${madeByHand}) | ACTIVE, serving | 250.00 USD | **new**`)}`));
    expect(md).toContain('| **Total** | 1 | 0 | 1 | +250.00 USD/day | |\n');
    const by = byTheTestUser().source;
    expect(md).toMatch(new RegExp(`\n! ${escape('campaigns.brand: daily_budget 10.00 USD -> 4.00 USD')}( ${by} at \\S+)?\n`));
    expect(md).toMatch(new RegExp(`\n\\+ ${escape(`campaign "Flash sale (by hand)" (id ${madeByHand}): ACTIVE, serving, daily budget 250.00 USD, not managed by adsctl`)}(, made ${by} at \\S+)?\n`));
    const sections = md.split('\n').filter((l) => l.startsWith('### Account '));
    expect(sections).toHaveLength(2);
    expect(sections[0]).toContain(ids.get(key(BUDGET_CHANGED))!.account);
    expect(sections[1]).toContain(ids.get(key(CAMPAIGN_MADE))!.account);
    for (const name of untouched()) expect(md).not.toContain(name);
  });

  it('after an apply nothing is drift, and plan reports no changes', async () => {
    await expectCode(ws.apply({ path: 'accounts' }), 0);
    const calm = await expectCode(ws.plan({ path: 'accounts', refreshOnly: true, detailedExitcode: true }), 0);
    expect(calm.stdout).not.toContain('Drift digest');
    expect((await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});
