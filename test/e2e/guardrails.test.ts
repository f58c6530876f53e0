/**
 * Guardrails of adsctl.yaml at the command line: what only a process shows. `--allow` refuses a
 * name that is no rule (the argv parser); a mandatory rule broken makes `plan` exit 1 and `apply`
 * exit 1 with nothing written (the wire log counts every write). The rules themselves — each
 * refusing at plan and apply, `--allow` recorded in the plans and the state history, a saved plan
 * held to the guardrails in force, protect_serving, bad settings, serving spend — are engine
 * scenarios, in test/engine/guardrails.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, expectRuns, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-guardrails-'));
let emulator: RunningEmulator;
let log: WireLog;
let ws: Workspace;
const adsctl = expectRuns(() => ws);

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  log = await startWireLog(emulator.info.base_url);
  ws = createWorkspace(
    emulator.info,
    `${seededAccountHead(log.url)}campaigns:\n  sale:\n    name: US-Sale\n    funding_instrument: main\n    daily_budget: "100.01"\n    entity_status: PAUSED\n`,
  );
  writeFileSync(join(ws.dir, 'adsctl.yaml'), 'guardrails:\n  max_daily_budget: "100.00"\n');
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  ws?.remove();
  await log?.close();
  await emulator?.close();
});

it('--allow refuses a name that is no rule, before anything is read', async () => {
  const run = await runCli(['plan', '--allow', 'max_budget'], { cwd: dir, env: { NO_COLOR: '1' } });
  expect(run.code, transcript(run)).toBe(1);
  expect(run.stderr).toContain('not a guardrail rule');
});

it('a mandatory rule broken: plan exits 1, and apply exits 1 with nothing written', async () => {
  const plan = await adsctl(['plan', '--detailed-exitcode'], 1);
  expect(plan.stdout).toMatch(/error +max_daily_budget +campaigns\.sale +daily_budget = 100\.01 USD +limit 100\.00 USD/);
  log.reset();
  const apply = await adsctl(['apply', '--auto-approve'], 1);
  expect(apply.stdout + apply.stderr).not.toContain('Apply complete!');
  expect(log.writes()).toEqual([]);
});
