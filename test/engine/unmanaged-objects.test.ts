/**
 * Spend adsctl does not manage is reported (issue 21: a hand-made ACTIVE $500/day campaign, or a
 * line item added by hand inside a managed campaign, left `plan --refresh-only
 * --detailed-exitcode` at exit 0). Plan lists them under `Not managed by adsctl` in text,
 * Markdown and JSON; those that appeared since the last apply are drift (exit 2); an apply records
 * them as seen, after which they are listed but no longer drift; `unmanaged: ignore` silences it.
 * Only what serves counts as their spend (issue 30): an ACTIVE line item under a paused campaign,
 * or an ACTIVE campaign without a serving line item, is dormant. Through the engine in-process
 * (test/support/engine-harness.ts) against the in-process emulator; the manifest is checked with
 * `adsctl validate`, the CLI's own command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { lineItemByHand, madeByHand } from '../support/by-hand.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { LAUNCH_CAMPAIGN, seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace, type PlanArgs } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';

const ACCOUNT = '18ce54d4x5t';
/** The seeded owner, who makes the objects by hand here (and applies). */
const OWNER = '756201191646691328';
const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`;

let emulator: RunningEmulator;
let client: TestClient;
let ws: EngineWorkspace;
const clock = manualClock();
let campaignId: string;
const made: Record<string, string> = {};

const manifest = (endpoint: string, option = ''): string => `${seededAccountHead(endpoint)}${option}campaigns:
${LAUNCH_CAMPAIGN}`;


interface Unmanaged {
  type: string;
  id: string;
  name: string | null;
  entity_status: string | null;
  parent_id: string | null;
  daily_budget_amount_local_micro: number | null;
  parent_address: string | null;
  currency: string;
  drift: boolean;
}

const unmanagedOf = async (args: PlanArgs = {}): Promise<Unmanaged[]> => (JSON.parse((await expectCode(ws.plan({ ...args, format: 'json' }), 0)).stdout) as { unmanaged?: Unmanaged[] }).unmanaged ?? [];

/** Makes an ACTIVE campaign by hand through the API; returns its id. */
const handMadeCampaign = (name: string, dailyMicros: number): Promise<string> =>
  madeByHand(client, ACCOUNT, 'campaigns', { name, funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: dailyMicros, entity_status: 'ACTIVE' });

/** Makes a line item by hand in `campaign` through the API; returns its id. */
const handMadeLineItem = (campaign: string, name: string, status: 'ACTIVE' | 'PAUSED', dailyMicros: number): Promise<string> =>
  madeByHand(client, ACCOUNT, 'line_items', lineItemByHand(campaign, name, { daily_budget_amount_local_micro: dailyMicros, entity_status: status }));

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('objects made by hand in a managed account', () => {
  it('applies the manifest; nothing is unmanaged', async () => {
    await expectCode(ws.apply(), 0);
    campaignId = ws.bindings(ACCOUNT).get('campaigns.launch')!;
    expect(campaignId).toBeDefined();
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    expect(refresh.stdout).not.toContain('Not managed by adsctl');
    expect(await unmanagedOf()).toEqual([]);
  });

  it('names a hand-made campaign and a hand-made line item in text, and exits 2 under --refresh-only --detailed-exitcode', async () => {
    // a second after the apply: what changed since it is counted from the whole second after its write
    clock.advance(1000);
    made['campaign'] = await handMadeCampaign('Black Friday (by hand)', 500_000_000);
    // it serves through a line item of its own, which comes with it
    await handMadeLineItem(made['campaign'], 'Black Friday US', 'ACTIVE', 100_000_000);
    // ACTIVE, but in the PAUSED managed campaign: dormant
    made['line_item'] = await handMadeLineItem(campaignId, 'Extra', 'ACTIVE', 12_340_000);
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2);
    expect(refresh.stdout).toContain('Not managed by adsctl');
    expect(refresh.stdout).toContain(`campaign "Black Friday (by hand)" (id ${made['campaign']}): ACTIVE, serving, daily budget 500.00 USD, new since the last apply`);
    expect(refresh.stdout).toContain(`line item "Extra" (id ${made['line_item']}) in campaigns.launch: ACTIVE, dormant, daily budget 12.34 USD, new since the last apply`);
    expect(refresh.stdout).not.toContain('Black Friday US');
    expect(refresh.stdout).toContain('`adsctl generate` or `adsctl import`, or delete them');
    // nothing to write: a plain plan lists them but has no changes
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(plan.stdout).toContain('Not managed by adsctl');
    expect(plan.stdout).toContain('No changes.');
  });

  it('lists them in the Markdown plan with the spend of those that serve', async () => {
    const md = (await expectCode(ws.plan({ format: 'markdown' }), 0)).stdout;
    expect(md).toContain('### Not managed by adsctl');
    // who made them, from the account history (docs/architecture.md, "Who changed it")
    expect(md).toMatch(new RegExp(String.raw`campaign "Black Friday \(by hand\)" \(id ${made['campaign']}\) \| ACTIVE, serving \| 500\.00 USD \| \*\*new\*\* \(made outside adsctl by user ${OWNER} at ${TIME}\) \|`));
    expect(md).toMatch(new RegExp(String.raw`line item "Extra" \(id ${made['line_item']}\) in campaigns\.launch \| ACTIVE, dormant \| 12\.34 USD \| \*\*new\*\* \(made outside adsctl by user ${OWNER} at ${TIME}\) \|`));
    // the dormant line item's 12.34 is not spend
    expect(md).toContain('Spend not managed by adsctl (daily budgets of the ones that serve): 500.00 USD/day.');
    const refreshMd = (await expectCode(ws.plan({ refreshOnly: true, format: 'markdown', detailedExitcode: true }), 2)).stdout;
    expect(refreshMd).toContain('### Not managed by adsctl');
  });

  it('lists them in the JSON plan', async () => {
    const madeBy = [{ user_id: OWNER, platform: 'API', change_time: expect.stringMatching(new RegExp(`^${TIME}$`)), change_type: 'CREATE' }];
    expect(await unmanagedOf()).toEqual([
      { type: 'campaign', id: made['campaign'], name: 'Black Friday (by hand)', entity_status: 'ACTIVE', parent_id: null, daily_budget_amount_local_micro: 500_000_000, account: ACCOUNT, parent_address: null, currency: 'USD', drift: true, serving: true, attribution: madeBy },
      { type: 'line_item', id: made['line_item'], name: 'Extra', entity_status: 'ACTIVE', parent_id: campaignId, daily_budget_amount_local_micro: 12_340_000, account: ACCOUNT, parent_address: 'campaigns.launch', currency: 'USD', drift: true, serving: false, attribution: madeBy },
    ]);
    expect((await unmanagedOf({ refreshOnly: true })).map((u) => u.id)).toEqual([made['campaign'], made['line_item']]);
  });

  it('after an apply lists them still, but they are no longer drift', async () => {
    await expectCode(ws.apply(), 0);
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    expect(refresh.stdout).toContain('No changes. Nothing changed outside adsctl since the last apply.');
    expect(refresh.stdout).toContain(`campaign "Black Friday (by hand)" (id ${made['campaign']}): ACTIVE, serving, daily budget 500.00 USD`);
    expect(refresh.stdout).not.toContain(', new since the last apply');
    expect(refresh.stdout).toContain('None of these is new since the last apply.');
    expect((await unmanagedOf()).map((u) => u.drift)).toEqual([false, false]);
  });

  it('a campaign made by hand after that apply is drift again, the others are not', async () => {
    clock.advance(1000);
    made['second'] = await handMadeCampaign('Cyber Monday', 25_500_000);
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2);
    // ACTIVE without a line item: it cannot spend
    expect(refresh.stdout).toContain(`campaign "Cyber Monday" (id ${made['second']}): ACTIVE, dormant, daily budget 25.50 USD, new since the last apply`);
    expect(refresh.stdout).toContain('1 of these appeared since the last apply');
    const listed = await unmanagedOf();
    expect(listed.filter((u) => u.drift).map((u) => u.id)).toEqual([made['second']]);
  });

  it('unmanaged: ignore silences the report', async () => {
    ws.write(manifest(emulator.info.base_url, 'unmanaged: ignore\n'));
    const refresh = await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    expect(refresh.stdout).not.toContain('Not managed by adsctl');
    expect(await unmanagedOf()).toEqual([]);
    expect((await ws.cli(['validate'])).code).toBe(0);
  });

  it('reports again without it, and plans no changes after an apply', async () => {
    ws.write(manifest(emulator.info.base_url));
    await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2);
    await expectCode(ws.apply(), 0);
    await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 0);
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});
