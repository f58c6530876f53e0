/**
 * The full lifecycle of issue 5 through the engine in-process (test/support/engine-harness.ts)
 * against the in-process emulator, steps in order: plan → apply → no changes → a change by hand
 * shows as drift and apply reverts it → a key renamed with `state mv` → manifest edits (a `name`
 * in place, a line item removed) → saved plans (a budget edit applied from one, a stale one
 * refused, the change made by hand meanwhile planned as drift) → an apply that converges →
 * import → destroy. Each step starts from the state the previous one left; each `it` that applies
 * ends converged, shown by a plan with the detailed exit code 0 and "No changes.". The run's clock
 * is a manual one, moved by the test where a step needs time to pass. What only the command line
 * shows — `validate`, the apply refused without a terminal, `state list` as the state file, the
 * state lock held by another process — is test/e2e/lifecycle.test.ts; `state mv` is the CLI's own
 * command and runs as one here.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { importInto } from '../support/engine-adoption.js';
import { manualClock } from '../support/manual-clock.js';
import { ACCOUNT, handmadeCampaign, INITIAL, manifest, POSTS, type Shape } from '../support/lifecycle-manifest.js';

const planSchema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validatePlanJson = new Ajv2020({ allErrors: true, strict: true }).compile(planSchema);

let emulator: RunningEmulator;
let client: TestClient;
let ws: EngineWorkspace;
const clock = manualClock();
let shape: Shape = INITIAL;
/** Campaign ids adsctl created (or adopted), for the check after destroy. */
const managedCampaigns = new Set<string>();

const setShape = (next: Partial<Shape>): void => {
  shape = { ...shape, ...next };
  ws.write(manifest(emulator.info.base_url, shape));
};

/** The bindings of the workspace's state file, address → id (none before the first apply). */
const state = (): Map<string, string> => ws.bindings(ACCOUNT);

async function expectNoChanges(): Promise<void> {
  const run = await expectCode(ws.plan({ detailedExitcode: true }), 0);
  expect(run.stdout).toContain('No changes.');
}

async function campaign(id: string): Promise<Record<string, any>> {
  const reply = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`, { with_deleted: true });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
}

async function lineItem(id: string): Promise<Record<string, any>> {
  const reply = await client.get(`/12/accounts/${ACCOUNT}/line_items/${id}`, { with_deleted: true });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
}

async function liveCampaignNames(): Promise<string[]> {
  return (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true })).map((c) => String(c['name'])).sort();
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url, INITIAL), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('the lifecycle of a manifest, through the engine', () => {
  it('plans the creates (exit 2), and refuses to apply when the confirmation gets no answer', async () => {
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain('# campaigns.spring will be created');
    expect(plan.stdout).toContain('# campaigns.spring.line_items.us.promoted_posts["1346184843436720128"] will be created');
    expect(plan.stdout).toContain('Plan: 12 to add, 0 to change, 0 to destroy.');

    const refused = await expectCode(ws.apply({ answer: null }), 1);
    expect(refused.stderr).toContain('--auto-approve');
    expect(refused.stdout).not.toContain('Apply complete!');
    expect(await liveCampaignNames()).toEqual([]);
    expect([...state().keys()].filter((a) => a.startsWith('campaigns.'))).toEqual([]);
  });

  it('prints the plan as JSON valid against schemas/plan.schema.json and as Markdown with a summary', async () => {
    const json = await expectCode(ws.plan({ format: 'json' }), 0);
    const doc = JSON.parse(json.stdout) as { resource_changes: Array<{ address: string; change: { actions: string[] } }>; accounts: Array<{ summary: Record<string, number> }> };
    expect(validatePlanJson(doc), JSON.stringify(validatePlanJson.errors, null, 2)).toBe(true);
    expect(doc.accounts[0]?.summary).toMatchObject({ add: 12, change: 0, destroy: 0 });
    expect(doc.resource_changes.find((c) => c.address === 'campaigns.autumn.line_items.eu')?.change.actions).toEqual(['create']);

    const markdown = await expectCode(ws.plan({ format: 'markdown' }), 0);
    expect(markdown.stdout).toContain('**Plan: 12 to add, 0 to change, 0 to destroy.**');
    expect(markdown.stdout).toMatch(/\| Account \| Add \| Change \| Destroy \|/);
    expect(markdown.stdout).toContain('<details>');
  });

  it('applies with --auto-approve, creating every object once, then plans no changes', async () => {
    const apply = await expectCode(ws.apply(), 0);
    expect(apply.stdout).toContain('Apply complete! Resources: 12 added, 0 changed, 0 destroyed.');

    // that the state file is what `state list` prints is test/e2e/lifecycle.test.ts
    const bound = state();
    expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).length).toBeGreaterThanOrEqual(12);
    for (const address of ['campaigns.spring', 'campaigns.autumn']) managedCampaigns.add(bound.get(address)!);
    expect(await liveCampaignNames()).toEqual(['E2E Autumn 2027', 'E2E Spring 2027']);
    const us = await lineItem(bound.get('campaigns.spring.line_items.us')!);
    expect(us).toMatchObject({ name: 'E2E United States', campaign_id: bound.get('campaigns.spring'), bid_amount_local_micro: 1_500_000 });
    const posts = await listAll(client, `/12/accounts/${ACCOUNT}/promoted_tweets`, { line_item_ids: [us['id']] });
    expect(posts.map((p) => p['tweet_id']).sort()).toEqual([POSTS[0], POSTS[1]]);
    await expectNoChanges();
  });

  it('shows changes made by hand as drift (exit 2), and apply puts the manifest back', async () => {
    const bound = state();
    const springId = bound.get('campaigns.spring')!;
    const usId = bound.get('campaigns.spring.line_items.us')!;
    const paused = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${springId}`, { entity_status: 'ACTIVE' }, { as: 'form' });
    expect(paused.status, paused.text).toBe(200);
    const bid = await client.put(`/12/accounts/${ACCOUNT}/line_items/${usId}`, { bid_amount_local_micro: 2_750_000 }, { as: 'form' });
    expect(bid.status, bid.text).toBe(200);

    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toMatch(/entity_status += "ACTIVE" -> "PAUSED" \(changed outside adsctl(?: by user \d+ at [\d:TZ-]+)?\)/);
    expect(plan.stdout).toMatch(/bid_amount += 2\.75 USD -> 1\.50 USD \(changed outside adsctl(?: by user \d+ at [\d:TZ-]+)?\)/);
    expect(plan.stdout).toContain('Plan: 0 to add, 2 to change, 0 to destroy.');
    const json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 0)).stdout) as { resource_changes: Array<{ address: string; drift: boolean }> };
    expect(validatePlanJson(json), JSON.stringify(validatePlanJson.errors, null, 2)).toBe(true);
    expect(json.resource_changes.filter((c) => c.drift).map((c) => c.address).sort()).toEqual(['campaigns.spring', 'campaigns.spring.line_items.us']);

    const apply = await expectCode(ws.apply(), 0);
    expect(apply.stdout).toContain('Resources: 0 added, 2 changed, 0 destroyed.');
    expect((await campaign(springId))['entity_status']).toBe('PAUSED');
    expect((await lineItem(usId))['bid_amount_local_micro']).toBe(1_500_000);
    await expectNoChanges();
  });

  it('renames a logical key with state mv, after which the plan shows no changes', async () => {
    const before = state();
    const autumnId = before.get('campaigns.autumn')!;
    const euId = before.get('campaigns.autumn.line_items.eu')!;
    setShape({ autumnKey: 'fall' });
    const unmoved = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(unmoved.stdout).toContain('# campaigns.autumn will be destroyed');

    const mv = await ws.cli(['state', 'mv', 'campaigns.autumn', 'campaigns.fall']);
    expect(mv.code, mv.stderr).toBe(0);
    expect(mv.stdout).toContain('Moved campaigns.autumn to campaigns.fall');
    const moved = state();
    expect(moved.get('campaigns.fall')).toBe(autumnId);
    expect(moved.get('campaigns.fall.line_items.eu')).toBe(euId);
    expect([...moved.keys()].filter((a) => a.startsWith('campaigns.autumn'))).toEqual([]);
    await expectNoChanges();
  });

  it('applies manifest edits: a name in place (same id), and a line item removed, destroyed with what it contains', async () => {
    const before = state();
    const fallId = before.get('campaigns.fall')!;
    const caId = before.get('campaigns.spring.line_items.ca')!;
    setShape({ autumnName: 'E2E Fall 2027', withCa: false });
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain('# campaigns.fall will be updated in-place');
    expect(plan.stdout).toMatch(/name += "E2E Autumn 2027" -> "E2E Fall 2027"/);
    expect(plan.stdout).toContain('# campaigns.spring.line_items.ca will be destroyed');
    // edits of the manifest, not drift; the name is the one change, and only the line item and what it contains are destroyed
    expect(plan.stdout).not.toContain('changed outside adsctl');
    expect(plan.stdout).toMatch(/Plan: 0 to add, 1 to change, [1-9]\d* to destroy\./);
    const destroyed = [...plan.stdout.matchAll(/# (\S+) will be destroyed/g)].map((m) => m[1] ?? '');
    expect(destroyed.filter((a) => a !== 'campaigns.spring.line_items.ca' && !a.startsWith('campaigns.spring.line_items.ca.'))).toEqual([]);

    await expectCode(ws.apply(), 0);
    const after = state();
    expect(after.get('campaigns.fall')).toBe(fallId);
    expect(await campaign(fallId)).toMatchObject({ name: 'E2E Fall 2027', deleted: false });
    expect((await lineItem(caId))['deleted']).toBe(true);
    expect([...after.keys()].filter((a) => a.startsWith('campaigns.spring.line_items.ca'))).toEqual([]);
    await expectNoChanges();
  });

  it('applies a budget edit from a saved plan, refuses a stale one naming the object that moved, and plans that change as drift', async () => {
    const springId = state().get('campaigns.spring')!;
    setShape({ springDaily: '75.00' });
    const saved = await expectCode(ws.plan({ out: 'fresh.plan', detailedExitcode: true }), 2);
    expect(saved.stdout).toMatch(/daily_budget += 50\.00 USD -> 75\.00 USD/);
    expect(saved.stdout).not.toContain('changed outside adsctl');
    expect(saved.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    const fresh = await expectCode(ws.applySaved('fresh.plan'), 0);
    expect(fresh.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    expect((await campaign(springId))['daily_budget_amount_local_micro']).toBe(75_000_000);

    setShape({ springDaily: '90.00' });
    await expectCode(ws.plan({ out: 'stale.plan', detailedExitcode: true }), 2);
    // a later second than the apply's write, so that the change by hand moves updated_at (whole seconds)
    clock.advance(1100);
    const byHand = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${springId}`, { total_budget_amount_local_micro: 2_000_000_000 }, { as: 'form' });
    expect(byHand.status, byHand.text).toBe(200);
    const stale = await expectCode(ws.applySaved('stale.plan'), 1);
    expect(stale.stderr).toContain('the saved plan is stale');
    expect(stale.stderr).toMatch(/  - campaigns\.spring \(id \w+\) was changed outside adsctl \(updated at /);
    expect((await campaign(springId))['daily_budget_amount_local_micro']).toBe(75_000_000);

    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toMatch(/total_budget += 2000\.00 USD -> 1500\.00 USD \(changed outside adsctl(?: by user \d+ at [\d:TZ-]+)?\)/);
    expect(plan.stdout).toMatch(/daily_budget += 75\.00 USD -> 90\.00 USD/);
    // the next step's apply puts both in place, and its waiting run shows no changes
  });

  it('applies what the saved-plan step left: the budget edit, the change by hand reverted', async () => {
    // the state lock held by another run is test/e2e/lifecycle.test.ts
    const apply = await expectCode(ws.apply(), 0);
    expect(apply.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    await expectNoChanges();
    expect(await campaign(state().get('campaigns.spring')!)).toMatchObject({ daily_budget_amount_local_micro: 90_000_000, total_budget_amount_local_micro: 1_500_000_000 });
  });

  it('imports a campaign made by hand so that the next plan shows no changes for it', async () => {
    const id = await handmadeCampaign(client);
    setShape({ withHandmade: true });
    const before = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(before.stdout).toContain('# campaigns.handmade will be created');

    const imported = await expectCode(importInto(ws, 'campaigns.handmade', id), 0);
    expect(imported.stdout).toContain(`campaigns.handmade is bound to ${id}`);
    managedCampaigns.add(id);
    await expectNoChanges();
    expect((await liveCampaignNames()).filter((n) => n === 'E2E Handmade')).toHaveLength(1);
  });

  it('destroys everything it manages, leaving the state empty and the campaigns deleted', async () => {
    const destroy = await expectCode(ws.destroy(), 0);
    expect(destroy.stdout).toMatch(/Destroy complete! Resources: [1-9]\d* destroyed\./);
    expect(state()).toEqual(new Map());
    expect(managedCampaigns.size).toBe(3);
    for (const id of managedCampaigns) expect((await campaign(id))['deleted'], id).toBe(true);
    expect(await liveCampaignNames()).toEqual([]);
    // nothing is left to destroy: a second destroy changes nothing
    const again = await expectCode(ws.destroy(), 0);
    expect(again.stdout).toContain('No changes.');
  });
});
