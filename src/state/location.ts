/**
 * Where state is: the directories of a configuration root that hold it, and where one account's
 * state and journal are, in the words a message uses.
 */
import { join } from 'node:path';
import { LocalStore } from './local-store.js';
import { journalPath } from './journal.js';
import { statePath } from './state-file.js';
import type { StateStore } from './store.js';

/** `.adsctl/state` of a configuration root. */
export const stateDirOf = (root: string): string => join(root, '.adsctl', 'state');
/** `.adsctl/cache` of a configuration root. */
export const cacheDirOf = (root: string): string => join(root, '.adsctl', 'cache');

/** Where one account's state is, in the words a message uses: its file, or the backend and key. */
export function stateLocation(store: StateStore, key: string): string {
  return store instanceof LocalStore ? statePath(store.stateDir, key) : `of account ${key} in ${store.where}`;
}

/** Where one account's journal is, in the words a message uses. */
export function journalLocation(store: StateStore, key: string): string {
  return store instanceof LocalStore ? journalPath(store.stateDir, key) : `of account ${key} in ${store.where}`;
}
