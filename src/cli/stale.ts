/**
 * The words of the saved-plan check: what `apply PLANFILE` prints when the engine finds the plan
 * stale (src/engine/stale.ts), naming everything that moved.
 */
import type { StaleEntry } from '../plan/stale.js';

function describe(entry: StaleEntry): string {
  if (entry.kind === 'state') return `the state of account ${entry.account} (serial ${entry.planned} when planned, ${entry.now} now)`;
  return `${entry.address} (${entry.now === undefined ? 'deleted' : `updated at ${entry.now}`})`;
}

/** The error `apply PLANFILE` prints when the saved plan is stale, naming everything that moved; ends with a newline. */
export function staleRefusal(entries: readonly StaleEntry[]): string {
  return `Error: the saved plan is stale; these changed since it was made:\n${entries.map((e) => `  - ${describe(e)}\n`).join('')}Run adsctl plan again.\n`;
}
