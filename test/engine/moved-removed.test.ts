/**
 * The manifest's `moved` and `removed` entries, and the import counts, through the engine
 * in-process (test/support/engine-harness.ts) against the in-process emulator, through a wire log: a move keeps the live ids and sends nothing, a move onto a bound address is
 * refused at its entry with nothing sent, and so are two moves onto one address or of one address
 * (when the manifest is checked, before anything is read); a finished move is harmless; a removal leaves the live
 * objects and forgets them, and the next plan with the entry still there is clean; pending imports
 * are counted in the summary. `validate` refusing the two moves is test/e2e/moved-removed.test.ts;
 * `state mv`, the CLI's own command, runs as one here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let log: WireLog;
let ws: EngineWorkspace;
const clock = manualClock();

const campaign = (key: string, name: string): string => `  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
    line_items:
      us:
        name: ${name} US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        start_time: "2030-01-01T00:00:00Z"
        bid_strategy: AUTO
        entity_status: PAUSED
`;

const manifest = (campaigns: string, extra = ''): string => `${seededAccountHead(log.url)}campaigns:\n${campaigns}${extra}`;
/** What the state binds, address → id. */
const bound = async (): Promise<Map<string, string>> => ws.bindings(ACCOUNT);
/** `adsctl state mv FROM TO`, the CLI's own command. */
async function stateMv(from: string, to: string): Promise<void> {
  const run = await ws.cli(['state', 'mv', from, to]);
  expect(run.code, run.stderr).toBe(0);
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  log = await startWireLog(emulator.info.base_url);
  ws = createEngineWorkspace(emulator.info, manifest(campaign('a', 'Moved A') + campaign('keep', 'Kept')), clock);
  await expectCode(ws.apply(), 0);
});
afterAll(async () => {
  ws?.remove();
  await log?.close();
  await emulator?.close();
});
stepsInOrder();

describe('a moved entry', () => {
  let before: Map<string, string>;

  it('plans the move with nothing else to do, and applies it without a write', async () => {
    before = await bound();
    ws.write(manifest(campaign('b', 'Moved A') + campaign('keep', 'Kept'), 'moved:\n  - { from: campaigns.a, to: campaigns.b }\n'));
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain('# campaigns.a has moved to campaigns.b (with 1 resource under it)');
    expect(plan.stdout).toContain('Plan: 1 to move, 0 to add, 0 to change, 0 to destroy.');
    const json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 0)).stdout) as { summary: { move?: number }; moved?: Array<{ from: string; to: string; id: string | null; count: number }> };
    expect(json.summary.move).toBe(1);
    expect(json.moved).toEqual([{ account: ACCOUNT, from: 'campaigns.a', to: 'campaigns.b', type: 'campaign', id: before.get('campaigns.a'), count: 2 }]);
    log.reset();
    await expectCode(ws.apply(), 0);
    expect(log.writes()).toEqual([]);
  });

  it('keeps the live ids at the new addresses', async () => {
    const after = await bound();
    expect(after.get('campaigns.b')).toBe(before.get('campaigns.a'));
    expect(after.get('campaigns.b.line_items.us')).toBe(before.get('campaigns.a.line_items.us'));
    expect(after.has('campaigns.a')).toBe(false);
  });

  it('is harmless once done: the next plan is clean', async () => {
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('onto a bound address is an error at the entry, and nothing is sent', async () => {
    await stateMv('campaigns.b', 'campaigns.a');
    ws.write(manifest(campaign('b', 'Moved A') + campaign('keep', 'Kept'), 'moved:\n  - { from: campaigns.a, to: campaigns.keep }\n'));
    log.reset();
    const plan = await expectCode(ws.apply(), 1);
    expect(plan.stdout + plan.stderr).toMatch(/account\.yaml:\d+:5: error move-onto-bound: campaigns\.a cannot move to campaigns\.keep/);
    expect(log.writes()).toEqual([]);
    await stateMv('campaigns.a', 'campaigns.b');
  });

  it('two onto one address, or from one address to two, are refused when the manifest is loaded: exit 1, nothing sent', async () => {
    const base = manifest(campaign('b', 'Moved A') + campaign('keep', 'Kept'));
    const second = base.split('\n').length + 2;
    for (const [entries, expected] of [
      ['moved:\n  - { from: campaigns.x, to: campaigns.c }\n  - { from: campaigns.y, to: campaigns.c }\n', `account.yaml:${second}:5: error duplicate-move-destination: campaigns.y cannot move to campaigns.c: another entry already moves campaigns.x there`],
      ['moved:\n  - { from: campaigns.x, to: campaigns.c }\n  - { from: campaigns.x, to: campaigns.d }\n', `account.yaml:${second}:5: error duplicate-move: campaigns.x is already moved by another entry`],
    ] as const) {
      ws.write(base + entries);
      log.reset();
      const run = await expectCode(ws.apply(), 1);
      expect(run.stdout + run.stderr).toContain(expected);
      expect(log.requests()).toEqual([]);
    }
    ws.write(base);
  });
});

describe('a removed entry', () => {
  it('forgets the campaign and its line item, leaving them live', async () => {
    const ids = await bound();
    ws.write(manifest(campaign('b', 'Moved A'), 'removed:\n  - { from: campaigns.keep }\n'));
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain('# campaigns.keep will be removed from the state; the live object stays (with 1 resource under it)');
    expect(plan.stdout).not.toContain('will be destroyed');
    log.reset();
    await expectCode(ws.apply(), 0);
    expect(log.writes()).toEqual([]);
    const after = await bound();
    expect(after.has('campaigns.keep')).toBe(false);
    expect(after.has('campaigns.keep.line_items.us')).toBe(false);
    const live = await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`);
    expect(live.some((c) => c['id'] === ids.get('campaigns.keep'))).toBe(true);
  });

  it('is clean on the next plan with the entry still there', async () => {
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});

describe('import entries', () => {
  it('are counted in the summary, and harmless once applied', async () => {
    const live = await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`);
    const kept = live.find((c) => c['name'] === 'Kept');
    ws.write(manifest(campaign('b', 'Moved A') + campaign('kept', 'Kept'), `import:\n  - { to: campaigns.kept, id: "${String(kept?.['id'])}" }\n  - { to: campaigns.gone, id: "nothing" }\n`));
    const plan = await expectCode(ws.plan(), 0);
    expect(plan.stdout).toMatch(/Plan: 2 to import, 0 to add, 0 to change, 0 to destroy\./);
    expect(plan.stdout + plan.stderr).toContain('warning import-unused');
    await expectCode(ws.apply(), 0);
    const again = await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(again.stdout).toContain('No changes.');
    expect(again.stdout + again.stderr).toContain('warning import-done');
  });
});
