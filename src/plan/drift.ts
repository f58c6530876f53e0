/**
 * What a plan says changed outside adsctl, in one place: what `plan --refresh-only` shows and
 * exits 2 for, and what `apply --refresh-only` accepts into the state (src/engine/accept-live.ts).
 */
import type { ResourceChange } from '../diff/types.js';
import type { AccountPlan, Plan } from './types.js';

/** Whether a change records something done outside adsctl: an attribute moved, an object deleted or added by hand. */
export function isDrift(change: ResourceChange): boolean {
  return change.drift || change.reason === 'deleted_outside';
}

/**
 * Whether one account of a plan has drift — a change made outside adsctl, or an object not
 * managed by adsctl that appeared since the last apply (src/diff/unmanaged.ts).
 */
export function accountHasDrift(account: AccountPlan): boolean {
  return account.changes.some(isDrift) || (account.unmanaged ?? []).some((u) => u.new);
}

/** Whether any account of the plan has drift: what `plan --refresh-only --detailed-exitcode` exits 2 for. */
export function hasDrift(plan: Plan): boolean {
  return plan.accounts.some(accountHasDrift);
}
