/**
 * The state backend of a configuration root: local files under its `.adsctl/` unless the root's
 * `adsctl.yaml` names another (src/state/config.ts).
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import { LocalStore } from '../state/local-store.js';
import type { StateStore } from '../state/store.js';
import { cacheDirOf, stateDirOf } from './root.js';

export function openStore(root: string, _env: Readonly<Record<string, string | undefined>>): Promise<StateStore | Diagnostic> {
  return Promise.resolve(new LocalStore(stateDirOf(root), cacheDirOf(root)));
}
