/** The accounts that have state in a state directory (one `<account>.json` each). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTopLevel } from './state-head.js';

/**
 * Account keys with a state file, read from the files themselves (the file name is only a stem).
 * A file that does not say its account is listed by its stem, so reading it reports what is wrong
 * with it instead of the account seeming to have no state.
 */
export function stateAccounts(stateDir: string): string[] {
  if (!existsSync(stateDir)) return [];
  const keys: string[] = [];
  for (const name of readdirSync(stateDir).sort()) {
    if (!name.endsWith('.json')) continue;
    const path = join(stateDir, name);
    const account = headOf(path, 'account')?.get('account');
    keys.push(typeof account === 'string' && account !== '' ? account : name.slice(0, -'.json'.length));
  }
  return keys;
}

/** The live account ids the state files of a directory bind. */
export function boundAccountIds(stateDir: string): Set<string> {
  const ids = new Set<string>();
  if (!existsSync(stateDir)) return ids;
  for (const name of readdirSync(stateDir)) {
    if (!name.endsWith('.json')) continue;
    // a file that is not a state file binds nothing
    const id = headOf(join(stateDir, name), 'account_id')?.get('account_id');
    if (typeof id === 'string') ids.add(id);
  }
  return ids;
}

/** The top-level member `key` of a state file, from the head of the file when it holds it; undefined when the file cannot be read as JSON. */
function headOf(path: string, key: string): Map<string, unknown> | undefined {
  try {
    return readTopLevel(path, [key], () => readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
