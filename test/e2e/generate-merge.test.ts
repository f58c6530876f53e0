/**
 * `adsctl generate DIR --account ID --merge` (docs/manifest.md, "Adopting what already exists"):
 * after a campaign with a line item and a line item of a managed campaign were made by hand, the
 * account's manifest — comments, `moved:` entries, hand-chosen keys — gains exactly those objects
 * with their children, every line it had kept byte for byte and in order; the state binds them,
 * and the next plan exits 0. Merging again adds nothing. And its refusals: without --account,
 * with --force, for an account no manifest describes: exit 1, nothing written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { lineItemByHand, madeByHand } from '../support/by-hand.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, parseStateList, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;
let before: string;
const made: Record<string, string> = {};

const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}# moved when the launch was renamed: keep this
moved:
  - { from: campaigns.start, to: campaigns.launch }
campaigns:
  # the campaign the team launched with
  launch:
    name: Launch
    funding_instrument: main
    daily_budget: "10.00"   # per day
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
# the end of the team's file
`;

const adsctl = expectRuns(() => ws);

/** Whether every line of `text` is in `after`, in order. */
function keptInOrder(text: string, after: string): boolean {
  const lines = after.split('\n');
  let at = 0;
  for (const line of text.split('\n')) {
    const found = lines.indexOf(line, at);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}

const byHand = (path: string, body: Params): Promise<string> => madeByHand(client, ACCOUNT, path, body);

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('generate --merge', () => {
  it('applies the team’s manifest', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    before = readFileSync(ws.manifest, 'utf8');
  });

  it('adds a campaign and two line items made by hand, keeping every line of the file, and the next plan is clean', async () => {
    const launch = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('campaigns.launch')!;
    made['campaign'] = await byHand('campaigns', { name: 'Flash sale', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 25_000_000, entity_status: 'PAUSED' });
    made['flash'] = await byHand('line_items', lineItemByHand(made['campaign'], 'Flash US'));
    made['extra'] = await byHand('line_items', lineItemByHand(launch, 'Extra'));
    await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 2);

    const merged = await adsctl(['generate', '.', '--account', ACCOUNT, '--merge'], 0);
    expect(merged.stdout).toContain('Merged into account.yaml: campaigns.flash_sale, campaigns.launch.line_items.extra (3 objects, bound in the state); every line it had is kept.');
    const after = readFileSync(ws.manifest, 'utf8');
    expect(keptInOrder(before, after)).toBe(true);
    expect(after).toContain('# moved when the launch was renamed: keep this\nmoved:\n  - { from: campaigns.start, to: campaigns.launch }\n');
    const doc = parse(after) as { campaigns: Record<string, { name: string; line_items?: Record<string, { name: string }> }> };
    expect(Object.keys(doc.campaigns)).toEqual(['launch', 'flash_sale']);
    expect(Object.keys(doc.campaigns['launch']!.line_items!)).toEqual(['us', 'extra']);
    expect(doc.campaigns['flash_sale']).toMatchObject({ name: 'Flash sale', funding_instrument: 'main', daily_budget: '25.00', entity_status: 'PAUSED', line_items: { flash_us: { name: 'Flash US' } } });
    // exactly those objects were added: the file grew by their lines only
    const added = after.split('\n').length - before.split('\n').length;
    expect(added).toBeGreaterThan(0);
    const bound = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
    expect([bound.get('campaigns.flash_sale'), bound.get('campaigns.flash_sale.line_items.flash_us'), bound.get('campaigns.launch.line_items.extra')]).toEqual([made['campaign'], made['flash'], made['extra']]);
    const plan = await adsctl(['plan', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).not.toContain('Not managed by adsctl');
  });

  it('merged again, adds nothing and leaves the file as it is', async () => {
    const text = readFileSync(ws.manifest, 'utf8');
    const again = await adsctl(['generate', '.', '--account', ACCOUNT, '--merge'], 0);
    expect(again.stdout).toContain(`account.yaml: account ${ACCOUNT} holds every object already; nothing added.`);
    expect(readFileSync(ws.manifest, 'utf8')).toBe(text);
  });

  it.each([
    { name: 'without --account', args: ['--merge'], says: '--merge adds to the manifest of the accounts named with --account: name each account to merge into' },
    { name: 'with --force', args: ['--account', ACCOUNT, '--merge', '--force'], says: '--merge adds to a manifest and --force replaces it: give one of them' },
    { name: 'for an account no manifest describes', args: ['--account', 'nosuchacct', '--merge'], says: 'no manifest in . describes account nosuchacct: generate it without --merge; nothing was written' },
  ])('refuses $name: one line, exit 1, nothing written', async ({ args, says }) => {
    const text = readFileSync(ws.manifest, 'utf8');
    const run = await adsctl(['generate', '.', ...args], 1);
    expect(run.stderr).toBe(`Error: ${says}\n`);
    expect(readFileSync(ws.manifest, 'utf8')).toBe(text);
    expect(readFileSync(join(ws.dir, 'account.yaml'), 'utf8')).toBe(text);
  });
});
