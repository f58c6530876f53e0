/**
 * `exitOnInterrupt` (src/cli/interrupt.ts) in a real process of the sources, bundled: holding a state
 * lock, a signal ends it at once with 130 or 143 and leaves no lock behind; while a run watches the
 * signals itself (an apply stopping cleanly), it leaves them to that run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleSources } from '../support/bundle-sources.js';
import { waitUntil } from '../support/e2e.js';

const built = mkdtempSync(join(tmpdir(), 'adsctl-interrupt-build-'));
let SCRIPT = '';
beforeAll(async () => {
  const modules = await bundleSources(built, {
    'src/cli/early-exit.ts': ['guardLocksIn', 'releaseOnExit'],
    'src/cli/interrupt.ts': ['exitOnInterrupt', 'watchInterrupts'],
    'src/state/lock.ts': ['acquireLock', 'releaseOwnLocks'],
  });
  SCRIPT = script(modules);
});
afterAll(() => rmSync(built, { recursive: true, force: true }));

/** Takes the lock of account `acct` in `dir`, says `locked`, and waits; with `watch`, an apply watches the signals. */
const script = (modules: string): string => `
import { acquireLock, exitOnInterrupt, guardLocksIn, releaseOnExit, releaseOwnLocks, watchInterrupts } from '${modules}';
const [dir, watch] = process.argv.slice(1);
guardLocksIn(dir);
releaseOnExit(releaseOwnLocks);
exitOnInterrupt((text) => process.stderr.write(text));
await acquireLock(dir, 'acct', 'plan', 0);
if (watch === 'watch') watchInterrupts((text) => process.stderr.write(text)).drain().addEventListener('abort', () => process.stderr.write('stopping\\n'));
process.stdout.write('locked\\n');
setInterval(() => {}, 1000);
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-interrupt-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function start(watch: boolean): { child: ReturnType<typeof spawn>; out: () => string; err: () => string; done: Promise<number | null> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, dir, watch ? 'watch' : ''], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, done };
}

describe('exitOnInterrupt', () => {
  it.each([
    { signal: 'SIGINT', code: 130 },
    { signal: 'SIGTERM', code: 143 },
  ] as const)('$signal ends a process holding a lock with $code, and the lock is gone', async ({ signal, code }) => {
    const run = start(false);
    await waitUntil('the lock', () => run.out().includes('locked') || run.child.exitCode !== null);
    expect(existsSync(join(dir, 'acct.lock')), run.err()).toBe(true);
    run.child.kill(signal);
    expect(await run.done, run.err()).toBe(code);
    expect(run.err()).toContain('Interrupted.');
    expect(existsSync(join(dir, 'acct.lock'))).toBe(false);
  });

  it('leaves the first signal to a run that watches it, and the second ends the process', async () => {
    const run = start(true);
    await waitUntil('the lock', () => run.out().includes('locked') || run.child.exitCode !== null);
    run.child.kill('SIGINT');
    await waitUntil('the watching run to stop', () => run.err().includes('stopping') || run.child.exitCode !== null);
    expect(run.child.exitCode).toBeNull();
    expect(run.err()).not.toContain('Interrupted.');
    run.child.kill('SIGINT');
    expect(await run.done).toBe(130);
    expect(run.err()).toContain('Interrupted again');
    expect(existsSync(join(dir, 'acct.lock'))).toBe(false);
  });
});
