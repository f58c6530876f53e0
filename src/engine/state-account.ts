/**
 * One account's state in a backend, as the `state` commands work on it (state-edit.ts,
 * state-migrate.ts): found among the backends of the roots a command names, read as the next run
 * reads it (the last checkpoint and the journalled outcomes), and edited under the account's lock.
 * What they report and what goes wrong is said through a `StateOutput`, as it happens.
 */
import { loadState } from '../state/apply-journal.js';
import { describeJournalDamage } from '../state/journal.js';
import { lockedMessage, tookOverWarning } from '../state/lock-notices.js';
import type { AccountState } from '../state/state-file.js';
import type { JournalStore, StateLocker, StateReader, StateStore } from '../state/store.js';

/** Where a state command's words go: `out` what it reports, `err` what went wrong or warns (each text ends with a newline). */
export interface StateOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** One account's state: the backend that holds it (or the part of it that is used) and the account's key there. */
export interface Located<Store = StateStore> {
  store: Store;
  account: string;
}

/** Which state a command works on: the manifests' path it was given, the account it names, and how long it waits for a lock. */
export interface StateFlags {
  path: string;
  account?: string;
  lockTimeout: number;
}

/** Runs `body` on one account under its lock; false (said) when the lock could not be taken. */
export async function underLock(output: StateOutput, located: Located<StateLocker>, timeoutMs: number, body: () => Promise<void>): Promise<boolean> {
  const lock = await located.store.lock(located.account, 'state', timeoutMs);
  if ('heldBy' in lock) {
    output.err(`Error: ${lockedMessage(located.account, lock.heldBy, (id) => `adsctl force-unlock ${id}`)}\n`);
    return false;
  }
  if (lock.tookOver !== undefined) output.err(tookOverWarning(located.account, lock.tookOver, lock.tookOverBecause));
  try {
    await body();
  } finally {
    await lock.release();
  }
  return true;
}

/** Every account with state in `stores`, in store and key order. */
export async function locateAll(stores: readonly StateStore[]): Promise<Located[]> {
  const all: Located[] = [];
  for (const store of stores) for (const account of await store.accounts()) all.push({ store, account });
  return all;
}

/** The account `flags` names, or the only one with state; undefined (said) when there is none or several to choose from. */
export async function pickAccount(output: StateOutput, flags: Pick<StateFlags, 'path' | 'account'>, stores: readonly StateStore[]): Promise<Located | undefined> {
  const all = await locateAll(stores);
  const keys = all.map((l) => l.account);
  if (flags.account !== undefined) {
    const found = all.find((l) => l.account === flags.account);
    if (found !== undefined) return found;
    output.err(`Error: no state for account ${flags.account} under ${flags.path}${keys.length > 0 ? ` (accounts: ${keys.join(', ')})` : ''}\n`);
    return undefined;
  }
  if (all.length === 1) return all[0];
  output.err(all.length === 0 ? `Error: no state under ${flags.path}\n` : `Error: several accounts have state (${keys.join(', ')}): choose one with --account\n`);
  return undefined;
}

/** The state as the next run reads it, or undefined (said) when it cannot be read. */
export async function readable(output: StateOutput, store: StateReader & JournalStore, account: string): Promise<AccountState | undefined> {
  const loaded = await loadState(store, account, '');
  if (typeof loaded === 'string') {
    output.err(`Error: ${loaded}\n`);
    return undefined;
  }
  if (loaded.journal.damage !== undefined) {
    output.err(`Error: ${describeJournalDamage(loaded.journal.damage)}\n`);
    return undefined;
  }
  return loaded.state;
}

/**
 * Every address bound in the states `store` holds (shell completion), account by account as each
 * is read; a state that cannot be read gives none.
 */
export async function* boundAddresses(store: StateStore): AsyncGenerator<string> {
  for (const account of await store.accounts()) {
    const state = await loadState(store, account, '');
    if (typeof state !== 'string') yield* Object.keys(state.state.resources);
  }
}
