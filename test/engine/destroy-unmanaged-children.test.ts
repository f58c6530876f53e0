/**
 * A destroy plan names the objects adsctl does not manage under what it deletes: a line item made
 * by hand in a managed campaign, in text, Markdown and JSON (`unmanaged_children`, format 2.8),
 * with what deleting the campaign does to it. The spec describes no cascade (deleting a campaign
 * deletes the campaign), so it stays — and after the destroy it is still on the service, under a
 * deleted campaign no plan reads; until now it vanished from every report unnamed. An account with
 * `unmanaged: ignore` is not read for them. Through the engine in-process against the in-process
 * emulator at a manual clock, the line item made by hand a second after the apply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { lineItemByHand, madeByHand } from '../support/by-hand.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { LAUNCH_CAMPAIGN, seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
const clock = manualClock();
let ws: EngineWorkspace;
let campaignId: string;
let handMade: string;

const manifest = (endpoint: string, option = ''): string => `${seededAccountHead(endpoint)}${option}campaigns:
${LAUNCH_CAMPAIGN}`;


interface Child {
  type: string;
  id: string;
  name: string | null;
  entity_status: string | null;
  parent_id: string | null;
  daily_budget_amount_local_micro: number | null;
  account: string;
  parent_address: string;
  currency: string;
  serving: boolean;
  with_parent: string;
}

const STAYS = "stays when campaigns.launch is deleted (the service does not delete a campaign's line items with it)";

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('a destroy of a campaign with a line item made by hand', () => {
  it('applies the manifest, then a line item is made by hand in its campaign', async () => {
    await expectCode(ws.apply(), 0);
    campaignId = ws.bindings(ACCOUNT).get('campaigns.launch')!;
    clock.advance(1000);
    handMade = await madeByHand(client, ACCOUNT, 'line_items', lineItemByHand(campaignId, 'Extra', { daily_budget_amount_local_micro: 12_340_000, entity_status: 'ACTIVE' }));
  });

  it('names it in the text of plan --destroy, with what deleting the campaign does to it', async () => {
    const plan = await expectCode(ws.plan({ destroy: true }), 0);
    expect(plan.stdout).toContain('Not managed by adsctl, under what this plan deletes');
    expect(plan.stdout).toContain(`  line item "Extra" (id ${handMade}) in campaigns.launch: ACTIVE, dormant, daily budget 12.34 USD; ${STAYS}`);
    expect(plan.stdout).toContain('to have it deleted as well, delete it first, or adopt it into the manifest');
    expect(plan.stdout).toContain('campaigns.launch will be destroyed');
  });

  it('names it in the Markdown and in the JSON (unmanaged_children, format 2.8)', async () => {
    const markdown = await expectCode(ws.plan({ destroy: true, format: 'markdown' }), 0);
    expect(markdown.stdout).toContain('### Not managed by adsctl, under what this plan deletes');
    expect(markdown.stdout).toContain(`line item "Extra" (id ${handMade}) in campaigns.launch`);
    expect(markdown.stdout).toContain("stays when campaigns.launch is deleted (the service does not delete a campaign's line items with it)");
    const json = JSON.parse((await expectCode(ws.plan({ destroy: true, format: 'json' }), 0)).stdout) as { format_version: string; mode: string; unmanaged?: unknown; unmanaged_children?: Child[] };
    expect(json.format_version).toBe('2.8');
    expect(json.mode).toBe('destroy');
    expect(json.unmanaged).toBeUndefined();
    expect(json.unmanaged_children).toEqual([
      {
        type: 'line_item',
        id: handMade,
        name: 'Extra',
        entity_status: 'ACTIVE',
        parent_id: campaignId,
        daily_budget_amount_local_micro: 12_340_000,
        account: ACCOUNT,
        parent_address: 'campaigns.launch',
        currency: 'USD',
        serving: false,
        with_parent: 'stays',
      },
    ]);
  });

  it('is not read for an account that opts out with unmanaged: ignore', async () => {
    ws.write(manifest(emulator.info.base_url, 'unmanaged: ignore\n'));
    try {
      const plan = await expectCode(ws.plan({ destroy: true }), 0);
      expect(plan.stdout).not.toContain('under what this plan deletes');
    } finally {
      ws.write(manifest(emulator.info.base_url));
    }
  });

  it('destroys what adsctl manages, says so again, and the line item stays on the service as said', async () => {
    const destroy = await expectCode(ws.destroy(), 0);
    expect(destroy.stdout).toContain(STAYS);
    const campaign = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${campaignId}`, { with_deleted: true });
    expect((campaign.body as { data: { deleted: boolean } }).data.deleted).toBe(true);
    const line = await client.get(`/12/accounts/${ACCOUNT}/line_items/${handMade}`, { with_deleted: true });
    expect(line.status).toBe(200);
    expect((line.body as { data: { deleted: boolean; campaign_id: string } }).data).toMatchObject({ deleted: false, campaign_id: campaignId });
  });

  it('leaves nothing to destroy', async () => {
    const again = await expectCode(ws.plan({ destroy: true, detailedExitcode: true }), 0);
    expect(again.stdout).not.toContain('under what this plan deletes');
  });
});
