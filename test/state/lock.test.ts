/**
 * The state lock (src/state/lock.ts): a lock left by a process gone from this host is taken over
 * and reported; a live holder, or one on another host, is waited for and then named; a holder in
 * another pid namespace or boot is judged by its heartbeat, on an injected clock; a damaged
 * lock file gets an id that force-unlock accepts. Taking a lock removes the temporary files runs
 * killed mid-write left (src/state/leftovers.ts). A lock whose file is removed or replaced while
 * it is held is lost: its `lost` signal aborts, and the local store writes nothing more for it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, forceUnlock, lockPath, type Lock, type LockInfo } from '../../src/state/lock.js';
import { HEARTBEAT_MS, HEARTBEAT_STALE_MS, hostFacts, type HostFacts } from '../../src/state/lock-holder.js';
import { LocalStore } from '../../src/state/local-store.js';
import { LockLostError } from '../../src/state/lock-lost.js';
import { emptyState } from '../../src/state/state-file.js';

const ACCOUNT = '18ce54d4x5t';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

function leave(info: Partial<LockInfo>): LockInfo {
  const full: LockInfo = { id: 'left-behind', holder: `ci@${hostname()}`, pid: deadPid(), created_at: '2027-01-01T00:00:00.000Z', operation: 'apply', ...info };
  writeFileSync(lockPath(dir, ACCOUNT), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

function granted(result: Lock | { heldBy: LockInfo }): Lock {
  if ('heldBy' in result) throw new Error(`lock refused: held by ${JSON.stringify(result.heldBy)}`);
  return result;
}

describe('acquireLock', () => {
  it('takes the lock, writes who holds it, and removes it on release, leaving only the generation granted', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'plan', 0));
    expect(JSON.parse(readFileSync(lockPath(dir, ACCOUNT), 'utf8'))).toEqual(lock.info);
    expect(lock.info).toMatchObject({ pid: process.pid, operation: 'plan', generation: 1 });
    expect(lock.tookOver).toBeUndefined();
    expect(readdirSync(dir).sort()).toEqual([`${ACCOUNT}.generation`, `${ACCOUNT}.lock`]);
    lock.release();
    expect(readdirSync(dir)).toEqual([`${ACCOUNT}.generation`]);
  });

  it('refuses, naming the holder, while a run of this process holds it', async () => {
    const first = granted(await acquireLock(dir, ACCOUNT, 'apply', 0));
    const second = await acquireLock(dir, ACCOUNT, 'plan', 50);
    expect(second).toEqual({ heldBy: first.info });
    first.release();
    granted(await acquireLock(dir, ACCOUNT, 'plan', 0)).release();
  });

  it('takes over a lock whose holder is gone from this host, and says whose it was', async () => {
    const left = leave({});
    const lock = granted(await acquireLock(dir, ACCOUNT, 'plan', 0));
    expect(lock.tookOver).toEqual(left);
    expect(JSON.parse(readFileSync(lockPath(dir, ACCOUNT), 'utf8'))).toEqual(lock.info);
    lock.release();
    expect(existsSync(lockPath(dir, ACCOUNT))).toBe(false);
  });

  it('takes over a lock naming this process but none of its locks (an earlier process with the same pid)', async () => {
    const left = leave({ pid: process.pid });
    expect(granted(await acquireLock(dir, ACCOUNT, 'plan', 0)).tookOver).toEqual(left);
  });

  it('does not judge a lock of another host: it is refused, naming it', async () => {
    const left = leave({ holder: 'ci@build-agent-7.example.net' });
    expect(await acquireLock(dir, ACCOUNT, 'plan', 0)).toEqual({ heldBy: left });
    expect(JSON.parse(readFileSync(lockPath(dir, ACCOUNT), 'utf8'))).toEqual(left);
  });

  it('does not take over a lock whose holder is alive on this host', async () => {
    const left = leave({ pid: process.ppid });
    expect(await acquireLock(dir, ACCOUNT, 'plan', 0)).toEqual({ heldBy: left });
  });
});

describe('a lock held in another pid namespace or boot', () => {
  const here = hostFacts();
  /** The judge: this host, in a pid namespace of its own. */
  const facts: HostFacts = { ...here, process: { boot_id: 'boot-a', pid_ns: 'pid:[1]', start_time: '100' } };
  const start = Date.now();

  /**
   * A holder that is pid 1 of `process` and beats until `beatsUntil` (fake ms after the start),
   * and a clock that moves only when the acquirer sleeps.
   */
  function holder(process: LockInfo['process'], beatsUntil: number): { left: LockInfo; options: Parameters<typeof acquireLock>[4]; elapsed: () => number } {
    let now = start;
    const left: LockInfo = { id: 'held-elsewhere', holder: `ci@${hostname()}`, pid: 1, created_at: '2027-01-01T00:00:00.000Z', operation: 'apply', process, heartbeat: 'beat-0' };
    const write = (beat: number): void => {
      writeFileSync(lockPath(dir, ACCOUNT), `${JSON.stringify({ ...left, heartbeat: `beat-${beat}` }, null, 2)}\n`);
      utimesSync(lockPath(dir, ACCOUNT), now / 1000, now / 1000);
    };
    write(0);
    let beat = 0;
    const sleep = (ms: number): Promise<void> => {
      now += ms;
      if (now - start <= beatsUntil && now - start >= (beat + 1) * HEARTBEAT_MS) write(++beat);
      return Promise.resolve();
    };
    return { left, options: { now: () => now, sleep, facts, heartbeatMs: false }, elapsed: () => now - start };
  }

  it('is never taken over while its heartbeat moves, though its pid is 1 like ours', async () => {
    const { left, options } = holder({ boot_id: 'boot-a', pid_ns: 'pid:[2]', start_time: '100' }, Infinity);
    const refused = await acquireLock(dir, ACCOUNT, 'plan', 60_000, options);
    expect(refused).toMatchObject({ heldBy: { id: left.id } });
  });

  it('is taken over once its heartbeat has stood still for the bound, and not before', async () => {
    const { left, options, elapsed } = holder({ boot_id: 'boot-a', pid_ns: 'pid:[2]', start_time: '100' }, 4 * HEARTBEAT_MS);
    expect(await acquireLock(dir, ACCOUNT, 'plan', HEARTBEAT_STALE_MS, options)).toMatchObject({ heldBy: { id: left.id } });
    const lock = granted(await acquireLock(dir, ACCOUNT, 'plan', 60_000, options));
    expect(lock.tookOver?.id).toBe(left.id);
    expect(lock.tookOverBecause).toMatch(/another pid namespace or boot, and its heartbeat has not moved for \d+ s/);
    expect(elapsed()).toBeGreaterThanOrEqual(4 * HEARTBEAT_MS + HEARTBEAT_STALE_MS);
    lock.release();
  });

  it('of this boot, whose clock is ours, counts from when its file was written', async () => {
    const { left, options } = holder({ boot_id: 'boot-a', pid_ns: 'pid:[2]', start_time: '100' }, -1);
    utimesSync(lockPath(dir, ACCOUNT), (start - HEARTBEAT_STALE_MS) / 1000, (start - HEARTBEAT_STALE_MS) / 1000);
    expect(granted(await acquireLock(dir, ACCOUNT, 'plan', 0, options)).tookOver?.id).toBe(left.id);
  });

  it('of another boot, whose clock may differ, counts only from when this run saw it', async () => {
    const { left, options, elapsed } = holder({ boot_id: 'boot-b', pid_ns: 'pid:[1]', start_time: '100' }, -1);
    utimesSync(lockPath(dir, ACCOUNT), (start - 3_600_000) / 1000, (start - 3_600_000) / 1000);
    expect(await acquireLock(dir, ACCOUNT, 'plan', 0, options)).toMatchObject({ heldBy: { id: left.id } });
    expect(granted(await acquireLock(dir, ACCOUNT, 'plan', 60_000, options)).tookOver?.id).toBe(left.id);
    expect(elapsed()).toBeGreaterThanOrEqual(HEARTBEAT_STALE_MS);
  });
});

describe('the heartbeat of a held lock', () => {
  it('rewrites its random id in the lock file, and stops with the release, leaving no lock file', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: 20 }));
    const beat = (): string | undefined => (existsSync(lockPath(dir, ACCOUNT)) ? (JSON.parse(readFileSync(lockPath(dir, ACCOUNT), 'utf8')) as LockInfo).heartbeat : undefined);
    const first = beat();
    const until = Date.now() + 5_000;
    while (beat() === first && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(beat()).not.toBe(first);
    expect(JSON.parse(readFileSync(lockPath(dir, ACCOUNT), 'utf8'))).toMatchObject({ id: lock.info.id, pid: process.pid, process: lock.info.process });
    lock.release();
    await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(dir)).toEqual([`${ACCOUNT}.generation`]);
  });
});

describe('a held lock whose file is removed or replaced', () => {
  /** Resolves with the reason `signal` is aborted with. */
  const abortReason = (signal: AbortSignal): Promise<unknown> => new Promise((resolve) => (signal.aborted ? resolve(signal.reason) : signal.addEventListener('abort', () => resolve(signal.reason), { once: true })));
  const other: LockInfo = { id: 'taken-by-hand', holder: 'ops@elsewhere', pid: 4321, created_at: '2027-01-01T00:00:00.000Z', operation: 'apply' };

  it.each([
    { how: 'removed (force-unlock --force)', heartbeatMs: false as const, change: () => rmSync(lockPath(dir, ACCOUNT)), why: 'its file was removed' },
    { how: 'replaced by another lock', heartbeatMs: false as const, change: () => writeFileSync(lockPath(dir, ACCOUNT), JSON.stringify(other)), why: 'its file now names lock taken-by-hand of ops@elsewhere' },
    { how: 'removed, seen by the heartbeat too', heartbeatMs: 20, change: () => rmSync(lockPath(dir, ACCOUNT)), why: 'its file was removed' },
  ])('is lost when its file is $how: `lost` aborts with a LockLostError naming the account', async ({ heartbeatMs, change, why }) => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs }));
    expect(lock.lost.aborted).toBe(false);
    change();
    const reason = await abortReason(lock.lost);
    expect(reason).toBeInstanceOf(LockLostError);
    expect((reason as Error).message).toBe(`the state lock of account ${ACCOUNT} in ${dir} was lost: ${why} while this run held it`);
    lock.release();
  });

  it('is not lost by its own heartbeats and release', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: 10 }));
    const path = lockPath(dir, ACCOUNT);
    const first = readFileSync(path, 'utf8');
    while (readFileSync(path, 'utf8') === first) await new Promise((r) => setTimeout(r, 5));
    lock.release();
    expect(lock.lost.aborted).toBe(false);
  });

  it('stops the local store writing the state and the journal of its account', async () => {
    const store = new LocalStore(dir, join(dir, 'cache'));
    const lock = await store.lock(ACCOUNT, 'apply', 0);
    if ('heldBy' in lock) throw new Error('lock refused');
    const state = emptyState(ACCOUNT, 'http://127.0.0.1:1');
    await store.write(state, 'apply');
    const journal = await store.openJournal(ACCOUNT);
    rmSync(lockPath(dir, ACCOUNT));
    await abortReason(lock.lost!);
    await expect(store.write(state, 'apply')).rejects.toThrow(LockLostError);
    await expect(store.checkpoint(state, 'apply', false)).rejects.toThrow(LockLostError);
    await expect(journal.append({ done: 1 })).rejects.toThrow(LockLostError);
    await expect(store.clearJournal(ACCOUNT)).rejects.toThrow(LockLostError);
    await lock.release();
    // a lock taken afresh writes again
    const again = await store.lock(ACCOUNT, 'apply', 0);
    if ('heldBy' in again) throw new Error('lock refused');
    await store.write(state, 'apply');
    await again.release();
  });
});

describe('a damaged lock file', () => {
  it.each([
    { name: 'empty', text: '', problem: 'it is empty' },
    { name: 'not JSON', text: '{"id": "4f1c', problem: 'it is not JSON' },
    { name: 'null', text: 'null', problem: 'it is not a lock adsctl wrote' },
    { name: 'without a pid', text: '{"id":"x","holder":"a@b","created_at":"","operation":"apply"}', problem: 'it is not a lock adsctl wrote' },
  ])('($name) is refused with an id that force-unlock removes', async ({ text, problem }) => {
    writeFileSync(lockPath(dir, ACCOUNT), text);
    const refused = await acquireLock(dir, ACCOUNT, 'plan', 0);
    expect(refused).toEqual({ heldBy: { id: `damaged-${ACCOUNT}`, holder: 'unknown', pid: 0, created_at: '', operation: '', damaged: { problem, file: lockPath(dir, ACCOUNT) } } });
    expect(forceUnlock(dir, 'unknown-id', false)).toBeUndefined();
    expect(forceUnlock(dir, `damaged-${ACCOUNT}`, false)).toMatchObject({ removed: { damaged: { problem } } });
    expect(existsSync(lockPath(dir, ACCOUNT))).toBe(false);
  });
});

describe('forceUnlock', () => {
  it.each([
    { name: 'a holder still running on this host', holder: () => ({ pid: process.ppid }), force: false, removed: false },
    { name: 'a holder still running on this host, with --force', holder: () => ({ pid: process.ppid }), force: true, removed: true },
    { name: 'a holder gone from this host', holder: () => ({}), force: false, removed: true },
    { name: 'a holder on another host', holder: () => ({ holder: 'ci@another-host', pid: process.ppid }), force: false, removed: true },
  ])('$name: removed $removed', ({ holder, force, removed }) => {
    const left = leave(holder());
    const outcome = forceUnlock(dir, left.id, force);
    expect(outcome).toEqual(removed ? { removed: left } : { live: left, why: `process ${left.pid} of this host is still running` });
    expect(existsSync(lockPath(dir, ACCOUNT))).toBe(!removed);
  });

  it.each([
    { name: 'a live holder, this run being pid 1 too', age: HEARTBEAT_MS, removed: false },
    { name: 'a holder whose heartbeat stopped', age: HEARTBEAT_STALE_MS, removed: true },
  ])('in another pid namespace of this machine, $name: removed $removed', ({ age, removed }) => {
    const here = hostFacts();
    const facts: HostFacts = { ...here, pid: 1, process: { ...here.process, boot_id: 'boot-a', pid_ns: 'pid:[1]' } };
    const left = leave({ pid: 1, process: { boot_id: 'boot-a', pid_ns: 'pid:[2]', start_time: '100' }, heartbeat: 'beat' });
    const written = Date.now();
    utimesSync(lockPath(dir, ACCOUNT), written / 1000, written / 1000);
    const outcome = forceUnlock(dir, left.id, false, { facts, now: () => written + age });
    expect(outcome).toEqual(removed ? { removed: left } : { live: left, why: expect.stringContaining('in another pid namespace of this machine') });
    expect(existsSync(lockPath(dir, ACCOUNT))).toBe(!removed);
  });
});

describe('temporary files left by killed runs', () => {
  it('are removed by the run that takes the lock of their account; those of other accounts and of live processes stay', async () => {
    const files = {
      [`${ACCOUNT}.json.tmp-${deadPid()}`]: false,
      [`${ACCOUNT}.json.tmp-${process.ppid}`]: false,
      [`${ACCOUNT}.lock.tmp-${deadPid()}`]: false,
      [`${ACCOUNT}.lock.old.tmp-${deadPid()}`]: false,
      [`${ACCOUNT}.lock.tmp-${process.ppid}`]: true,
      [`other.json.tmp-${deadPid()}`]: true,
      [`${ACCOUNT}.json`]: true,
    };
    for (const name of Object.keys(files)) writeFileSync(join(dir, name), '{');
    granted(await acquireLock(dir, ACCOUNT, 'apply', 0)).release();
    expect(readdirSync(dir).sort()).toEqual([...Object.keys(files).filter((f) => files[f]), `${ACCOUNT}.generation`].sort());
  });
});
