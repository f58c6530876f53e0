/**
 * The per-account lock that keeps two runs from writing one account at once. A lock file created
 * exclusively holds who took it (user, host, pid, time, operation, id). A second run waits up to
 * `--lock-timeout` for it, then fails naming the holder; `adsctl force-unlock ID` removes a lock
 * left by a killed run.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { stateStem } from './state-file.js';

export interface LockInfo {
  id: string;
  holder: string;
  pid: number;
  created_at: string;
  operation: string;
}

export interface Lock {
  info: LockInfo;
  release(): void;
}

export function lockPath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.lock`);
}

/** The current holder of an account's lock, if any. */
export function readLock(stateDir: string, accountKey: string): LockInfo | undefined {
  const path = lockPath(stateDir, accountKey);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
  } catch {
    return { id: 'unreadable', holder: 'unknown', pid: 0, created_at: '', operation: '' };
  }
}

function tryCreate(path: string, info: LockInfo): boolean {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(info, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Takes the lock of an account, waiting up to `timeoutMs`; returns the lock, or the holder's
 * info when it could not be taken in time.
 */
export async function acquireLock(stateDir: string, accountKey: string, operation: string, timeoutMs: number): Promise<Lock | { heldBy: LockInfo }> {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no user database entry: keep "unknown"
  }
  const info: LockInfo = { id: randomUUID(), holder: `${user}@${hostname()}`, pid: process.pid, created_at: new Date().toISOString(), operation };
  const path = lockPath(stateDir, accountKey);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (tryCreate(path, info)) {
      let released = false;
      return {
        info,
        release: () => {
          if (released) return;
          released = true;
          if (readLock(stateDir, accountKey)?.id === info.id) unlinkSync(path);
        },
      };
    }
    if (Date.now() >= deadline) return { heldBy: readLock(stateDir, accountKey) ?? info };
    await sleep(Math.min(250, Math.max(10, deadline - Date.now())));
  }
}

/**
 * Removes the lock whose id is `id`, whichever account it guards (`adsctl force-unlock ID`);
 * returns its holder, or undefined when no lock has that id.
 */
export function forceUnlock(stateDir: string, id: string): LockInfo | undefined {
  if (!existsSync(stateDir)) return undefined;
  for (const name of readdirSync(stateDir)) {
    if (!name.endsWith('.lock')) continue;
    const path = join(stateDir, name);
    let info: LockInfo;
    try {
      info = JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
    } catch {
      continue;
    }
    if (info.id !== id) continue;
    unlinkSync(path);
    return info;
  }
  return undefined;
}
