/** Where one account's state is, in the words a message uses: its file, or the backend and key. */
import { LocalStore } from './local-store.js';
import { journalPath } from './journal.js';
import { statePath } from './state-file.js';
import type { StateStore } from './store.js';

export function stateLocation(store: StateStore, key: string): string {
  return store instanceof LocalStore ? statePath(store.stateDir, key) : `of account ${key} in ${store.where}`;
}

/** Where one account's journal is, in the words a message uses. */
export function journalLocation(store: StateStore, key: string): string {
  return store instanceof LocalStore ? journalPath(store.stateDir, key) : `of account ${key} in ${store.where}`;
}
