/**
 * The words of the saved-plan check: what `apply PLANFILE` prints when the engine finds the plan
 * stale (src/engine/stale.ts), naming everything that moved in terms a person acts on — which
 * account's state another run wrote, which object was changed or deleted outside adsctl — never
 * the fingerprints the check compares.
 */
import { changedAt } from '../engine/stale.js';
import type { StaleEntry } from '../plan/stale.js';
import type { Plan } from '../plan/types.js';
import { accountLabel } from '../render/document-views.js';

function describe(entry: StaleEntry, label: (account: string) => string): string {
  if (entry.kind === 'state') {
    return `the state of account ${label(entry.account)} was written by another run since the plan was made (an apply, import or state command; serial ${entry.planned} then, ${entry.now} now)`;
  }
  const where = `${entry.address} (id ${entry.id})`;
  if (entry.now === undefined) return `${where} was deleted outside adsctl`;
  const at = changedAt(entry);
  return `${where} was changed outside adsctl${at === undefined ? '' : ` (updated at ${at})`}`;
}

/**
 * The error `apply PLANFILE` prints when the saved plan is stale, naming everything that moved,
 * accounts by name and id as the plan knows them; ends with a newline.
 */
export function staleRefusal(entries: readonly StaleEntry[], plan: Plan): string {
  const accounts = new Map(plan.accounts.map((a) => [a.account, a]));
  const label = (key: string): string => {
    const a = accounts.get(key);
    return accountLabel({ key, id: a?.accountId ?? null, ...(a?.name === undefined ? {} : { name: a.name }) });
  };
  return `Error: the saved plan is stale; these changed since it was made:\n${entries.map((e) => `  - ${describe(e, label)}\n`).join('')}Run adsctl plan again, review it, and apply the new plan.\n`;
}
