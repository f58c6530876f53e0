/**
 * When the beats' thread starts (src/state/lock-heartbeat.ts): a quarter of the first lock's
 * interval after it is taken, so a run released sooner starts no thread at all; at once when the
 * engine says the run is large (`beatNow`). Timers are
 * faked: the start is a timer the test reads, never a race with a real one. Each test loads the
 * module afresh (the thread is one per module instance, and unit test files share modules).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let dir: string;
let startHeartbeat: typeof import('../../src/state/lock-heartbeat.js').startHeartbeat;
let beatNow: typeof import('../../src/state/lock-heartbeat.js').beatNow;
beforeEach(async () => {
  vi.resetModules();
  ({ startHeartbeat, beatNow } = await import('../../src/state/lock-heartbeat.js'));
  dir = mkdtempSync(join(tmpdir(), 'adsctl-heartbeat-'));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const lockFile = (name: string): string => {
  const path = join(dir, `${name}.lock`);
  writeFileSync(path, JSON.stringify({ id: name, heartbeat: '00000000-0000-4000-8000-000000000000' }));
  return path;
};

describe('the start of the beats', () => {
  it.each([
    { name: 'one lock released at once', locks: ['a'], releasedBefore: ['a'], timersAfter: 0 },
    { name: 'two locks, both released before the start', locks: ['a', 'b'], releasedBefore: ['b', 'a'], timersAfter: 0 },
    { name: 'two locks, one still held', locks: ['a', 'b'], releasedBefore: ['a'], timersAfter: 1 },
  ])('$name: one start pending while a lock waits, none once all are released', ({ locks, releasedBefore, timersAfter }) => {
    const beats = new Map(locks.map((name) => [name, startHeartbeat(lockFile(name), name, 2_000, () => undefined)]));
    // one timer for every lock taken before the start, due at a quarter of the interval
    expect(vi.getTimerCount()).toBe(1);
    const released: string[] = [];
    for (const name of releasedBefore) beats.get(name)!.stop(() => released.push(name));
    expect(released).toEqual(releasedBefore);
    expect(vi.getTimerCount()).toBe(timersAfter);
    for (const name of locks.filter((n) => !releasedBefore.includes(n))) beats.get(name)!.stop(() => released.push(name));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts the thread at once when told the run is large (beatNow), and does nothing without a lock waiting', () => {
    beatNow();
    expect(vi.getTimerCount()).toBe(0);
    const lock = startHeartbeat(lockFile('a'), 'a', 2_000, () => undefined);
    expect(vi.getTimerCount()).toBe(1);
    beatNow();
    // the start is no longer pending: the thread runs, and a lock taken now goes to it
    expect(vi.getTimerCount()).toBe(0);
    const next = startHeartbeat(lockFile('b'), 'b', 2_000, () => undefined);
    expect(vi.getTimerCount()).toBe(0);
    const released: string[] = [];
    next.stop(() => released.push('b'));
    lock.stop(() => released.push('a'));
    expect(released).toEqual(['b', 'a']);
  });

  it('starts the thread at a quarter of the interval, and a lock taken after it goes to that thread', () => {
    const first = startHeartbeat(lockFile('a'), 'a', 2_000, () => undefined);
    vi.advanceTimersByTime(499);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(vi.getTimerCount()).toBe(0);
    const second = startHeartbeat(lockFile('b'), 'b', 2_000, () => undefined);
    // the thread runs: no start is pending for the second lock
    expect(vi.getTimerCount()).toBe(0);
    const released: string[] = [];
    second.stop(() => released.push('b'));
    first.stop(() => released.push('a'));
    expect(released).toEqual(['b', 'a']);
  });
});
