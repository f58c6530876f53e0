/**
 * Issue 23, what a new user trips on, through the built CLI against the emulator, steps in order:
 * `echo yes | adsctl apply DIR` applies without a terminal, any other answer or none cancels;
 * accounts are labelled by name and id; `state mv A B DIR` takes the path every other command
 * takes. Every step that applies ends with a plan showing no changes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, parseStateList, stepsInOrder, transcript, type Workspace } from '../support/e2e.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;
/** A directory other than the manifests', to run commands from. */
let elsewhere: string;

const manifest = (campaign: string): string => `version: 1
endpoint: ${emulator.info.base_url}
account:
  id: "${ACCOUNT}"
  name: Acme Outdoor
funding_instruments:
  main: { id: lygyi }
campaigns:
  ${campaign}: { name: "New user habits", funding_instrument: main, daily_budget: "10.00", entity_status: PAUSED }
`;

async function adsctl(args: string[], code: number, options: { input?: string; cwd?: string } = {}): Promise<CliRun> {
  const run = await runCli(args, { env: ws.env, cwd: options.cwd ?? ws.dir, ...(options.input === undefined ? {} : { input: options.input }) });
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

const campaigns = async (): Promise<Array<Record<string, any>>> => (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true })).filter((c) => c['name'] === 'New user habits');

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest('alpha'));
  elsewhere = mkdtempSync(join(tmpdir(), 'adsctl-elsewhere-'));
});
afterAll(async () => {
  ws.remove();
  rmSync(elsewhere, { recursive: true, force: true });
  await emulator.close();
});
stepsInOrder();

describe('what a new user trips on', () => {
  it('labels the account by its name and id', async () => {
    const plan = await adsctl(['plan', '-detailed-exitcode'], 2);
    expect(plan.stdout).toContain(`Account "Acme Outdoor" (${ACCOUNT}) on ${emulator.info.base_url}:`);
    expect(plan.stdout).not.toContain('account.yaml');
    expect(plan.stdout).toMatch(/Requests: \d+ reads made, 2 writes planned \(1 batch\)\. /);
  });

  it('cancels an apply when standard input ends without an answer, or answers anything but yes', async () => {
    const none = await adsctl(['apply', ws.dir], 1, { cwd: elsewhere });
    expect(none.stderr).toContain('Apply cancelled: standard input ended without an answer; pipe yes into it, or pass --auto-approve.\n');
    const no = await adsctl(['apply', ws.dir], 1, { cwd: elsewhere, input: 'no\n' });
    expect(no.stderr).toMatch(/Enter a value: \nApply cancelled\.\n$/);
    const yesAndMore = await adsctl(['apply', ws.dir], 1, { cwd: elsewhere, input: 'yes please\n' });
    expect(yesAndMore.stderr).toContain('Apply cancelled.\n');
    expect(await campaigns()).toEqual([]);
  });

  it('applies with yes piped into it, as terraform apply does', async () => {
    const applied = await adsctl(['apply', ws.dir], 0, { cwd: elsewhere, input: 'yes\n' });
    expect(applied.stdout).toContain('Apply complete!');
    expect(await campaigns()).toHaveLength(1);
    await adsctl(['plan', '-detailed-exitcode'], 0);
  });

  it('state mv takes the manifests\' directory like every other command', async () => {
    const id = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('campaigns.alpha');
    expect(id).toBeDefined();
    const moved = await adsctl(['state', 'mv', 'campaigns.alpha', 'campaigns.beta', ws.dir], 0, { cwd: elsewhere });
    expect(moved.stdout).toBe('Moved campaigns.alpha to campaigns.beta.\n');
    expect(parseStateList((await adsctl(['state', 'list', ws.dir], 0, { cwd: elsewhere })).stdout).get('campaigns.beta')).toBe(id);
    const shown = await adsctl(['state', 'show', 'campaigns.beta', ws.dir], 0, { cwd: elsewhere });
    expect(JSON.parse(shown.stdout)).toMatchObject({ address: 'campaigns.beta', id });
    // the forms of before still work
    await adsctl(['state', 'mv', '--path', ws.dir, 'campaigns.beta', 'campaigns.gamma'], 0, { cwd: elsewhere });
    await adsctl(['state', 'mv', 'campaigns.gamma', 'campaigns.beta'], 0);
    ws.write(manifest('beta'));
    await adsctl(['plan', '-detailed-exitcode'], 0);
    expect((await campaigns()).map((c) => c['id'])).toEqual([id]);
  });
});
