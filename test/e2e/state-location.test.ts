/**
 * State belongs to the manifests, wherever adsctl is started from (issue: a saved plan applied
 * from the repository root wrote state to `./.adsctl/state/`, and the next apply created a second
 * live campaign). The GitOps flow of examples/gitops, literally: plan with `--out` in one working directory,
 * apply of that file from another, a plan from a third shows no changes, and the API lists no
 * duplicates. `plan` with no path from the root and `state list PATH` find the same state.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { emulatorEnv, listAll, stepsInOrder, transcript } from '../support/e2e.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let repo: string;
let env: NodeJS.ProcessEnv;

const manifest = (endpoint: string): string => `version: 1
endpoint: ${endpoint}
account:
  id: "${ACCOUNT}"
funding_instruments:
  main: { id: lygyi }
campaigns:
  dup_test:
    name: Dup test
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
`;

async function adsctl(cwd: string, args: string[], code: number): Promise<CliRun> {
  const run = await runCli(args, { cwd, env });
  expect(run.code, `(in ${cwd}) adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

async function liveCampaigns(name: string): Promise<number> {
  return (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true })).filter((c) => c['name'] === name).length;
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  repo = mkdtempSync(join(tmpdir(), 'adsctl-repo-'));
  mkdirSync(join(repo, 'accounts'));
  mkdirSync(join(repo, 'ci'));
  writeFileSync(join(repo, 'accounts', 'brand.yaml'), manifest(emulator.info.base_url));
  env = { ...emulatorEnv(emulator.info), XDG_CONFIG_HOME: join(repo, '.config') };
});
afterAll(async () => {
  await emulator.close();
  rmSync(repo, { recursive: true, force: true });
});
stepsInOrder();

describe('the state of a manifest directory', () => {
  it("the README's GitOps flow: one plan saves the plan and its Markdown; the plan file applied from another directory keeps its state beside the manifests", async () => {
    const plan = await adsctl(repo, ['plan', 'accounts', '--out', 'plan.bin', '--markdown', '--no-color'], 0);
    expect(plan.stdout).toContain('## adsctl plan');
    expect(existsSync(join(repo, 'plan.bin'))).toBe(true);
    const applied = await adsctl(join(repo, 'ci'), ['apply', '../plan.bin'], 0);
    expect(applied.stdout).toContain('Apply complete!');
    expect(existsSync(join(repo, 'accounts', '.adsctl', 'state', `${ACCOUNT}.json`))).toBe(true);
    expect(existsSync(join(repo, 'ci', '.adsctl'))).toBe(false);
    expect(existsSync(join(repo, '.adsctl'))).toBe(false);
  });

  it('a plan from a third directory shows no changes, and the API holds one campaign', async () => {
    const plan = await adsctl(join(repo, 'accounts'), ['plan', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
    expect(await liveCampaigns('Dup test')).toBe(1);
  });

  it('plan with no path from the repository root finds the same state', async () => {
    const plan = await adsctl(repo, ['plan', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
    await adsctl(repo, ['apply', '--auto-approve'], 0);
    expect(await liveCampaigns('Dup test')).toBe(1);
    expect(readdirSync(repo).filter((f) => f === '.adsctl')).toEqual([]);
  });

  it('state list takes the manifests path as an argument, like plan', async () => {
    const listed = await adsctl(repo, ['state', 'list', 'accounts'], 0);
    expect(listed.stdout).toContain('campaigns.dup_test');
    const fromRoot = await adsctl(repo, ['state', 'list'], 0);
    expect(fromRoot.stdout).toContain('campaigns.dup_test');
  });
});
