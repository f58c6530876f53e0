/**
 * Who changed it (issue 22; docs/architecture.md, "Who changed it"): after an apply by the
 * account's owner, a second seeded user (adsctl_manager, logged in through the three-legged flow)
 * changes a budget, adds and deletes a targeting criterion, and makes a campaign by hand. The plan
 * attributes each to that user from the account history, in text, Markdown and JSON, with exactly
 * one history request per drifted object; with the history refused (the endpoint is allowlisted
 * on the real service) the plan says so once and succeeds. Through the engine in-process
 * (test/support/engine-harness.ts) against the in-process emulator, at a manual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace, type PlanArgs } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { loginAs } from '../support/login.js';
import { clearRefusals, refuse } from '../support/refusals.js';

const ACCOUNT = '18ce54d4x5t';
const OWNER = '756201191646691328';
const MANAGER = '756201191646691329';
const HISTORY = 'GET /12/accounts/:account_id/account_history';
const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`;

let emulator: RunningEmulator;
let owner: TestClient;
let manager: TestClient;
let ws: EngineWorkspace;
const clock = manualClock();
let ids: Map<string, string>;
let handMade: string;

const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
  launch:
    name: Launch
    funding_instrument: main
    daily_budget: "9.00"
    entity_status: PAUSED
    line_items:
      us:
        name: US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2026-12-01T00:00:00Z
        entity_status: PAUSED
        targeting:
          - { targeting_type: BROAD_KEYWORD, targeting_value: tents }
          - { targeting_type: BROAD_KEYWORD, targeting_value: stoves }
`;


interface Attribution {
  user_id: string | null;
  platform: string;
  change_time: string;
  change_type: string;
  fields?: string[];
}
interface PlanJson {
  resource_changes: Array<{ address: string; reason: string | null; drift: boolean; attribution?: Attribution[] }>;
  unmanaged?: Array<{ id: string; drift: boolean; attribution?: Attribution[] }>;
  diagnostics: Array<{ severity: string; code: string; message: string }>;
}

const planJson = async (args: PlanArgs = {}): Promise<PlanJson> => JSON.parse((await expectCode(ws.plan({ ...args, format: 'json' }), 0)).stdout) as PlanJson;
const historyRequests = (): number => emulator.stats.byRoute[HISTORY] ?? 0;

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

describe('drift attributed to the user who made it', () => {
  it('applies as the owner; a plan with nothing drifted reads no history', async () => {
    await expectCode(ws.apply(), 0);
    ids = ws.bindings(ACCOUNT);
    const before = historyRequests();
    await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(historyRequests()).toBe(before);
    // the owner's own writes are in the history: none of them may be taken for drift, so the hand
    // changes below come in a later second than the apply's last write
    clock.advance(1100);
  });

  it('names the second user in the text of a refresh-only plan', async () => {
    const campaign = ids.get('campaigns.launch')!;
    const lineItem = ids.get('campaigns.launch.line_items.us')!;
    const stoves = ids.get('campaigns.launch.line_items.us.targeting["BROAD_KEYWORD:stoves"]')!;
    expect([campaign, lineItem, stoves]).not.toContain(undefined);
    const put = await manager.put(`/12/accounts/${ACCOUNT}/campaigns/${campaign}`, { daily_budget_amount_local_micro: 5_000_000 });
    expect(put.status, put.text).toBe(200);
    const added = await manager.post(`/12/accounts/${ACCOUNT}/targeting_criteria`, { line_item_id: lineItem, targeting_type: 'BROAD_KEYWORD', targeting_value: 'lanterns' });
    expect(added.status, added.text).toBe(201);
    const removed = await manager.delete(`/12/accounts/${ACCOUNT}/targeting_criteria/${stoves}`);
    expect(removed.status, removed.text).toBe(200);
    const made = await manager.post(`/12/accounts/${ACCOUNT}/campaigns`, { name: 'By hand', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 20_000_000, entity_status: 'PAUSED' });
    expect(made.status, made.text).toBeLessThan(300);
    handMade = String((made.body as { data: { id: string } }).data.id);

    const text = (await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2)).stdout;
    expect(text).toMatch(new RegExp(String.raw`~ daily_budget += 9\.00 USD -> 5\.00 USD \(changed outside adsctl by user ${MANAGER} at ${TIME}\)`));
    expect(text).toMatch(new RegExp(String.raw`# \(added outside adsctl by user ${MANAGER} at ${TIME}\)`));
    expect(text).toMatch(new RegExp(String.raw`# \(deleted outside adsctl by user ${MANAGER} at ${TIME}\)`));
    expect(text).toMatch(new RegExp(String.raw`campaign "By hand" \(id ${handMade}\): PAUSED, daily budget 20\.00 USD, new since the last apply \(made outside adsctl by user ${MANAGER} at ${TIME}\)`));
    expect(text).not.toContain(`by user ${OWNER}`);
    // the plan that would put it back says who changed what it undoes
    const plan = (await expectCode(ws.plan(), 0)).stdout;
    expect(plan).toMatch(new RegExp(String.raw`~ daily_budget += 5\.00 USD -> 9\.00 USD \(changed outside adsctl by user ${MANAGER} at ${TIME}\)`));
    expect(plan).toMatch(new RegExp(String.raw`\(because it was added outside adsctl by user ${MANAGER} at ${TIME}, and the manifest owns the collection\)`));
    expect(plan).toMatch(new RegExp(String.raw`\(because it was deleted outside adsctl by user ${MANAGER} at ${TIME}\)`));
  });

  it('carries the attribution in the JSON plan, one history request per drifted object', async () => {
    const before = historyRequests();
    const doc = await planJson();
    // four drifted objects: the campaign, the criterion added, the criterion deleted, the campaign made by hand
    expect(historyRequests() - before).toBe(4);
    const byAddress = new Map(doc.resource_changes.map((c) => [c.address, c]));
    const campaign = byAddress.get('campaigns.launch')!;
    expect(campaign.attribution).toEqual([{ user_id: MANAGER, platform: 'API', change_time: expect.stringMatching(new RegExp(`^${TIME}$`)), change_type: 'UPDATE', fields: expect.arrayContaining(['daily_budget_amount_local_micro']) }]);
    const added = doc.resource_changes.find((c) => c.reason === 'added_outside')!;
    expect(added.attribution?.map((a) => [a.user_id, a.change_type])).toEqual([[MANAGER, 'CREATE']]);
    const deleted = byAddress.get('campaigns.launch.line_items.us.targeting["BROAD_KEYWORD:stoves"]')!;
    expect(deleted.reason).toBe('deleted_outside');
    expect(deleted.attribution?.map((a) => [a.user_id, a.change_type])).toEqual([[MANAGER, 'DELETE']]);
    // what did not drift carries none
    expect(byAddress.get('campaigns.launch.line_items.us')?.attribution).toBeUndefined();
    const unmanaged = doc.unmanaged?.find((u) => u.id === handMade);
    expect(unmanaged?.attribution?.map((a) => [a.user_id, a.platform, a.change_type])).toEqual([[MANAGER, 'API', 'CREATE']]);
    expect(doc.diagnostics.filter((d) => d.code === 'history-unreadable')).toEqual([]);
  });

  it('says who in the Markdown plan', async () => {
    const md = (await expectCode(ws.plan({ format: 'markdown' }), 0)).stdout;
    expect(md).toContain('### Objects changed outside adsctl');
    expect(md).toMatch(new RegExp(String.raw`daily_budget += 9\.00 USD -> 5\.00 USD \(changed outside adsctl by user ${MANAGER} at ${TIME}\)`));
    expect(md).toMatch(new RegExp(String.raw`\*\*new\*\* \(made outside adsctl by user ${MANAGER} at ${TIME}\)`));
  });

  it('with the history refused, notes it once and plans all the same', async () => {
    await refuse(emulator.info, { method: 'GET', path: '/account_history$', status: 403, code: 'UNAUTHORIZED_ACCESS', message: 'This endpoint requires the account to be allowlisted' });
    const before = historyRequests();
    const doc = await planJson();
    // the first refusal stops the reading: one request, not one per object
    expect(historyRequests() - before).toBe(1);
    const notes = doc.diagnostics.filter((d) => d.code === 'history-unreadable');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ severity: 'warning' });
    expect(notes[0]!.message).toContain(`account ${ACCOUNT}`);
    expect(notes[0]!.message).toContain('403');
    expect(doc.resource_changes.filter((c) => c.attribution !== undefined)).toEqual([]);
    expect(doc.resource_changes.find((c) => c.address === 'campaigns.launch')?.drift).toBe(true);

    const text = (await expectCode(ws.plan({ refreshOnly: true, detailedExitcode: true }), 2)).stdout;
    expect(text).toContain('could not be read');
    expect(text.match(/history-unreadable/g)).toHaveLength(1);
    expect(text).not.toContain('by user');
    const md = (await expectCode(ws.plan({ format: 'markdown' }), 0)).stdout;
    expect(md).toContain('history-unreadable');
    expect(md).toContain('(changed outside adsctl)');
    await clearRefusals(emulator.info);
  });

  it('applies, after which the plan has nothing to change and reads no history', async () => {
    await expectCode(ws.apply(), 0);
    const live = await listAll(owner, `/12/accounts/${ACCOUNT}/targeting_criteria`, { line_item_ids: ids.get('campaigns.launch.line_items.us')! });
    expect(live.map((c) => c['targeting_value']).sort()).toEqual(['stoves', 'tents']);
    const before = historyRequests();
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(plan.stdout).toContain('No changes.');
    expect(historyRequests()).toBe(before);
  });
});
