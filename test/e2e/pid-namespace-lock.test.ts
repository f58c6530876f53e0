/**
 * Two containers sharing a state directory and a hostname, each running adsctl as pid 1 of its own
 * pid namespace (`unshare --pid --fork --mount-proc`). The second run must not take the lock over
 * while the first still holds it: the pid says nothing across namespaces, and the first run's
 * heartbeat keeps moving for longer than the stale bound the second waits through
 * (`--lock-timeout`), so the second fails naming the holder. Once the first ends, a plan runs at
 * once. Skipped where `unshare` is missing or not allowed (it needs root or user namespaces).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { HEARTBEAT_STALE_MS } from '../../src/state/lock-holder.js';
import type { LockInfo } from '../../src/state/store.js';
import { BIN } from '../support/cli.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, transcript, type Workspace } from '../support/e2e.js';
import { fleetManifest } from '../support/fleet.js';
import { startGateProxy } from '../support/gate-proxy.js';
import type { CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';
const UNSHARE = ['--pid', '--fork', '--mount-proc', '--kill-child'];

/** Why the test cannot run here, or undefined when `unshare` makes a pid namespace. */
const unavailable = ((): string | undefined => {
  if (process.platform !== 'linux') return 'pid namespaces exist only on Linux';
  const probe = spawnSync('unshare', [...UNSHARE, 'sh', '-c', 'echo $$'], { encoding: 'utf8' });
  if (probe.error !== undefined) return `unshare cannot be run: ${probe.error.message}`;
  if (probe.status !== 0 || probe.stdout.trim() !== '1') return `unshare cannot make a pid namespace here (exit ${String(probe.status)}: ${probe.stderr.trim()})`;
  return undefined;
})();

let emulator: RunningEmulator;
let ws: Workspace;

beforeEach(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', { prefix: 'E2E Namespaces', campaigns: 1, lineItems: 1, keywords: 1, posts: 1 }));
});
afterEach(async () => {
  await emulator.close();
  ws.remove();
});

/** `adsctl ...args` as pid 1 of a new pid namespace, in the workspace. */
function inNamespace(args: string[], env: NodeJS.ProcessEnv = {}): { done: Promise<CliRun>; kill: () => void } {
  const child = spawn('unshare', [...UNSHARE, process.execPath, BIN, ...args], {
    cwd: ws.dir,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...ws.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { done, kill: () => child.kill('SIGKILL') };
}

describe.skipIf(unavailable !== undefined)(`the local lock across pid namespaces${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`, () => {
  it('a run that is pid 1 of another namespace waits for the lock of a live pid 1, and never takes it over', async () => {
    const lockFile = join(ws.dir, '.adsctl', 'state', `${ACCOUNT}.lock`);
    // the first run's reads are held at a gate: it holds the lock, in its own pid namespace, as pid 1
    const gate = await startGateProxy(emulator.info.base_url);
    const first = inNamespace(['plan'], { ADSCTL_ENDPOINT: gate.url });
    let second: CliRun;
    try {
      await gate.firstRequest;
      const held = JSON.parse(readFileSync(lockFile, 'utf8')) as LockInfo;
      expect(held.pid).toBe(1);
      expect(held.process?.pid_ns).not.toBe(readlinkSync('/proc/self/ns/pid'));

      // the second waits past the stale bound: the heartbeat of the first keeps moving
      const timeoutS = Math.ceil(HEARTBEAT_STALE_MS / 1000) + 2;
      second = await inNamespace(['plan', '--lock-timeout', `${timeoutS}s`]).done;
      expect(second.code, transcript(second)).toBe(1);
      expect(second.stderr).toContain(`the state of account ${ACCOUNT} is locked by`);
      expect(second.stderr).toContain(`lock id ${held.id}`);
      expect(second.stderr).not.toContain('took over');
      expect((JSON.parse(readFileSync(lockFile, 'utf8')) as LockInfo).id).toBe(held.id);
    } finally {
      gate.open();
    }
    const firstRun = await first.done;
    await gate.close();
    expect(firstRun.code, transcript(firstRun)).toBe(0);
    expect(firstRun.stdout).toContain('Plan: ');
    expect(existsSync(lockFile)).toBe(false);

    const next = await inNamespace(['plan']).done;
    expect(next.code, transcript(next)).toBe(0);
    expect(next.stderr).not.toContain('took over');
  }, 60_000);
});
