/**
 * Ctrl-C (SIGINT) or a polite kill (SIGTERM) half-way through an apply of 300 resources. The
 * signal arrives while writes are in flight (their answers held back by a proxy, so the moment is
 * exact): the run starts nothing new, waits for those answers and records them, releases the
 * lock, says what was done and what is left, and exits 130 or 143. The next plan runs at once and
 * shows exactly what is left; the next apply finishes it, creating nothing twice. A second signal
 * ends the run at once, answers unheard: the journal keeps those writes, and the next apply adopts
 * what they created. Before any write, a signal ends the run at once, releasing the lock.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetAddresses, fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import type { CliRun } from '../support/run-cli.js';
import { startGateProxy } from '../support/gate-proxy.js';
import { startAnswerGate } from './answer-gate.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];

// an emulator per test: each starts with the rate limit budgets of its lookups untouched
beforeEach(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterEach(async () => {
  await emulator.close();
  for (const ws of workspaces.splice(0)) ws.remove();
});

const SIGNALS = [
  { signal: 'SIGINT', code: 130 },
  { signal: 'SIGTERM', code: 143 },
] as const;

describe('an apply of 300 resources interrupted by a signal', () => {
  it.each(SIGNALS)('$signal: the writes in flight are recorded, the lock released, exit $code, and the next apply finishes', async ({ signal, code }) => {
    /** 20 campaigns + 40 line items + 80 targeting criteria + 160 promoted posts = 300 resources. */
    const fleet: Fleet = { prefix: `E2E ${signal}`, campaigns: 20, lineItems: 2, keywords: 2, posts: 4 };
    const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
    workspaces.push(ws);
    const stateDir = join(ws.dir, '.adsctl', 'state');
    const adsctl = async (args: string[], exit: number): Promise<CliRun> => {
      const run = await ws.run(args);
      expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(exit);
      return run;
    };

    // the answers of promoted post writes after the fifth are held: the run is caught with them in flight
    let postWrites = 0;
    const gate = await startAnswerGate(emulator.info.base_url, (write) => write.path.endsWith('/promoted_tweets') && ++postWrites > 5);
    let interrupted: CliRun;
    const run = ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
    const ended = (): boolean => run.child.exitCode !== null || run.child.signalCode !== null;
    try {
      await waitUntil('a write in flight', () => ended() || gate.held() > 0);
      run.child.kill(signal);
      await waitUntil('the run to acknowledge the signal', () => ended() || /Interrupt received/.test(run.stderr()));
      expect(ended(), transcript({ code: run.child.exitCode, stdout: run.stdout(), stderr: run.stderr() })).toBe(false);
      gate.release();
      interrupted = await run.done;
    } finally {
      if (!ended()) run.child.kill('SIGKILL');
      await gate.close();
    }

    expect(interrupted.code, transcript(interrupted)).toBe(code);
    expect(interrupted.stdout).not.toContain('Apply complete!');
    const said = /Interrupted: (\d+) operations sent \((\d+) applied\), (\d+) not started; run adsctl apply again to finish/.exec(interrupted.stderr);
    expect(said, transcript(interrupted)).not.toBeNull();
    const [sent, applied, notStarted] = said!.slice(1).map(Number) as [number, number, number];
    // every write sent was answered before the run ended: each was applied
    expect(applied).toBe(sent);
    expect(applied + notStarted).toBe(300);
    expect(applied, transcript(interrupted)).toBeGreaterThanOrEqual(80);
    expect(notStarted).toBeGreaterThan(0);

    // the writes in flight were recorded: the state binds exactly what was applied, and nothing is left open
    expect(existsSync(join(stateDir, `${ACCOUNT}.lock`))).toBe(false);
    expect(existsSync(join(stateDir, `${ACCOUNT}.journal`))).toBe(false);
    const resources = (JSON.parse(readFileSync(join(stateDir, `${ACCOUNT}.json`), 'utf8')) as { resources: Record<string, unknown> }).resources;
    expect(Object.keys(resources).filter((a) => a.startsWith('campaigns.')).length).toBe(applied);

    // the next plan needs no force-unlock and no recovery: it shows exactly what is left
    const plan = await adsctl(['plan', '--detailed-exitcode'], 2);
    expect(plan.stderr + plan.stdout).not.toContain('interrupted');
    expect(plan.stdout).toContain(`Plan: ${notStarted} to add, 0 to change, 0 to destroy.`);

    const rerun = await adsctl(['apply', '--auto-approve'], 0);
    expect(rerun.stdout).toContain(`Apply complete! Resources: ${notStarted} added, 0 changed, 0 destroyed.`);
    const bound = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
    expect([...bound.keys()].filter((a) => a.startsWith('campaigns.')).sort()).toEqual(fleetAddresses(fleet).sort());
    expect(await fleetProblems(client, ACCOUNT, fleet, bound)).toEqual([]);
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });

  it.each(SIGNALS)('$signal before any write ends the run at once with exit $code, releasing the lock', async ({ signal, code }) => {
    const fleet: Fleet = { prefix: `E2E Early ${signal}`, campaigns: 1, lineItems: 1, keywords: 1, posts: 1 };
    const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
    workspaces.push(ws);
    // the gate holds the refresh's first read: the run holds the lock and has sent nothing
    const gate = await startGateProxy(emulator.info.base_url);
    const run = ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
    let ended: CliRun;
    try {
      await gate.firstRequest;
      expect(existsSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.lock`))).toBe(true);
      run.child.kill(signal);
      ended = await run.done;
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
      await gate.close();
    }
    expect(ended.code, transcript(ended)).toBe(code);
    expect(ended.stderr).toContain('Interrupted: no change was made.');
    expect(existsSync(join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.lock`))).toBe(false);
    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(2);
    expect(plan.stderr).not.toContain('took over');
  });

  it('a second SIGINT ends the run at once, and the next apply adopts what the unanswered writes created', async () => {
    const fleet: Fleet = { prefix: 'E2E Twice', campaigns: 10, lineItems: 2, keywords: 1, posts: 2 };
    const ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', fleet));
    workspaces.push(ws);
    const stateDir = join(ws.dir, '.adsctl', 'state');
    const gate = await startAnswerGate(emulator.info.base_url, (write) => write.path.endsWith('/promoted_tweets'));
    let stopped: CliRun;
    const run = ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
    const ended = (): boolean => run.child.exitCode !== null || run.child.signalCode !== null;
    try {
      await waitUntil('a write in flight', () => ended() || gate.held() > 0);
      run.child.kill('SIGINT');
      await waitUntil('the run to acknowledge the signal', () => ended() || /Interrupt received/.test(run.stderr()));
      run.child.kill('SIGINT');
      stopped = await run.done;
    } finally {
      if (!ended()) run.child.kill('SIGKILL');
      await gate.close();
    }
    expect(stopped.code, transcript(stopped)).toBe(130);
    expect(stopped.stderr).toContain('Interrupted again: stopping at once.');
    expect(existsSync(join(stateDir, `${ACCOUNT}.lock`))).toBe(false);
    expect(readFileSync(join(stateDir, `${ACCOUNT}.journal`), 'utf8')).toContain('promoted_posts');

    const rerun = await ws.run(['apply', '--auto-approve']);
    expect(rerun.code, transcript(rerun)).toBe(0);
    const bound = parseStateList((await ws.run(['state', 'list'])).stdout);
    expect(await fleetProblems(client, ACCOUNT, fleet, bound)).toEqual([]);
    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(0);
  });
});
