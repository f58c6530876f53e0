/**
 * Issue 18, imports adopt children: importing a campaign by id bound only the campaign, so the
 * plan wanted to create line items, criteria and promotions that existed live, and to destroy a
 * live CUSTOM_AUDIENCE criterion as "added outside adsctl" beside a create of the same one; apply
 * then failed half-way. Now an import binds the live children the manifest declares under the
 * imported object, matched by identity, through a manifest `import:` entry (the plan shows them
 * imported, apply writes nothing to the service and records them) and through `adsctl import`
 * (which writes their bindings to state). Either way the next plan has no changes. Through the
 * engine in-process (test/support/engine-harness.ts) against the in-process emulator.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { filledAudience } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { importInto } from '../support/engine-adoption.js';
import { manualClock } from '../support/manual-clock.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';

const ACCOUNT = '18ce54d4x5t';
const A = `/12/accounts/${ACCOUNT}`;
const US = '96683cc9126741d1';
const CA = '02762cca644f3e76';
const CAMPAIGN = 'campaigns.adopted';
const LI_US = `${CAMPAIGN}.line_items.us`;
const LI_CA = `${CAMPAIGN}.line_items.ca`;

let emulator: RunningEmulator;
let client: TestClient;
let fromEntries: EngineWorkspace;
let fromCommand: EngineWorkspace;
const clock = manualClock();
let campaignId: string;
let audienceId: string;
/** Address → live id of everything made by hand, as the manifest addresses it. */
const made = new Map<string, string>();

/**
 * The manifest declaring all that was made by hand: the US line item targets the audience by its
 * logical name, the Canadian one by its id. `imports` are the manifest's `import:` entries.
 */
const manifest = (imports: string): string => `${seededAccountHead(emulator.info.base_url)}${imports}custom_audiences:
  buyers: { name: Past buyers }
campaigns:
  adopted:
    name: Adopted
    funding_instrument: main
    daily_budget: "10.00"
    line_items:
      us:
        name: US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        start_time: 2030-01-01T00:00:00Z
        targeting:
          - { targeting_type: LOCATION, targeting_value: ${US} }
          - { targeting_type: BROAD_KEYWORD, targeting_value: tents }
          - { targeting_type: CUSTOM_AUDIENCE, custom_audience: buyers }
        promoted_posts: ["${SEED_POST_IDS[0]}", "${SEED_POST_IDS[1]}"]
      ca:
        name: Canada
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        start_time: 2030-01-01T00:00:00Z
        targeting:
          - { targeting_type: LOCATION, targeting_value: ${CA} }
          - { targeting_type: BROAD_KEYWORD, targeting_value: snow }
          - { targeting_type: CUSTOM_AUDIENCE, targeting_value: "${audienceId}" }
        promoted_posts: ["${SEED_POST_IDS[2]}"]
`;

/** Write requests the emulator has served so far (its own controls aside). */
async function writes(): Promise<number> {
  const res = await request(`${emulator.info.base_url}/_emulator/stats`);
  const stats = (await res.body.json()) as { byMethod: Record<string, number> };
  return ['POST', 'PUT', 'DELETE'].reduce((n, method) => n + (stats.byMethod[method] ?? 0), 0);
}

async function post(path: string, params: Record<string, string>): Promise<string> {
  const reply = await client.post(`${A}/${path}`, params);
  if (reply.status >= 300) throw new Error(`POST ${path} answered ${reply.status}: ${reply.text}`);
  const data = reply.body.data as Record<string, unknown> | Array<Record<string, unknown>>;
  return String((Array.isArray(data) ? data[0] : data)?.['id']);
}

/** A live ACTIVE line item under the campaign with a location, a keyword, the audience and promoted posts. */
async function lineItem(address: string, name: string, location: string, keyword: string, posts: readonly string[], audienceKey: string): Promise<void> {
  const li = await createLineItem(client, ACCOUNT, campaignId, { name, entity_status: 'ACTIVE' });
  const id = String(li.id);
  made.set(address, id);
  const criterion = (type: string, value: string): Promise<string> => post('targeting_criteria', { line_item_id: id, targeting_type: type, targeting_value: value, operator_type: 'EQ' });
  made.set(`${address}.targeting["LOCATION:${location}"]`, await criterion('LOCATION', location));
  made.set(`${address}.targeting["BROAD_KEYWORD:${keyword}"]`, await criterion('BROAD_KEYWORD', keyword));
  made.set(`${address}.targeting["CUSTOM_AUDIENCE:${audienceKey}"]`, await criterion('CUSTOM_AUDIENCE', audienceId));
  for (const tweetId of posts) made.set(`${address}.promoted_posts["${tweetId}"]`, await post('promoted_tweets', { line_item_id: id, tweet_ids: tweetId }));
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  audienceId = String((await filledAudience(client, ACCOUNT, 150, 'Past buyers')).id);
  campaignId = String((await createCampaign(client, ACCOUNT, { name: 'Adopted', daily_budget_amount_local_micro: 10_000_000, entity_status: 'ACTIVE' })).id);
  made.set(CAMPAIGN, campaignId);
  await lineItem(LI_US, 'US', US, 'tents', [SEED_POST_IDS[0]!, SEED_POST_IDS[1]!], 'custom_audiences.buyers');
  await lineItem(LI_CA, 'Canada', CA, 'snow', [SEED_POST_IDS[2]!], audienceId);
  fromEntries = createEngineWorkspace(emulator.info, manifest(`import:\n  - { to: ${CAMPAIGN}, id: "${campaignId}" }\n  - { to: custom_audiences.buyers, id: "${audienceId}" }\n`), clock);
  fromCommand = createEngineWorkspace(emulator.info, manifest(''), clock);
});
afterAll(async () => {
  await emulator.close();
  fromEntries?.remove();
  fromCommand?.remove();
});
stepsInOrder();

describe('a manifest import: entry of a campaign whose line items, criteria and promotions exist live', () => {
  const ws = (): EngineWorkspace => fromEntries;

  it('plans nothing to add, change or destroy: every declared child is bound to its live object', async () => {
    // imports pending are changes to apply, as in Terraform: --detailed-exitcode says 2
    const plan = await expectCode(ws().plan({ detailedExitcode: true }), 2);
    // the imports pending are counted, every declared object among them
    expect(plan.stdout).toContain(`Plan: ${made.size + 1} to import, 0 to add, 0 to change, 0 to destroy.`);
    expect(plan.stdout).not.toMatch(/will be (created|destroyed|updated|replaced)/);
    const json = JSON.parse((await expectCode(ws().plan({ format: 'json' }), 0)).stdout) as { resource_changes: Array<{ address: string; id: string | null; change: { actions: string[] } }> };
    for (const [address, id] of made) expect(json.resource_changes.find((c) => c.address === address), address).toMatchObject({ id, change: { actions: ['no-op'] } });
  });

  it('applies without a single write to the service, recording every binding', async () => {
    const before = await writes();
    await expectCode(ws().apply(), 0);
    expect(await writes()).toBe(before);
    const bound = ws().bindings(ACCOUNT);
    for (const [address, id] of made) expect(bound.get(address), address).toBe(id);
  });

  it('then plans no changes', async () => {
    expect((await expectCode(ws().plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});

describe('adsctl import of the campaign', () => {
  const ws = (): EngineWorkspace => fromCommand;

  it('binds the campaign and the children the manifest declares under it, at every depth', async () => {
    await expectCode(importInto(ws(), 'custom_audiences.buyers', audienceId), 0);
    const before = await writes();
    const run = await expectCode(importInto(ws(), CAMPAIGN, campaignId), 0);
    expect(run.stdout).toContain(`Import successful! ${CAMPAIGN} is bound to ${campaignId}.`);
    expect(run.stdout).toContain(`It adopts the ${made.size - 1} children the manifest declares under it that exist live, matched by identity:`);
    expect(run.stdout).toContain(`  ${LI_CA}.targeting["CUSTOM_AUDIENCE:${audienceId}"] is bound to ${made.get(`${LI_CA}.targeting["CUSTOM_AUDIENCE:${audienceId}"]`)}.`);
    expect(await writes()).toBe(before);
    const bound = ws().bindings(ACCOUNT);
    for (const [address, id] of made) expect(bound.get(address), address).toBe(id);
  });

  it('leaves a plan with no changes, and an apply that writes nothing', async () => {
    expect((await expectCode(ws().plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
    const before = await writes();
    await expectCode(ws().apply(), 0);
    expect(await writes()).toBe(before);
  });
});
