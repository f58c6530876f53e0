/**
 * One account's state in a backend, and the account's lock around an edit of it: what the `state`
 * commands (state-command.ts) and `state migrate` (state-migrate.ts) share.
 */
import type { StateLocker, StateStore } from '../state/store.js';
import type { Io } from './io.js';
import { lockedMessage, tookOverWarning } from '../state/lock-notices.js';

/** One account's state: the backend that holds it (or the part of it that is used) and the account's key there. */
export interface Located<Store = StateStore> {
  store: Store;
  account: string;
}

/** Runs `body` on one account under its lock; false (said) when the lock could not be taken. */
export async function underLock(io: Io, located: Located<StateLocker>, timeoutMs: number, body: () => Promise<void>): Promise<boolean> {
  const lock = await located.store.lock(located.account, 'state', timeoutMs);
  if ('heldBy' in lock) {
    io.err(`Error: ${lockedMessage(located.account, lock.heldBy, (id) => `adsctl force-unlock ${id}`)}\n`);
    return false;
  }
  if (lock.tookOver !== undefined) io.err(tookOverWarning(located.account, lock.tookOver, lock.tookOverBecause));
  try {
    await body();
  } finally {
    await lock.release();
  }
  return true;
}
