/**
 * A plan right after a killed apply, near an account limit: the apply created its new ACTIVE
 * campaigns and was killed before it heard the answer, so they are live but unbound, and the plan
 * (which writes nothing) plans them again. It must count them once — as the objects the service
 * already holds — and not refuse the plan for a limit the next apply will not reach; that apply
 * binds them, creates nothing twice, and leaves nothing to change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { countBy, createWorkspace, listAll, transcript, type Workspace } from '../support/e2e.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';
const LIMIT = 200;
const NEW = 5;

let emulator: RunningEmulator;
let client: TestClient;
let log: WireLog;
let ws: Workspace | undefined;

function manifest(names: readonly string[]): string {
  const lines = ['version: 1', `endpoint: ${log.url}`, 'account:', `  id: "${ACCOUNT}"`, 'funding_instruments:', '  main: { id: lygyi }', 'campaigns:'];
  for (const name of names) lines.push(`  ${name}: { name: "Kill limit ${name}", funding_instrument: main, daily_budget: "1.00", entity_status: ACTIVE }`);
  return `${lines.join('\n')}\n`;
}

const campaigns = async (): Promise<Array<Record<string, unknown>>> => (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`)).filter((c) => String(c['name']).startsWith('Kill limit '));

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  log = await startWireLog(emulator.info.base_url);
});
afterAll(async () => {
  ws?.remove();
  await log.close();
  await emulator.close();
});

describe('a plan right after an apply killed near an account limit', () => {
  it('counts the creates in flight as the campaigns they made, and the next apply binds them', async () => {
    const already = (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`)).filter((c) => c['entity_status'] === 'ACTIVE').length;
    const base = Array.from({ length: LIMIT - already - NEW }, (_, i) => `c${String(i).padStart(3, '0')}`);
    ws = createWorkspace(emulator.info, manifest(base));
    const first = await ws.run(['apply', '--auto-approve']);
    expect(first.code, transcript(first)).toBe(0);

    const fresh = Array.from({ length: NEW }, (_, i) => `n${i}`);
    ws.write(manifest([...base, ...fresh]));
    // killed once the service made the new campaigns, before the answer came back
    const trapped = log.trap(1, 'after');
    const running = ws.start(['apply', '--auto-approve']);
    await trapped;
    running.child.kill('SIGKILL');
    await running.done;
    log.release();
    expect((await campaigns()).length).toBe(base.length + NEW);

    const plan = await ws.run(['plan']);
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout + plan.stderr).toContain('unfinished-apply');
    expect(plan.stdout + plan.stderr).not.toContain('limit-active-campaigns');

    const again = await ws.run(['apply', '--auto-approve']);
    expect(again.code, transcript(again)).toBe(0);
    const live = await campaigns();
    expect([...countBy(live, (c) => String(c['name']))].filter(([, n]) => n > 1)).toEqual([]);
    expect(live.length).toBe(base.length + NEW);
    const clean = await ws.run(['plan', '--detailed-exitcode']);
    expect(clean.code, transcript(clean)).toBe(0);
  });
});
