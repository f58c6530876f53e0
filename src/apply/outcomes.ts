/**
 * The outcomes of one request as the apply takes them. In an `atomic` step a `together` group is
 * applied whole or not at all: a member the service refused fails the group, so a member it would
 * have taken again (refused only for a sibling) fails too, naming that sibling.
 */
import { ApiError } from '../api/errors.js';
import type { Operation, Step } from '../plan/types.js';
import type { Outcome } from './send.js';

/** Why a member of a `together` group that the service did not refuse was not applied either. */
const withSibling = (address: string): ApiError =>
  new ApiError({ status: 400, items: [{ code: 'BATCH_REJECTED', message: `not applied: it goes in one request with ${address}, which the service refused` }], retryable: false, outcome: 'rejected', request: 'batch' });

/** `outcomes` (one per operation of `ops`, sent in one request of `step`) with the `together` rule applied. */
export function readOutcomes(step: Step, ops: readonly Operation[], outcomes: readonly Outcome[]): Outcome[] {
  const refused = step.type === 'atomic' ? refusedGroups(ops, outcomes) : new Map<string, string>();
  return ops.map((op, i) => {
    const refusedWith = op.together === undefined ? undefined : refused.get(op.together);
    return outcomes[i]!.status === 'retry' && refusedWith !== undefined ? { status: 'failed', error: withSibling(refusedWith) } : outcomes[i]!;
  });
}

/** The `together` groups with a member the service refused, each with the first such member's address. */
function refusedGroups(ops: readonly Operation[], outcomes: readonly Outcome[]): Map<string, string> {
  const refused = new Map<string, string>();
  ops.forEach((op, i) => {
    if (op.together !== undefined && outcomes[i]!.status === 'failed' && !refused.has(op.together)) refused.set(op.together, op.address);
  });
  return refused;
}
