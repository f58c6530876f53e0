/**
 * Issue 9, point 8: ADSCTL_ENDPOINT set to the URL the emulator prints as `ads_base_url` (ending
 * in `/ads-api`) is that emulator; any other value that is not an endpoint is refused in one line
 * naming ADSCTL_ENDPOINT — not with a caret under the manifest's `account:` line — with exit 1
 * and nothing sent to the API. Every run here reads the emulator's request count.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, transcript, type Workspace } from '../support/e2e.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let ws: Workspace;

/** Requests the emulator has had so far, its own stats requests left out. */
async function requests(): Promise<number> {
  const res = await request(`${emulator.info.base_url}/_emulator/stats`);
  const stats = (await res.body.json()) as { total: number; bySurface: Record<string, number> };
  return stats.total - (stats.bySurface['control'] ?? 0);
}

const runWith = (endpoint: string, args: string[]): Promise<CliRun> => runCli(args, { env: { ...ws.env, ADSCTL_ENDPOINT: endpoint }, cwd: ws.dir });

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  // the manifest names no usable endpoint: only ADSCTL_ENDPOINT leads to the emulator
  ws = createWorkspace(
    emulator.info,
    `version: 1
endpoint: production
account:
  id: "${ACCOUNT}"
funding_instruments:
  main: { id: lygyi }
campaigns:
  env: { name: "From the environment", funding_instrument: main, daily_budget: "1.00", entity_status: PAUSED }
`,
  );
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

describe('ADSCTL_ENDPOINT', () => {
  it.each([
    ['ads_base_url', (): string => emulator.info.ads_base_url],
    ['ads_base_url with a trailing slash', (): string => `${emulator.info.ads_base_url}/`],
    ['base_url', (): string => emulator.info.base_url],
  ])('set to the emulator’s %s plans against that emulator', async (_, endpoint) => {
    const run = await runWith(endpoint(), ['plan', '--no-color', '--detailed-exitcode']);
    expect(run.code, transcript(run)).toBe(2);
    expect(run.stdout).toContain('# campaigns.env will be created');
  });

  it.each([
    ['a path other than /ads-api', (): string => `${emulator.info.base_url}/v2`],
    ['a word', (): string => 'staging'],
    ['a URL without a host', (): string => 'http://'],
  ])('set to %s is refused in one line naming it, before any request', async (_, endpoint) => {
    const before = await requests();
    const run = await runWith(endpoint(), ['plan', '--no-color']);
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines, transcript(run)).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: ADSCTL_ENDPOINT/);
    expect(lines[0]).toContain(JSON.stringify(endpoint()));
    expect(run.stderr).not.toContain('account.yaml');
    expect(run.stderr).not.toContain('^');
    expect(await requests()).toBe(before);
  });
});
