/**
 * State is found by the account, not only by the file name. An account adsctl created is known by
 * its manifest's file until the manifest names its id; when the file moved and the manifest now
 * gives `account.id`, the state is the one that binds that account id under its old key. Apply
 * and destroy then keep it under the new key (written first, the old file removed after); a plan
 * only reads it. The states no manifest of a root owns any more are named by `orphanedStates`.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import type { AccountState } from '../state/state-file.js';
import type { JournalStore, StateReader, StateWriter } from '../state/store.js';

/** The state of `key`, or that of the same account kept under another key (adopted); undefined when there is neither. */
export async function stateByAccount(store: StateReader & StateWriter & JournalStore, key: string, accountId: string | undefined, endpoint: string, write: boolean): Promise<{ state: AccountState; formerKey?: string } | string | undefined> {
  if (accountId === undefined) return undefined;
  const keys = await store.accounts();
  if (keys.includes(key)) return undefined;
  for (const other of keys) {
    const found = await store.read(other, endpoint);
    if (typeof found === 'string') return found;
    if (found.account_id !== accountId) continue;
    // an interrupted apply's journal stays with its key until the run that wrote it is finished
    const journal = await store.readJournal(other);
    if (journal.open.length > 0 || journal.outcomes.length > 0 || journal.damage !== undefined) return undefined;
    const state: AccountState = { ...found, account: key };
    if (write) {
      await store.write(state, 'adopt');
      await store.remove(other);
    }
    return { state, formerKey: other };
  }
  return undefined;
}

/**
 * Warnings for the states under `stateDir` that no account of the manifests (`owned` keys) uses:
 * an account's resources neither planned nor destroyed, with its id and how to adopt it.
 */
export async function orphanedStates(store: StateReader, owned: ReadonlySet<string>): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const key of await store.accounts()) {
    if (owned.has(key)) continue;
    const state = await store.read(key, '');
    if (typeof state === 'string') continue;
    const count = Object.keys(state.resources).length;
    if (count === 0 && state.account_id === undefined) continue;
    const id = state.account_id;
    out.push({
      severity: 'warning',
      code: 'orphaned-state',
      message:
        `the state ${store.locate(key).state} (${id === undefined ? 'an account not created yet' : `account ${id}`}, ${count} ${count === 1 ? 'resource' : 'resources'}, kept for the manifest ${key}) belongs to no manifest here, so its resources are neither planned nor destroyed. ` +
        (id === undefined
          ? `If ${key} was moved or renamed, move it back, or remove this state with adsctl state rm.`
          : `If ${key} was moved or renamed, give the moved manifest's account its id — account: { id: "${id}" } — and plan again: its state is then found by the account id.`),
    });
  }
  return out;
}
