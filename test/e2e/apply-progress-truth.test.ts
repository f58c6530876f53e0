/**
 * What an interrupted apply prints says what happened, and no more. A progress line names only
 * writes that went out: not one an interrupt kept from being sent. The summary of an interrupted apply counts what was sent and
 * what was never started; when the signal came after the last write had gone out, it says every
 * write was sent and that nothing is left, instead of asking for another run. Each moment is held
 * exactly by a proxy that withholds chosen answers (answer-gate.ts). An operation skipped because
 * what it waited for was refused is test/engine/apply-progress-truth.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { progressManifest } from '../support/progress-manifest.js';
import { clearRefusals } from '../support/refusals.js';
import type { CliRun } from '../support/run-cli.js';
import { startAnswerGate, type SeenWrite } from './answer-gate.js';

let emulator: RunningEmulator;
const workspaces: Workspace[] = [];

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
});
afterEach(async () => {
  await clearRefusals(emulator.info);
  for (const ws of workspaces.splice(0)) ws.remove();
});

/** A paused campaign `key` named `name` whose line items each have one keyword and the promoted posts given. */
const manifest = (key: string, name: string, lineItems: Array<{ key: string; keyword: string; posts: string[] }>): string => progressManifest(emulator.info.base_url, key, name, lineItems);

function workspace(yaml: string): Workspace {
  const ws = createWorkspace(emulator.info, yaml);
  workspaces.push(ws);
  return ws;
}

async function adsctl(ws: Workspace, args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

/** The progress lines of a CI log (`[1.2s] ACCOUNT: create 2 campaigns`) and the addresses listed under them. */
const progressLines = (stderr: string): string[] => stderr.split('\n').filter((line) => /^\[\d/.test(line) || line.startsWith('    '));

/**
 * Runs `apply --auto-approve` (with `extra` arguments) through a gate that withholds the answers
 * of the writes `hold` picks; once one is withheld, sends SIGINT, waits for the run to take it,
 * and lets the answers through. Returns how the run ended.
 */
async function interruptedApply(ws: Workspace, hold: (write: SeenWrite) => boolean, extra: string[] = []): Promise<CliRun> {
  const gate = await startAnswerGate(emulator.info.base_url, hold);
  const run = ws.start(['apply', '--auto-approve', ...extra], { ADSCTL_ENDPOINT: gate.url });
  const ended = (): boolean => run.child.exitCode !== null || run.child.signalCode !== null;
  try {
    await waitUntil('a write held on the wire', () => ended() || gate.held() > 0);
    run.child.kill('SIGINT');
    await waitUntil('the run to take the signal', () => ended() || /Interrupt received/.test(run.stderr()));
    expect(ended(), transcript({ code: run.child.exitCode, stdout: run.stdout(), stderr: run.stderr() })).toBe(false);
    gate.release();
    return await run.done;
  } finally {
    if (!ended()) run.child.kill('SIGKILL');
    await gate.close();
  }
}

describe('an apply interrupted after its last write went out', () => {
  it('says every write was sent and nothing is left, not to run apply again', async () => {
    const ws = workspace(manifest('last', 'Interrupted last', [{ key: 'us', keyword: 'lanterns', posts: [] }]));
    // campaign, then line item, then its keyword: the keyword's is the last write of the plan
    const ended = await interruptedApply(ws, (write) => write.path.endsWith('/targeting_criteria'));
    expect(ended.code, transcript(ended)).toBe(130);
    expect(ended.stderr).toContain('Interrupted after every write had been sent: 3 operations applied. Nothing is left to apply.');
    expect(ended.stderr).not.toContain('again to finish');
    expect(ended.stdout).not.toContain('Apply complete!');
    expect((await adsctl(ws, ['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });
});

describe('an apply interrupted with a write not yet sent', () => {
  it('prints no progress line for it, and counts it as not started', async () => {
    const [first, second] = SEED_POST_IDS.slice(60) as [string, string];
    const ws = workspace(
      manifest('held', 'Interrupted held', [
        { key: 'a', keyword: 'kayaks', posts: [first] },
        { key: 'b', keyword: 'paddles', posts: [second] },
      ]),
    );
    // one request at a time: the second line item's promoted post waits for the first's answer, which is withheld
    const ended = await interruptedApply(ws, (write) => write.path.endsWith('/promoted_tweets'), ['--parallelism', '1']);
    expect(ended.code, transcript(ended)).toBe(130);
    const lines = progressLines(ended.stderr);
    expect(lines.join('\n')).toMatch(/: create 1 promoted post\n {4}campaigns\.held\.line_items\.a\.promoted_posts/);
    expect(lines.join('\n'), transcript(ended)).not.toContain('line_items.b.promoted_posts');
    // of seven operations, the campaign, the line items and the first promoted post went out, and the
    // other post never did; every line printed is one of a write sent, and every write sent was applied
    const said = /Interrupted: (\d+) operations sent \((\d+) applied\), (\d+) not started; run adsctl apply again to finish\./.exec(ended.stderr);
    expect(said, transcript(ended)).not.toBeNull();
    const [sent, applied, notStarted] = said!.slice(1).map(Number) as [number, number, number];
    expect([sent + notStarted, applied]).toEqual([7, sent]);
    expect(notStarted).toBeGreaterThanOrEqual(1);
    expect(lines.filter((line) => line.startsWith('    ')).join(', ').split(', ')).toHaveLength(sent);
    const plan = await adsctl(ws, ['plan', '--detailed-exitcode'], 2);
    expect(plan.stdout).toContain(`Plan: ${notStarted} to add, 0 to change, 0 to destroy.`);
    await adsctl(ws, ['apply', '--auto-approve'], 0);
    expect((await adsctl(ws, ['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });
});
