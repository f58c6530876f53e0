/**
 * Guardrails of adsctl.yaml at the command line: what only the argv parser decides. The rules
 * themselves — each refusing at plan and apply with nothing written, `--allow` recorded in the
 * plans and the state history, a saved plan held to the guardrails in force, protect_serving, bad
 * settings, serving spend — are engine scenarios, in test/engine/guardrails.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { transcript } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-guardrails-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('--allow refuses a name that is no rule, before anything is read', async () => {
  const run = await runCli(['plan', '--allow', 'max_budget'], { cwd: dir, env: { NO_COLOR: '1' } });
  expect(run.code, transcript(run)).toBe(1);
  expect(run.stderr).toContain('not a guardrail rule');
});
