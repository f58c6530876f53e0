/**
 * Issue 18, "targeting values checked by the plan": an ACTIVE line item targeting a LOCATION no
 * lookup lists (`ffffffffffffffff`) is refused by `adsctl plan` at the value's position, with the
 * closest values the lookup lists, and `adsctl apply --auto-approve` stops at the same error
 * with nothing written — the targeting lookups are read once, then served from the lookup cache.
 * With the value put right, apply converges and plan reports no changes.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, readLiveAccount, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';

const ACCOUNT = '18ce54d4x5t';
const UNKNOWN = 'ffffffffffffffff';
const US = '96683cc9126741d1';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;
const run = expectRuns(() => ws);

const manifest = (endpoint: string, location: string): string => `${seededAccountHead(endpoint, ACCOUNT)}campaigns:
  values:
    name: Targeting values
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: ACTIVE
    line_items:
      us:
        name: Checked targeting
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2027-01-01T00:00:00Z
        entity_status: ACTIVE
        targeting:
          - { targeting_type: LANGUAGE, targeting_value: en }
          - { targeting_type: LOCATION, targeting_value: ${location} }
`;

/** The emulator's requests so far by route (`GET /12/targeting_criteria/locations`, ...). */
async function routes(): Promise<Record<string, number>> {
  const res = await request(`${emulator.info.base_url}/_emulator/stats`);
  return ((await res.body.json()) as { byRoute: Record<string, number> }).byRoute;
}

/** Requests of routes that write (any method but GET). */
const writes = (byRoute: Record<string, number>): number =>
  Object.entries(byRoute)
    .filter(([route]) => !route.startsWith('GET '))
    .reduce((sum, [, n]) => sum + n, 0);

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url, UNKNOWN));
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

describe('a targeting value the service does not list', () => {
  stepsInOrder();
  const text = (): string => manifest(emulator.info.base_url, UNKNOWN);
  const line = (): number => text().split('\n').findIndex((l) => l.includes(UNKNOWN)) + 1;
  const column = (): number => (text().split('\n')[line() - 1]?.indexOf(UNKNOWN) ?? -1) + 1;

  it('plan refuses it at its position, naming the closest values the lookup lists', async () => {
    const before = await routes();
    const plan = await run(['plan', '--no-color'], 1);
    const after = await routes();
    expect(plan.stdout + plan.stderr).toContain(`account.yaml:${line()}:${column()}: error unknown-targeting-value: LOCATION "${UNKNOWN}" is not a value the service knows: GET targeting_criteria/locations lists no such value; the closest it lists: "`);
    expect(plan.stdout + plan.stderr).not.toContain('targeting_criteria/languages lists');
    expect(writes(after)).toBe(writes(before));
    // every location type was read to know the value is none of them; the language was found in one read
    expect((after['GET /12/targeting_criteria/locations'] ?? 0) - (before['GET /12/targeting_criteria/locations'] ?? 0)).toBeGreaterThanOrEqual(5);
    expect((after['GET /12/targeting_criteria/languages'] ?? 0) - (before['GET /12/targeting_criteria/languages'] ?? 0)).toBe(1);
  });

  it('apply --auto-approve stops at the same error and writes nothing; the lookups come from the cache', async () => {
    const before = await routes();
    const apply = await run(['apply', '--auto-approve', '--no-color'], 1);
    const after = await routes();
    expect(apply.stdout + apply.stderr).toContain(`account.yaml:${line()}:${column()}: error unknown-targeting-value: LOCATION "${UNKNOWN}"`);
    expect(apply.stdout).not.toContain('Apply complete!');
    expect(writes(after)).toBe(writes(before));
    expect(after['GET /12/targeting_criteria/locations'] ?? 0).toBe(before['GET /12/targeting_criteria/locations'] ?? 0);
    const live = await readLiveAccount(client, ACCOUNT);
    expect(live.campaigns.filter((c) => c['name'] === 'Targeting values')).toEqual([]);
    expect(live.lineItems.filter((l) => l['name'] === 'Checked targeting')).toEqual([]);
  });

  it('with a value the lookup lists, apply creates it all and plan reports no changes', async () => {
    ws.write(manifest(emulator.info.base_url, US));
    const apply = await run(['apply', '--auto-approve', '--no-color'], 0);
    expect(apply.stdout).toContain('Apply complete!');
    const live = await readLiveAccount(client, ACCOUNT);
    const lineItem = live.lineItems.find((l) => l['name'] === 'Checked targeting');
    expect(lineItem?.['entity_status']).toBe('ACTIVE');
    const targeting = live.targeting.filter((t) => t['line_item_id'] === lineItem?.['id']).map((t) => `${String(t['targeting_type'])}:${String(t['targeting_value'])}`);
    expect(targeting.sort()).toEqual(['LANGUAGE:en', `LOCATION:${US}`]);
    const plan = await run(['plan', '--no-color', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
  });
});
