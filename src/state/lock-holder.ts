/**
 * Whether the run that took a lock is still there. A lock file names the host and the pid of its
 * holder; on the same host, a pid no process has any more means the run ended without releasing
 * it (killed, or the machine restarted), just as the operating system would have dropped an
 * advisory lock. A lock of another host cannot be judged from here.
 */
import { hostname } from 'node:os';
import type { LockInfo } from './lock.js';

/** The host part of a lock's `holder` (`user@host`). */
export function holderHost(holder: string): string {
  return holder.slice(holder.lastIndexOf('@') + 1);
}

/** Whether a process with this pid exists on this host (one of another user counts). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * True when the lock was taken on this host by a process that is gone. `ownIds` are the locks this
 * process holds: a lock naming this process's pid but none of them was left by an earlier process
 * that had the same pid (containers start every run with the same few pids).
 */
export function holderGone(info: LockInfo, ownIds: ReadonlySet<string>): boolean {
  if (holderHost(info.holder) !== hostname()) return false;
  if (!Number.isSafeInteger(info.pid) || info.pid <= 0) return false;
  if (info.pid === process.pid) return !ownIds.has(info.id);
  return !processExists(info.pid);
}
