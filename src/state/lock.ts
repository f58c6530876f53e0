/**
 * The per-account lock that keeps two runs from writing one account at once. A lock file holds who
 * took it (user@host, pid, time, operation, id), which process that is exactly (boot, pid
 * namespace, start time) and a heartbeat its holder rewrites every few seconds (lock-heartbeat.ts);
 * it is written aside and linked or renamed into place, so it is never seen half-written. A second
 * run waits up to `--lock-timeout` for it, then fails naming the holder. A lock whose holder is
 * provably gone (lock-holder.ts) is taken over, and the taker is told whose it was and why;
 * `adsctl force-unlock ID` removes any other, or a damaged one. Whoever takes a lock removes the
 * temporary files runs killed mid-write left.
 *
 * Fencing: each lock has a generation, one above the last granted for the account (kept in
 * `<stem>.generation`). A holder that was stopped (SIGSTOP, a frozen container) or cut off while
 * another took the lock over writes nothing afterwards, whatever its timers believe: every write
 * of its state, journal, kept versions and member stores checks the lock file at the moment of
 * writing (`verify`), and a write already past that check finds the file it wrote aside removed
 * by the new holder (leftovers.ts) and fails; its writes of the service are checked the same way
 * before each request.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, watch, writeFileSync, writeSync, type FSWatcher } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { removeLeftovers } from './leftovers.js';
import { startHeartbeat } from './lock-heartbeat.js';
import { HEARTBEAT_MS, HEARTBEAT_STALE_MS, holderAlive, hostFacts, judgeHolder, pidsMeanSame, type HostFacts } from './lock-holder.js';
import { LockLostError } from './lock-lost.js';
import { stateStem } from './state-file.js';
import type { ForceUnlockOutcome, LockInfo } from './store.js';
import { TMP_SUFFIX, writeFileAtomic } from './write-atomic.js';
import { EnvironmentError } from '../diag/environment-error.js';

export type { LockInfo } from './store.js';

/** A lock file this run holds. */
export interface Lock {
  info: LockInfo;
  /** The lock of a run that is gone, which this one took over. */
  tookOver?: LockInfo;
  /** Why the holder of `tookOver` counts as gone. */
  tookOverBecause?: string;
  /** The former holder may still be running, and its writes be on the wire (store.ts, `Lock.previousMayRun`). */
  previousMayRun?: { requestTimeoutMs: number; silentMs: number };
  /**
   * Aborted, with a `LockLostError` naming the account and the cause, when the lock file is found
   * removed or naming another lock while this run holds it (`adsctl force-unlock --force`, a file
   * deleted by hand): seen at once where the file system reports changes, and by the next heartbeat
   * where it does not.
   */
  lost: AbortSignal;
  /**
   * Reads the lock file now and throws the `LockLostError` of `lost` (aborting it) when it no
   * longer names this lock, or when the lock was released: the fence every write under the lock
   * passes just before it becomes visible (write-atomic.ts), and every write of the service
   * before it is sent.
   */
  verify(): void;
  release(): void;
}

/** What `acquireLock` may be given instead of the real clock, host and heartbeat (tests). */
interface LockOptions {
  /** Epoch ms. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  facts?: HostFacts;
  /** How long a heartbeat must stand still before its holder counts as gone. */
  staleMs?: number;
  /** How often this holder beats; `false` for none. */
  heartbeatMs?: number | false;
  /** The deadline of the requests this holder sends, named in its lock (`request_timeout_ms`). */
  requestTimeoutMs?: number;
}

/** The request deadline taken for a holder whose lock does not name one (the API client's default). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Where `force-unlock --force` leaves word of a holder it forced away while it ran, by the stem of the account's files. */
function forcedPath(stateDir: string, stem: string): string {
  return join(stateDir, `${stem}.lock.forced`);
}

/**
 * What `force-unlock --force` left of a holder still running when it removed its lock (removed as
 * it is read: the run that takes the lock next is the one that waits for that holder's writes).
 */
function takeForced(stateDir: string, accountKey: string, now: number): Lock['previousMayRun'] {
  const path = forcedPath(stateDir, stateStem(accountKey));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  rmSync(path, { force: true });
  try {
    const forced = JSON.parse(text) as { info?: LockInfo; at?: number };
    const at = typeof forced.at === 'number' ? forced.at : now;
    return { requestTimeoutMs: forced.info?.request_timeout_ms ?? DEFAULT_REQUEST_TIMEOUT_MS, silentMs: Math.max(0, now - at) };
  } catch {
    return { requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, silentMs: 0 };
  }
}

export function lockPath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.lock`);
}

/** Where the last generation granted for an account's lock is kept. */
function generationPath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.generation`);
}

/** The last generation granted for an account's lock; 0 when none was recorded. */
function lastGeneration(stateDir: string, accountKey: string): number {
  try {
    const n = Number(readFileSync(generationPath(stateDir, accountKey), 'utf8').trim());
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

/** The ids of the locks this process holds. */
const ownIds = new Set<string>();

/** How to release each lock this process holds, by id. */
const releases = new Map<string, () => void>();

/** Releases every local lock this process holds (an early exit); returns their ids. */
export function releaseOwnLocks(): string[] {
  const ids = [...releases.keys()];
  for (const release of [...releases.values()]) release();
  return ids;
}

const isLockInfo = (value: unknown): value is LockInfo => {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v['id'] === 'string' && v['id'] !== '' && typeof v['holder'] === 'string' && Number.isSafeInteger(v['pid']) && typeof v['created_at'] === 'string' && typeof v['operation'] === 'string';
};

/**
 * What a lock file says. One that cannot be read (empty, not JSON, another shape) is given the id
 * `damaged-<file stem>`, which `forceUnlock` accepts, so the command a refusal names works.
 */
function parseLock(text: string, path: string): LockInfo {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (isLockInfo(value)) return value;
  const problem = text.trim() === '' ? 'it is empty' : value === undefined ? 'it is not JSON' : 'it is not a lock adsctl wrote';
  return { id: `damaged-${basename(path, '.lock')}`, holder: 'unknown', pid: 0, created_at: '', operation: '', damaged: { problem, file: path } };
}

/** A lock file's text, what it says and when it was written, or undefined when there is none. */
function readLockFile(path: string): { text: string; info: LockInfo; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    if (fstatSync(fd).isDirectory()) throw new EnvironmentError(`${path} is a directory, where adsctl keeps the state lock: move it away and run the command again`);
    const text = readFileSync(fd, 'utf8');
    return { text, info: parseLock(text, path), mtimeMs: fstatSync(fd).mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** The current holder of an account's lock, if any. */
export function readLock(stateDir: string, accountKey: string): LockInfo | undefined {
  return readLockFile(lockPath(stateDir, accountKey))?.info;
}

/** Creates the lock file with `O_EXCL`, for file systems without hard links. */
function createExclusive(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Creates the lock file with `info` unless one exists; true when this call created it. */
function tryCreate(path: string, info: LockInfo): boolean {
  mkdirSync(dirname(path), { recursive: true });
  const text = `${JSON.stringify(info, null, 2)}\n`;
  const aside = `${path}${TMP_SUFFIX}`;
  writeFileSync(aside, text, { mode: 0o644 });
  try {
    linkSync(aside, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (NO_LINKS.has(code)) return createExclusive(path, text);
    throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Removes the lock file if it still reads `text`. It is renamed aside first, so a lock another run
 * took meanwhile is never deleted: that one is put back.
 */
function removeIfUnchanged(path: string, text: string): boolean {
  const aside = `${path}.old${TMP_SUFFIX}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = readFileSync(aside, 'utf8');
  if (moved !== text) {
    try {
      linkSync(aside, path);
    } catch {
      // a newer lock is in place already
    }
  }
  unlinkSync(aside);
  return moved === text;
}

/**
 * Watches the lock file at `path` while this run holds lock `id`: `lost` is called when a change
 * leaves the file gone or naming another lock. Undefined where the file system cannot be watched
 * (the heartbeat still notices, a beat later).
 */
function watchHeld(path: string, id: string, lost: (why: string) => void): FSWatcher | undefined {
  const name = basename(path);
  const check = (): void => {
    let current: LockInfo | undefined;
    try {
      current = readLockFile(path)?.info;
    } catch {
      return;
    }
    if (current === undefined) lost('its file was removed');
    else if (current.id !== id) lost(`its file now names lock ${current.id} of ${current.holder}`);
  };
  try {
    const watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) check();
    });
    watcher.on('error', () => watcher.close());
    return watcher;
  } catch {
    return undefined;
  }
}

function granted(stateDir: string, accountKey: string, info: LockInfo, heartbeatMs: number | false, tookOver?: { info: LockInfo; because: string; mayRun?: Lock['previousMayRun'] }, now: number = Date.now()): Lock {
  const path = lockPath(stateDir, accountKey);
  ownIds.add(info.id);
  removeLeftovers(stateDir, accountKey);
  const lose = new AbortController();
  let released = false;
  const lost = (why: string): void => {
    if (released || lose.signal.aborted) return;
    lose.abort(new LockLostError(`the state lock of account ${accountKey} in ${stateDir} was lost: ${why} while this run held it`));
  };
  const watcher = watchHeld(path, info.id, lost);
  const heartbeat = heartbeatMs === false ? undefined : startHeartbeat(path, info.id, heartbeatMs, lost);
  const verify = (): void => {
    if (!lose.signal.aborted && !released) {
      let current: LockInfo | undefined;
      try {
        current = readLockFile(path)?.info;
      } catch {
        current = undefined;
      }
      if (current === undefined) lost('its file was removed');
      else if (current.id !== info.id) lost(`its file now names lock ${current.id} of ${current.holder}${current.generation === undefined ? '' : ` (generation ${current.generation})`}`);
    }
    if (lose.signal.aborted) throw lose.signal.reason;
    if (released) throw new LockLostError(`the state lock of account ${accountKey} in ${stateDir} was released: this run may write nothing more`);
  };
  // the generation granted is recorded at once, so the next one is above it even if this run is killed
  if (info.generation !== undefined) writeFileAtomic(generationPath(stateDir, accountKey), `${info.generation}\n`, 0o644, verify);
  const remove = (): void => {
    if (readLockFile(path)?.info.id === info.id) rmSync(path, { force: true });
  };
  const release = (): void => {
    if (released) return;
    released = true;
    watcher?.close();
    ownIds.delete(info.id);
    releases.delete(info.id);
    if (heartbeat === undefined) remove();
    else heartbeat.stop(remove);
  };
  releases.set(info.id, release);
  const mayRun = tookOver?.mayRun ?? takeForced(stateDir, accountKey, now);
  return { info, ...(tookOver === undefined ? {} : { tookOver: tookOver.info, tookOverBecause: tookOver.because }), ...(mayRun === undefined ? {} : { previousMayRun: mayRun }), lost: lose.signal, verify, release };
}

/** Who this run is, as locks and kept versions name it: user@host. */
export function holderName(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no user database entry: keep "unknown"
  }
  return `${user}@${hostname()}`;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * How long the heartbeat of `current` is known to have stood still: since this run first saw its
 * file as it is (`seenSince`), or, for a holder of this boot (whose clock is this one), since the
 * file was written.
 */
function quietFor(current: { info: LockInfo; mtimeMs: number }, seenSince: number, now: number, facts: HostFacts): number {
  const bootId = current.info.process?.boot_id;
  const sameClock = bootId !== undefined && bootId === facts.process.boot_id;
  return Math.max(now - seenSince, sameClock ? now - current.mtimeMs : 0);
}

/**
 * Takes the lock of an account, waiting up to `timeoutMs`; returns the lock, or the holder's
 * info when it could not be taken in time. A lock whose holder is provably gone is taken over
 * (`tookOver` names it, `tookOverBecause` says why): at once when its pid is known to be gone,
 * after `HEARTBEAT_STALE_MS` of a still heartbeat when the pid cannot be judged from here.
 */
export async function acquireLock(stateDir: string, accountKey: string, operation: string, timeoutMs: number, options: LockOptions = {}): Promise<Lock | { heldBy: LockInfo }> {
  const now = options.now ?? Date.now;
  const wait = options.sleep ?? sleep;
  const facts = options.facts ?? hostFacts();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const info: LockInfo = {
    id: randomUUID(),
    holder: holderName(),
    pid: facts.pid,
    created_at: new Date(now()).toISOString(),
    operation,
    process: facts.process,
    heartbeat: randomUUID(),
    request_timeout_ms: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
  const path = lockPath(stateDir, accountKey);
  const deadline = now() + timeoutMs;
  let seen = { text: '', since: now() };
  let before = 0;
  for (;;) {
    info.generation = Math.max(lastGeneration(stateDir, accountKey), before) + 1;
    if (tryCreate(path, info)) return granted(stateDir, accountKey, info, heartbeatMs, undefined, now());
    const current = readLockFile(path);
    if (current === undefined) continue;
    before = Math.max(before, current.info.generation ?? 0);
    if (current.text !== seen.text) seen = { text: current.text, since: now() };
    const quiet = quietFor(current, seen.since, now(), facts);
    const because = judgeHolder(current.info, facts, ownIds, quiet, options.staleMs ?? HEARTBEAT_STALE_MS);
    if (because !== undefined) {
      if (removeIfUnchanged(path, current.text)) {
        info.generation = Math.max(lastGeneration(stateDir, accountKey), before) + 1;
        // a holder judged gone by its heartbeat alone may be stopped, not gone: its writes may still be on the wire
        const mayRun = pidsMeanSame(current.info, facts) ? undefined : { requestTimeoutMs: current.info.request_timeout_ms ?? DEFAULT_REQUEST_TIMEOUT_MS, silentMs: quiet };
        if (tryCreate(path, info)) return granted(stateDir, accountKey, info, heartbeatMs, { info: current.info, because, ...(mayRun === undefined ? {} : { mayRun }) }, now());
      }
      continue;
    }
    if (now() >= deadline) return { heldBy: current.info };
    await wait(Math.min(250, Math.max(10, deadline - now())));
  }
}

/**
 * Removes the lock whose id is `id`, whichever account it guards (`adsctl force-unlock ID`); a
 * lock whose holder is known to be running (`holderAlive`: a live process of this host, or a
 * heartbeat still moving in another pid namespace of this machine) is left in place unless
 * `force`. Undefined when no lock has that id.
 */
export function forceUnlock(stateDir: string, id: string, force: boolean, options: Pick<LockOptions, 'now' | 'facts'> = {}): ForceUnlockOutcome {
  if (!existsSync(stateDir)) return undefined;
  for (const name of readdirSync(stateDir)) {
    if (!name.endsWith('.lock')) continue;
    const path = join(stateDir, name);
    const current = readLockFile(path);
    const info = current?.info;
    if (current === undefined || info?.id !== id) continue;
    const now = (options.now ?? Date.now)();
    const running = holderAlive(info, options.facts ?? hostFacts(), now - current.mtimeMs);
    if (running !== undefined && !force) return { live: info, why: running };
    // the run that takes the lock next waits for the writes this holder, still running, may have on the wire
    if (running !== undefined) writeFileAtomic(forcedPath(stateDir, name.slice(0, -'.lock'.length)), `${JSON.stringify({ info, at: now })}\n`);
    unlinkSync(path);
    return { removed: info };
  }
  return undefined;
}
