/**
 * The temporary files a run killed in the middle of a write leaves beside an account's state:
 * `<stem>.json.tmp-PID` and `<stem>.journal.tmp-PID` (a state or a compacted journal written aside
 * before its rename), `<stem>.lock.tmp-PID` and
 * `<stem>.lock.old.tmp-PID` (a lock written aside, or set aside while being taken over). The run
 * that takes the account's lock removes them: a state or journal is only written under the lock, so any
 * left is garbage; a lock's are removed once their process is gone.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { processExists } from './lock-holder.js';
import { stateStem } from './state-file.js';

const LEFTOVER = /^(.*)\.(json|journal|lock|lock\.old)\.tmp-(\d+)$/;

/** Removes the account's temporary files left by runs that were killed; call with its lock held. */
export function removeLeftovers(stateDir: string, accountKey: string): void {
  const stem = stateStem(accountKey);
  for (const name of readdirSync(stateDir)) {
    const match = LEFTOVER.exec(name);
    if (match === null || match[1] !== stem) continue;
    const pid = Number(match[3]);
    const inUse = match[2] !== 'json' && match[2] !== 'journal' && pid !== process.pid && processExists(pid);
    if (!inUse) rmSync(join(stateDir, name), { force: true });
  }
}
