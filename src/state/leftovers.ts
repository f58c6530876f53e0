/**
 * The temporary files a run killed (or stopped) in the middle of a write leaves beside an
 * account's state: `<stem>.json.tmp-PID-TAG` and `<stem>.journal.tmp-PID-TAG` (a state or a
 * compacted journal written aside before its rename), `history/<stem>/<serial>.json.tmp-PID-TAG`
 * (a kept version), `<stem>.members/.<name>.bin.tmp-PID-TAG` (a member store), `<stem>.lock.tmp-PID-TAG` and `<stem>.lock.old.tmp-PID-TAG` (a lock written
 * aside, or set aside while being taken over). The run that takes the account's lock removes
 * them: a state, journal or version is only written under the lock, so any left is garbage — and
 * removing one is what fences a holder stopped between its last check and its rename
 * (write-atomic.ts); a lock's are removed once their process is gone.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { processExists } from './lock-holder.js';
import { stateStem } from './state-file.js';
import { TMP_SUFFIX } from './write-atomic.js';

const LEFTOVER = /^(.*)\.(json|journal|lock|lock\.old)\.tmp-(\d+)(?:-[0-9a-f]+)?$/;
const KEPT_LEFTOVER = /^\d+\.json\.tmp-\d+(?:-[0-9a-f]+)?$/;
/** A member store file written aside (src/members/sets/member-store.ts). */
const MEMBERS_LEFTOVER = /^\..+\.bin\.tmp-\d+-[0-9a-f]+$/;

/** Removes the account's temporary files left by other runs; call with its lock held. */
export function removeLeftovers(stateDir: string, accountKey: string): void {
  const stem = stateStem(accountKey);
  for (const name of readdirSync(stateDir)) {
    const match = LEFTOVER.exec(name);
    if (match === null || match[1] !== stem || name.endsWith(TMP_SUFFIX)) continue;
    const pid = Number(match[3]);
    const inUse = match[2] !== 'json' && match[2] !== 'journal' && pid !== process.pid && processExists(pid);
    if (!inUse) rmSync(join(stateDir, name), { force: true });
  }
  for (const [folder, pattern] of [[join(stateDir, 'history', stem), KEPT_LEFTOVER], [join(stateDir, `${stem}.members`), MEMBERS_LEFTOVER]] as const) {
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) if (pattern.test(name) && !name.endsWith(TMP_SUFFIX)) rmSync(join(folder, name), { force: true });
  }
}
