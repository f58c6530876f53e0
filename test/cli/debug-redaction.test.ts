/**
 * Issue 9, point 13: an endpoint URL may carry credentials (`http://user:secret@host`). Through
 * the built CLI, `plan --debug` (request traces), `plan` output in every format and the errors of
 * a run never show the password, as traces never show the OAuth header's secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, transcript, type Workspace } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';

const SECRET = 'pa55-w0rd-in-url';
let emulator: RunningEmulator;
let ws: Workspace;
let endpoint: string;

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  endpoint = emulator.info.base_url.replace('http://', `http://deployer:${SECRET}@`);
  ws = createWorkspace(
    emulator.info,
    `version: 1
endpoint: "${endpoint}"
account:
  id: "${emulator.info.account_id}"
funding_instruments:
  main: { id: ${emulator.info.funding_instrument_id} }
campaigns:
  one: { name: "Redaction one", funding_instrument: main, daily_budget: "1.00", entity_status: PAUSED }
`,
  );
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

describe('an endpoint URL with a password', () => {
  it('is traced by plan --debug with the password redacted', async () => {
    const run = await ws.run(['plan', '--debug', '--no-color']);
    expect(run.code, transcript(run)).toBe(0);
    expect(run.stderr).toMatch(/\[debug\] GET http:\/\/(deployer:\*\*\*@)?127\.0\.0\.1:\d+\//);
    expect(run.stderr).toContain('oauth_consumer_key="<redacted>"');
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
  });

  it('is never printed by plan in JSON or Markdown', async () => {
    for (const flag of ['--json', '--markdown']) {
      const run = await ws.run(['plan', '--no-color', flag]);
      expect(run.code, transcript(run)).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    }
  });

  it('is never printed in errors about the endpoint', async () => {
    const run = await runCli(['plan', '--no-color'], { cwd: ws.dir, env: { NO_COLOR: '1', ADSCTL_ENDPOINT: endpoint } });
    expect(run.code, transcript(run)).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    const unreachable = await runCli(['plan', '--no-color'], { cwd: ws.dir, env: { ...ws.env, ADSCTL_ENDPOINT: `http://deployer:${SECRET}@nonexistent.invalid` } });
    expect(unreachable.code, transcript(unreachable)).toBe(1);
    expect(`${unreachable.stdout}${unreachable.stderr}`).not.toContain(SECRET);
  });
});
