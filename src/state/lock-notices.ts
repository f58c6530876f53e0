/**
 * What a run says about the state locks it meets: whose lock stopped it and the force-unlock
 * command that removes it (for a damaged lock file too, whose id force-unlock accepts), the
 * warning when it takes over the lock of a run that is gone from this host, and what force-unlock
 * removed, or why it left a lock whose holder still runs.
 */
import { formatDiagnostics } from '../diag/format.js';
import type { LockInfo } from './lock.js';

/** Why the state of `account` cannot be locked, with `unlock(id)`, the command that removes the lock. */
export function lockedMessage(account: string, held: LockInfo, unlock: (id: string) => string): string {
  if (held.damaged !== undefined) {
    return `the lock file of account ${account} (${held.damaged.file}) is damaged: ${held.damaged.problem}, so no run can be told to hold it; if no adsctl run is using this state, run ${unlock(held.id)}`;
  }
  return `the state of account ${account} is locked by ${held.holder} (pid ${held.pid}, ${held.operation} since ${held.created_at}, lock id ${held.id}); wait, use --lock-timeout, or run ${unlock(held.id)} if that run is gone`;
}

/**
 * The warning printed when a run took over `info`, the lock of `account` left by a process that is
 * gone; `because` says how that is known (lock-holder.ts).
 */
export function tookOverWarning(account: string, info: LockInfo, because?: string): string {
  const message =
    `took over the state lock of account ${account}: it was held by ${info.holder} (pid ${info.pid}, ${info.operation} since ${info.created_at}, lock id ${info.id}), ` +
    (because === undefined ? 'a process of this host that is no longer running' : `a run that is no longer running: ${because}`);
  return formatDiagnostics([{ severity: 'warning', code: 'stale-lock', message }], new Map());
}

/** What `adsctl force-unlock` says it removed. */
export function removedLock(info: LockInfo): string {
  if (info.damaged !== undefined) return `Lock ${info.id} (the damaged lock file ${info.damaged.file}) removed.\n`;
  return `Lock ${info.id} (held by ${info.holder}, pid ${info.pid}, ${info.operation} since ${info.created_at}) removed.\n`;
}

/** Why `adsctl force-unlock` left `info` in place: its holder is still running (`why` says how it knows). */
export function liveLockMessage(info: LockInfo, why: string): string {
  return (
    `lock ${info.id} is held by a run that is still running: ${info.holder} (pid ${info.pid}, ${info.operation} since ${info.created_at}); ${why}. ` +
    'Wait for it to finish, or pass --force to break the lock anyway: that run then stops before its next write and exits with an error'
  );
}

/**
 * The one line a run prints while it waits, before reading `account`, for the writes its former
 * lock holder `info` may still have on the wire (`open` of them announced in its journal and not
 * known to be answered), for `waitMs`: how long, and why.
 */
export function inFlightNotice(account: string, info: LockInfo | undefined, open: number, waitMs: number, requestTimeoutMs: number): string {
  const who = info === undefined ? 'the run whose lock was forced away' : `the run that held its lock (${info.holder}, pid ${info.pid})`;
  return (
    `Waiting ${Math.ceil(waitMs / 1000)} s before reading account ${account}: ${who} may still be running, and ${open} ${open === 1 ? 'write' : 'writes'} it sent ${open === 1 ? 'is' : 'are'} not known to be answered; ` +
    `a write lands within its ${Math.round(requestTimeoutMs / 1000)} s deadline (ADSCTL_REQUEST_TIMEOUT), and what it did is then read and adopted, not made again.\n`
  );
}
