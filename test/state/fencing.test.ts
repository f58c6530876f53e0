/**
 * Fencing of the local state (src/state/lock.ts, write-atomic.ts, journal.ts, leftovers.ts): a
 * holder whose lock another run took over writes nothing more, whatever its timers believe. Each
 * case stands in for a holder stopped (SIGSTOP, a frozen container) at one exact moment — before
 * a write, between its check and its rename, with its journal open, between a heartbeat's read and
 * its write — while another run takes the lock over, as that run does it: its lock file linked in
 * place, the temporary files it finds removed, the journal given a file of its own.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeHead } from '../../src/state/journal-record.js';
import { JournalFile, journalPath, rotateJournalFile } from '../../src/state/journal.js';
import { removeLeftovers } from '../../src/state/leftovers.js';
import { LocalStore } from '../../src/state/local-store.js';
import { acquireLock, DEFAULT_REQUEST_TIMEOUT_MS, forceUnlock, lockPath, type Lock, type LockInfo } from '../../src/state/lock.js';
import { hostFacts } from '../../src/state/lock-holder.js';
import { LockLostError } from '../../src/state/lock-lost.js';
import { emptyState, statePath } from '../../src/state/state-file.js';
import { TMP_SUFFIX, writeFileAtomic } from '../../src/state/write-atomic.js';
import { forgetUploaded, recordUploaded } from '../../src/members/membership.js';
import { memberSetOf } from '../../src/members/sets/member-builder.js';
import { membersStoreOf } from '../../src/members/store-path.js';

const ACCOUNT = '18ce54d4x5t';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-fence-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function granted(result: Lock | { heldBy: LockInfo }): Lock {
  if ('heldBy' in result) throw new Error(`lock refused: held by ${JSON.stringify(result.heldBy)}`);
  return result;
}

/** Another run takes the lock over as `acquireLock` does: its own lock file linked in place (a new file), then the temporary files it finds removed. */
function takeOver(generation: number): LockInfo {
  const info: LockInfo = { id: 'next-holder', holder: 'ci@elsewhere', pid: 4242, created_at: '2026-11-23T12:00:00.000Z', operation: 'apply', heartbeat: '00000000-0000-4000-8000-000000000000', generation };
  const aside = `${lockPath(dir, ACCOUNT)}.tmp-4242-0a0b0c0d`;
  writeFileSync(aside, `${JSON.stringify(info, null, 2)}\n`);
  renameSync(aside, lockPath(dir, ACCOUNT));
  // the new holder's own temporary files carry its tag; this process's are what it finds left
  for (const name of readdirSync(dir)) if (name.includes(TMP_SUFFIX)) rmSync(join(dir, name), { force: true });
  removeLeftovers(dir, ACCOUNT);
  rotateJournalFile(journalPath(dir, ACCOUNT));
  return info;
}

describe('the generation of a lock', () => {
  it('grows with every acquisition, and past the generation of a lock taken over', async () => {
    const first = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false }));
    first.release();
    const second = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false }));
    expect([first.info.generation, second.info.generation]).toEqual([1, 2]);
    second.release();
    // a lock of a later generation, left by a process that is gone, with no record beside it
    rmSync(join(dir, `${ACCOUNT}.generation`));
    writeFileSync(lockPath(dir, ACCOUNT), JSON.stringify({ id: 'gone', holder: 'ci@x', pid: 2 ** 22 + 7, created_at: '', operation: 'apply', generation: 7 }));
    const third = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false, facts: { host: 'x', pid: 1, process: {}, startTime: () => undefined, exists: () => false } }));
    expect(third.tookOver?.id).toBe('gone');
    expect(third.info.generation).toBe(8);
    expect(readFileSync(join(dir, `${ACCOUNT}.generation`), 'utf8').trim()).toBe('8');
    third.release();
  });

  it('names the deadline of its holder’s requests', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false, requestTimeoutMs: 12_000 }));
    expect(lock.info.request_timeout_ms).toBe(12_000);
    lock.release();
    const plain = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false }));
    expect(plain.info.request_timeout_ms).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    plain.release();
  });
});

describe('a holder whose lock was taken over', () => {
  it('fails verify with the LockLostError naming the new holder, and its lost signal aborts', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false }));
    lock.verify();
    takeOver(2);
    expect(() => lock.verify()).toThrow(LockLostError);
    expect(() => lock.verify()).toThrow(/its file now names lock next-holder of ci@elsewhere \(generation 2\)/);
    expect(lock.lost.aborted).toBe(true);
    lock.release();
  });

  it('writes no checkpoint, kept version or journal record once it is taken over, however its timers stand', async () => {
    const store = new LocalStore(dir, join(dir, 'cache'));
    const lock = await store.lock(ACCOUNT, 'apply', 0);
    if ('heldBy' in lock) throw new Error('not granted');
    const state = emptyState(ACCOUNT, 'local');
    await store.write(state, 'apply');
    const journal = await store.openJournal(ACCOUNT);
    await journal.begin({ journal: '0123456789abcdef', base: state.serial });
    await journal.append({ intent: { seq: 1, at: 0, operations: [] } });
    const before = { state: readFileSync(statePath(dir, ACCOUNT), 'utf8'), journal: readFileSync(journalPath(dir, ACCOUNT), 'utf8'), kept: readdirSync(join(dir, 'history', ACCOUNT)).sort() };
    takeOver(2);
    // the watcher may not have told this holder yet: each write checks the lock file itself
    await expect(store.checkpoint({ ...state, serial: 9 }, 'apply', true)).rejects.toThrow(LockLostError);
    await expect(journal.append({ done: 1 })).rejects.toThrow(LockLostError);
    await expect(store.clearJournal(ACCOUNT)).rejects.toThrow(LockLostError);
    expect(readFileSync(statePath(dir, ACCOUNT), 'utf8')).toBe(before.state);
    expect(readFileSync(journalPath(dir, ACCOUNT), 'utf8')).toBe(before.journal);
    expect(readdirSync(join(dir, 'history', ACCOUNT)).sort()).toEqual(before.kept);
    await lock.release();
  });

  it('stopped between its check and its rename, finds its file gone and replaces nothing', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false }));
    const target = statePath(dir, ACCOUNT);
    writeFileSync(target, 'the new holder’s state\n');
    let checks = 0;
    const fence = (): void => {
      checks++;
      lock.verify();
      // the first check passes; then, before the rename, another run takes the lock over
      if (checks === 1) takeOver(2);
    };
    expect(() => writeFileAtomic(target, 'an older checkpoint\n', 0o644, fence)).toThrow(LockLostError);
    expect(readFileSync(target, 'utf8')).toBe('the new holder’s state\n');
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    lock.release();
  });

  it('appends to a journal file nobody reads once the new holder gave the journal a file of its own', () => {
    const path = journalPath(dir, ACCOUNT);
    writeFileSync(path, encodeHead({ journal: '0123456789abcdef', base: 1 }, 0));
    let holds = true;
    const file = new JournalFile(path, () => {
      if (!holds) throw new LockLostError('lost');
    });
    // passes its check, is stopped, and the journal changes hands before its write
    void file.append({ intent: { seq: 1, at: 0, operations: [] } });
    const afterFirst = readFileSync(path, 'utf8');
    rotateJournalFile(path);
    expect(() => file.append({ done: 1 })).toThrow(/was replaced while this run appended to it/);
    holds = false;
    expect(readFileSync(path, 'utf8')).toBe(afterFirst);
  });

  it('whose heartbeat was read before the takeover never puts its lock back', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: 20 }));
    const next = takeOver(2);
    const text = readFileSync(lockPath(dir, ACCOUNT), 'utf8');
    const until = Date.now() + 5_000;
    while (!lock.lost.aborted && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(lock.lost.aborted).toBe(true);
    expect(readFileSync(lockPath(dir, ACCOUNT), 'utf8')).toBe(text);
    expect((JSON.parse(text) as LockInfo).id).toBe(next.id);
    lock.release();
    expect(existsSync(lockPath(dir, ACCOUNT))).toBe(true);
  });
});

describe('the member stores of a holder whose lock was taken over', () => {
  it('are neither written nor removed', async () => {
    const store = new LocalStore(dir, join(dir, 'cache'));
    const lock = await store.lock(ACCOUNT, 'apply', 0);
    if ('heldBy' in lock) throw new Error('not granted');
    const location = membersStoreOf(dir, ACCOUNT, 'custom_audiences.fans.users', '1nmth', undefined, store.memberFence(ACCOUNT));
    const members = memberSetOf({ email: ['a@example.com'] });
    expect(await recordUploaded(location, members)).toEqual([]);
    const written = readFileSync(location.path);
    takeOver(2);
    await expect(recordUploaded(location, memberSetOf({ email: ['b@example.com'] }))).rejects.toThrow(LockLostError);
    await expect(forgetUploaded(location)).rejects.toThrow(LockLostError);
    expect(readFileSync(location.path)).toEqual(written);
    expect(readdirSync(join(dir, `${ACCOUNT}.members`)).filter((n) => n.includes('.tmp-'))).toEqual([]);
    await lock.release();
  });
});

describe('temporary files of another process with this pid', () => {
  it('are removed by the run that takes the lock: only this process’s own tag is spared', async () => {
    const other = `${ACCOUNT}.json.tmp-${process.pid}-deadbeef`;
    const kept = join(dir, 'history', ACCOUNT);
    writeFileAtomic(join(kept, '3.json'), '{}\n');
    const keptLeft = `4.json.tmp-${process.pid}-deadbeef`;
    writeFileSync(join(dir, other), '{');
    writeFileSync(join(kept, keptLeft), '{');
    granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false })).release();
    expect(existsSync(join(dir, other))).toBe(false);
    expect(readdirSync(kept)).toEqual(['3.json']);
  });
});

describe('force-unlock --force of a holder still running', () => {
  it('leaves word for the next run, which waits out that holder’s requests', async () => {
    const held = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false, requestTimeoutMs: 30_000 }));
    // asked from another process of this host, which sees the holder running
    const removed = forceUnlock(dir, held.info.id, true, { now: () => 1_000_000, facts: { ...hostFacts(), pid: 1 } });
    expect(removed).toEqual({ removed: held.info });
    const next = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false, now: () => 1_004_000 }));
    expect(next.previousMayRun).toEqual({ requestTimeoutMs: 30_000, silentMs: 4_000 });
    next.release();
    // the word is taken once
    const later = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false }));
    expect(later.previousMayRun).toBeUndefined();
    later.release();
    held.release();
  });
});

describe('a descriptor of the lock file opened before a takeover', () => {
  it('writes into the file it opened, never into the new holder’s lock (how a beat writes)', async () => {
    const lock = granted(await acquireLock(dir, ACCOUNT, 'apply', 0, { heartbeatMs: false }));
    const fd = openSync(lockPath(dir, ACCOUNT), 'r+');
    const mine = readFileSync(fd, 'utf8');
    takeOver(2);
    const theirs = readFileSync(lockPath(dir, ACCOUNT), 'utf8');
    writeSync(fd, mine.replace(lock.info.heartbeat!, '11111111-1111-4111-8111-111111111111'), 0);
    closeSync(fd);
    expect(readFileSync(lockPath(dir, ACCOUNT), 'utf8')).toBe(theirs);
    lock.release();
  });
});
