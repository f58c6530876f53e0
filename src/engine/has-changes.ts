/** Whether a plan would change anything: what `--detailed-exitcode` and apply's confirmation ask. */
import type { Plan } from '../plan/types.js';

/**
 * True when applying `plan` would change the live accounts or the state: a create, update, replace
 * or delete, a move or removal of addresses, or an import to bind (Terraform counts a planned
 * import as a change too).
 */
export function hasChanges(plan: Plan): boolean {
  return plan.accounts.some((a) => (a.moves?.length ?? 0) > 0 || (a.removals?.length ?? 0) > 0 || a.changes.some((c) => c.action !== 'noop' || c.reason === 'import'));
}
