/**
 * Canaries for private identifiers, in a CLI process: what only a process prints and leaves
 * behind. An audience's member file and the do-not-reach list's file hold only unique markers
 * (test/support/canaries.ts), a few of them invalid. A plan saved with `--debug`, `show -json` of
 * it, its apply with `--debug`, and `state show` of both memberships run as processes whose
 * temporary directory (TMPDIR) lies inside the project; no marker may appear, as written,
 * normalised or by its unique token alone, in any file of the project or in their stdout or
 * stderr. The whole scenario — second rounds, stale saved plans, destroy, the member stores'
 * digests and modes, a real leak caught — runs in-process in test/engine/audience-canary.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { memberCounts } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { canaries, canaryManifest, csv, validIdentifiers } from '../support/canaries.js';
import { createWorkspace, parseStateList, transcript, type Workspace } from '../support/e2e.js';
import { filesUnder, findMarkers, type Haystack } from '../support/leak-scan.js';
import type { CliRun } from '../support/run-cli.js';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

const drawn = canaries(0xca7b);
/** Every output captured so far, by the command that printed it. */
const outputs: Haystack[] = [];
const audienceLines = [...drawn.lines(40, true), drawn.invalidLine(), ...drawn.lines(10, true)];

/** Runs adsctl, keeps its output for the scans, and checks its exit code. */
async function adsctl(args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
  outputs.push({ name: `stdout of adsctl ${args.join(' ')}`, content: run.stdout }, { name: `stderr of adsctl ${args.join(' ')}`, content: run.stderr });
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, canaryManifest(emulator.info.base_url));
  mkdirSync(join(ws.dir, 'data'));
  // the CLI's temporary files, if any, land inside the project, where the scan sees them
  mkdirSync(join(ws.dir, 'tmp'));
  ws.env['TMPDIR'] = join(ws.dir, 'tmp');
  writeFileSync(join(ws.dir, 'data', 'vip.csv'), csv(['email', 'phone_number', 'handle'], audienceLines));
  writeFileSync(join(ws.dir, 'data', 'opt-outs.csv'), csv(['email', 'phone_number'], drawn.lines(20, false)));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});

describe('canary identifiers never leave the member files of a CLI process', () => {
  it('a saved plan, show -json, its apply and state show print and leave no marker, with the temporary directory in the project', async () => {
    // the search sees the markers where they are: in the member files
    expect(findMarkers(filesUnder(join(ws.dir, 'data')), drawn.markers).length).toBeGreaterThan(0);
    const plan = await adsctl(['plan', '--out', 'first.plan', '--debug'], 0);
    expect(plan.stdout).toContain('data/vip.csv:42:1: warning audience-invalid-identifiers: 3 of');
    expect(JSON.parse((await adsctl(['show', '-json', 'first.plan'], 0)).stdout)).toHaveProperty('resource_changes');
    await adsctl(['apply', 'first.plan', '--debug'], 0);
    const audience = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('custom_audiences.vip')!;
    expect((await memberCounts(client, audience)).members).toBe(validIdentifiers(audienceLines));
    await adsctl(['state', 'show', 'custom_audiences.vip.users'], 0);
    await adsctl(['state', 'show', 'do_not_reach.users'], 0);
    const project = filesUnder(ws.dir, (path) => path === 'account.yaml' || path === 'data');
    expect(findMarkers([...project, ...outputs], drawn.markers)).toEqual([]);
  });
});
