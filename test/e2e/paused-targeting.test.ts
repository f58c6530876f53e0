/**
 * The targeting of a line item that does not serve, end to end (docs/architecture.md, "Batching"):
 * through the built CLI and a recording proxy in front of the emulator, a PAUSED line item whose
 * three keywords are swapped for three others gets its deletes and creates in one batch request,
 * the plan counts that one write, and no moment of the apply, replayed from the wire, serves wider
 * than the old or the new manifest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, readLiveAccount, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import { servingMoments, servingViolations } from '../support/serving-monitor.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';
const [POST_A] = SEED_POST_IDS as [string];

let emulator: RunningEmulator;
let client: TestClient;
let log: WireLog;
let ws: Workspace | undefined;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  log = await startWireLog(emulator.info.base_url);
});
afterAll(async () => {
  await log.close();
  await emulator.close();
  ws?.remove();
});

function manifest(words: readonly string[]): string {
  return `${seededAccountHead(log.url)}campaigns:
  paused:
    name: Paused targeting
    funding_instrument: main
    daily_budget: "20.00"
    entity_status: ACTIVE
    line_items:
      main:
        name: Paused change
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2027-01-01T00:00:00Z
        entity_status: PAUSED
        targeting:
${words.map((w) => `          - { targeting_type: BROAD_KEYWORD, targeting_value: "${w}" }`).join('\n')}
        promoted_posts: ["${POST_A}"]
`;
}

const OLD = ['tents', 'stoves', 'lanterns'];
const NEW = ['kayaks', 'paddles', 'life vests'];

describe('a PAUSED line item whose targeting changes', () => {
  it('sends its 3 deletes and 3 creates in 1 write request, as the plan counts', async () => {
    ws = createWorkspace(emulator.info, manifest(OLD));
    const first = await ws.run(['apply', '--auto-approve']);
    expect(first.code, transcript(first)).toBe(0);

    ws.write(manifest(NEW));
    const plan = await ws.run(['plan']);
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toMatch(/Requests: \d+ reads made, 1 write planned \(1 batch\)/);

    const before = await readLiveAccount(client, ACCOUNT);
    log.reset();
    const run = await ws.run(['apply', '--auto-approve']);
    expect(run.code, transcript(run)).toBe(0);
    const wire = log.requests();
    const writes = log.writes();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.path).toMatch(/\/batch\/accounts\/18ce54d4x5t\/targeting_criteria$/);
    expect((writes[0]!.json as Array<{ operation_type: string }>).map((op) => op.operation_type)).toEqual(['Delete', 'Delete', 'Delete', 'Create', 'Create', 'Create']);

    const live = await readLiveAccount(client, ACCOUNT);
    const li = live.lineItems.find((l) => l['name'] === 'Paused change')!;
    expect(li['entity_status']).toBe('PAUSED');
    expect(live.targeting.filter((t) => t['line_item_id'] === li['id']).map((t) => String(t['targeting_value'])).sort()).toEqual([...NEW].sort());

    // it served at no moment, so no moment served wider than either manifest
    const moments = servingMoments(before, wire);
    expect(moments.flatMap((m) => m.serving).filter((s) => s.name === 'Paused change')).toEqual([]);
    const version = (words: readonly string[]) => ({ targeting: words.map((w) => `BROAD_KEYWORD:${w}:EQ`), posts: [POST_A] });
    expect(servingViolations(moments, (name) => (name === 'Paused change' ? [version(OLD), version(NEW)] : undefined))).toEqual([]);

    const clean = await ws.run(['plan', '--detailed-exitcode']);
    expect(clean.code, transcript(clean)).toBe(0);
  });
});
