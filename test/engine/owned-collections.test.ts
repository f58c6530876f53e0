/**
 * Owned collections show additions made by hand (issue: a targeting criterion POSTed by hand onto
 * a managed line item left `plan --detailed-exitcode` at exit 0, "No changes"). A line item's
 * targeting, promoted posts, promoted accounts and curated categories belong to the manifest as
 * a whole: an extra live member is drift, shown as such and planned for removal, unless
 * `ignore_changes` names the collection. Through the engine in-process against the in-process
 * emulator at a manual clock, moved a second on before each change by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { LAUNCH_CAMPAIGN, listAll, seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';

const ACCOUNT = '18ce54d4x5t';
const LI = 'campaigns.launch.line_items.us';

let emulator: RunningEmulator;
let client: TestClient;
const clock = manualClock();
let ws: EngineWorkspace;
let lineItemId: string;

const manifest = (endpoint: string, ignore = ''): string => `${seededAccountHead(endpoint)}campaigns:
${LAUNCH_CAMPAIGN}${ignore}        targeting:
          - { targeting_type: BROAD_KEYWORD, targeting_value: tents }
        promoted_posts: ["${SEED_POST_IDS[0]}"]
`;


const liveCriteria = async (): Promise<string[]> =>
  (await listAll(client, `/12/accounts/${ACCOUNT}/targeting_criteria`, { line_item_ids: lineItemId })).map((c) => `${c['targeting_type']}:${c['targeting_value']}`).sort();
const livePosts = async (): Promise<string[]> => (await listAll(client, `/12/accounts/${ACCOUNT}/promoted_tweets`, { line_item_ids: lineItemId })).map((p) => String(p['tweet_id'])).sort();

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe("a line item's targeting and promoted posts, changed by hand", () => {
  it('applies the manifest', async () => {
    await expectCode(ws.apply(), 0);
    lineItemId = ws.bindings(ACCOUNT).get(LI)!;
    expect(lineItemId).toBeDefined();
  });

  it('shows a criterion and a promotion added by hand as drift, planned for removal', async () => {
    clock.advance(1000);
    const added = await client.post(`/12/accounts/${ACCOUNT}/targeting_criteria`, { line_item_id: lineItemId, targeting_type: 'BROAD_KEYWORD', targeting_value: 'snow', operator_type: 'EQ' });
    expect(added.status).toBeLessThan(300);
    const promoted = await client.post(`/12/accounts/${ACCOUNT}/promoted_tweets`, { line_item_id: lineItemId, tweet_ids: SEED_POST_IDS[1]! });
    expect(promoted.status).toBeLessThan(300);
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain(`${LI}.targeting["BROAD_KEYWORD:snow"]`);
    expect(plan.stdout).toContain(`${LI}.promoted_posts["${SEED_POST_IDS[1]}"]`);
    expect(plan.stdout).toContain('added outside adsctl');
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 2 to destroy.');
    const json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 0)).stdout) as { resource_changes: Array<{ address: string; drift?: boolean; change: { actions: string[] } }> };
    const extra = json.resource_changes.find((c) => c.address === `${LI}.targeting["BROAD_KEYWORD:snow"]`);
    expect(extra).toMatchObject({ drift: true, change: { actions: ['delete'] } });
  });

  it('removes them on apply, then plans no changes', async () => {
    await expectCode(ws.apply(), 0);
    expect(await liveCriteria()).toEqual(['BROAD_KEYWORD:tents']);
    expect(await livePosts()).toEqual([SEED_POST_IDS[0]]);
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });

  it('leaves hand-made additions alone when ignore_changes names the collection', async () => {
    ws.write(manifest(emulator.info.base_url, '        lifecycle: { ignore_changes: [targeting] }\n'));
    clock.advance(1000);
    await client.post(`/12/accounts/${ACCOUNT}/targeting_criteria`, { line_item_id: lineItemId, targeting_type: 'BROAD_KEYWORD', targeting_value: 'ski', operator_type: 'EQ' });
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});
