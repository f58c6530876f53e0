/** The accounts that have state in a state directory (one `<account>.json` each). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
    let account: unknown;
    try {
      account = (JSON.parse(readFileSync(join(stateDir, name), 'utf8')) as { account?: unknown } | null)?.account;
    } catch {
      account = undefined;
    }
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
    try {
      const parsed = JSON.parse(readFileSync(join(stateDir, name), 'utf8')) as { account_id?: unknown } | null;
      if (typeof parsed?.account_id === 'string') ids.add(parsed.account_id);
    } catch {
      // not a state file
    }
  }
  return ids;
}
