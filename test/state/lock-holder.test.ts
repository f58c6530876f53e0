/**
 * "Is the holder of this lock gone?" (src/state/lock-holder.ts), decided from injected facts: the
 * judge's boot, pid namespace and processes, and how long the holder's heartbeat has stood still.
 * A pid is believed only within one boot and one pid namespace, and there with its start time; a
 * holder anywhere else is gone only once its heartbeat is stale; a lock file of the old format is
 * judged as before, by host and pid.
 */
import { describe, expect, it } from 'vitest';
import { HEARTBEAT_MS, HEARTBEAT_STALE_MS, holderAlive, judgeHolder, processStartTime, type HostFacts } from '../../src/state/lock-holder.js';
import type { LockInfo, LockProcess } from '../../src/state/store.js';

const BOOT = '80df4552-51eb-40c2-a6d4-3b4348d747ae';
const NS = 'pid:[4026531836]';
const HERE: LockProcess = { boot_id: BOOT, pid_ns: NS, start_time: '5000' };

/** The judge: pid 1 in its namespace, with pid 40 started at tick 700 and pid 41 at tick 900. */
const facts: HostFacts = {
  host: 'runner',
  pid: 1,
  process: HERE,
  startTime: (pid) => ({ 1: '5000', 40: '700', 41: '900' })[pid],
  exists: (pid) => [1, 40, 41].includes(pid),
};

/** A lock held by `pid` of `process` (undefined: the old format). */
const lock = (pid: number, process: LockProcess | undefined, holder = 'ci@runner'): LockInfo => ({
  id: `lock-${pid}`,
  holder,
  pid,
  created_at: '2027-01-01T00:00:00.000Z',
  operation: 'apply',
  ...(process === undefined ? {} : { process, heartbeat: 'beat' }),
});

const OTHER_NS: LockProcess = { boot_id: BOOT, pid_ns: 'pid:[4026532178]', start_time: '5000' };
const OTHER_BOOT: LockProcess = { boot_id: '0b7e1d7c-0000-4000-8000-000000000000', pid_ns: NS, start_time: '700' };

describe('judgeHolder', () => {
  it.each([
    // same boot and pid namespace: the pid and its start time decide, the heartbeat does not matter
    { case: 'same namespace, pid running with its start time', info: lock(40, { ...HERE, start_time: '700' }), quiet: 60_000, gone: false },
    { case: 'same namespace, no such pid', info: lock(77, { ...HERE, start_time: '700' }), quiet: 0, gone: true },
    { case: 'same namespace, pid reused by a later process', info: lock(41, { ...HERE, start_time: '700' }), quiet: 0, gone: true },
    { case: 'same namespace, this pid but not one of its locks', info: lock(1, { ...HERE, start_time: '4000' }), quiet: 0, gone: true },
    // another pid namespace (containers sharing a directory and a hostname): only the heartbeat
    { case: 'another namespace, pid 1 like the judge, heartbeat fresh', info: lock(1, OTHER_NS), quiet: 0, gone: false },
    { case: 'another namespace, a pid the judge has not, heartbeat fresh', info: lock(77, OTHER_NS), quiet: HEARTBEAT_MS, gone: false },
    { case: 'another namespace, heartbeat still just under the bound', info: lock(1, OTHER_NS), quiet: HEARTBEAT_STALE_MS - 1, gone: false },
    { case: 'another namespace, heartbeat stale', info: lock(1, OTHER_NS), quiet: HEARTBEAT_STALE_MS, gone: true },
    { case: 'another boot, no such pid here, heartbeat fresh', info: lock(77, OTHER_BOOT), quiet: 0, gone: false },
    { case: 'another boot, heartbeat stale', info: lock(40, OTHER_BOOT), quiet: HEARTBEAT_STALE_MS + 1, gone: true },
    { case: 'a holder that could not name its namespace, heartbeat fresh', info: lock(77, { start_time: '1' }), quiet: 0, gone: false },
    { case: 'another host, heartbeat stale', info: lock(40, OTHER_BOOT, 'ci@elsewhere'), quiet: HEARTBEAT_STALE_MS, gone: true },
    // the old format: host and pid, as before
    { case: 'old format, this host, pid running', info: lock(40, undefined), quiet: 60_000, gone: false },
    { case: 'old format, this host, no such pid', info: lock(77, undefined), quiet: 0, gone: true },
    { case: 'old format, this pid but not one of its locks', info: lock(1, undefined), quiet: 0, gone: true },
    { case: 'old format, another host', info: lock(77, undefined, 'ci@elsewhere'), quiet: 60_000, gone: false },
    { case: 'no pid', info: lock(0, HERE), quiet: 60_000, gone: false },
  ])('$case: gone $gone', ({ info, quiet, gone }) => {
    const verdict = judgeHolder(info, facts, new Set(), quiet);
    expect(verdict !== undefined, verdict).toBe(gone);
  });

  it('never counts a lock this process holds as gone', () => {
    expect(judgeHolder(lock(1, HERE), facts, new Set(['lock-1']), 60_000)).toBeUndefined();
    expect(judgeHolder(lock(1, undefined), facts, new Set(['lock-1']), 60_000)).toBeUndefined();
  });

  it('says why a holder is gone', () => {
    expect(judgeHolder(lock(41, { ...HERE, start_time: '700' }), facts, new Set(), 0)).toBe('pid 41 is another process now (it started at another time)');
    expect(judgeHolder(lock(1, OTHER_NS), facts, new Set(), 12_000)).toBe('it runs in another pid namespace or boot, and its heartbeat has not moved for 12 s');
  });

  it('the stale bound is three heartbeats and a margin', () => {
    expect(HEARTBEAT_STALE_MS).toBeGreaterThan(3 * HEARTBEAT_MS);
  });
});

describe('holderAlive (what force-unlock refuses to break without --force)', () => {
  it.each([
    { case: 'same namespace, pid running with its start time', info: lock(40, { ...HERE, start_time: '700' }), age: 60_000, alive: true },
    { case: 'same namespace, pid reused by a later process', info: lock(41, { ...HERE, start_time: '700' }), age: 0, alive: false },
    { case: 'same namespace, no such pid', info: lock(77, HERE), age: 0, alive: false },
    { case: 'this very process', info: lock(1, HERE), age: 0, alive: false },
    { case: 'another namespace of this boot, heartbeat fresh, pid 1 like ours', info: lock(1, OTHER_NS), age: HEARTBEAT_MS, alive: true },
    { case: 'another namespace of this boot, heartbeat stale', info: lock(1, OTHER_NS), age: HEARTBEAT_STALE_MS, alive: false },
    { case: 'another boot: its clock is not ours', info: lock(40, OTHER_BOOT), age: 0, alive: false },
    { case: 'old format, this host, pid running', info: lock(40, undefined), age: 60_000, alive: true },
    { case: 'old format, this host, no such pid', info: lock(77, undefined), age: 0, alive: false },
    { case: 'old format, another host', info: lock(40, undefined, 'ci@elsewhere'), age: 0, alive: false },
  ])('$case: alive $alive', ({ info, age, alive }) => {
    const why = holderAlive(info, facts, age);
    expect(why !== undefined, why).toBe(alive);
  });
});

describe('processStartTime', () => {
  it.skipIf(process.platform !== 'linux')('reads field 22 of /proc/PID/stat, and nothing for a pid no process has', () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(processStartTime(process.pid));
    expect(processStartTime(2 ** 22 + 1)).toBeUndefined();
  });
});
