/**
 * What a run says about the state locks it meets: the warning when it takes over the lock of a run
 * that is gone from this host, so the user knows which run ended without finishing.
 */
import { formatDiagnostics } from '../diag/format.js';
import type { LockInfo } from '../state/lock.js';

/** The warning printed when a run took over `info`, the lock of `account` left by a process that is gone. */
export function tookOverWarning(account: string, info: LockInfo): string {
  const message =
    `took over the state lock of account ${account}: it was held by ${info.holder} (pid ${info.pid}, ${info.operation} since ${info.created_at}, lock id ${info.id}), ` +
    'a process of this host that is no longer running';
  return formatDiagnostics([{ severity: 'warning', code: 'stale-lock', message }], new Map());
}
