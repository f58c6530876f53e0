/**
 * The plan's moves and removals (the manifest's `moved` and `removed` entries, plan/moves.ts),
 * made in the state before anything is sent: the state entries renamed or forgotten, the member
 * stores moved with their memberships, and the state checkpointed, so the outcomes journalled
 * next, at the new addresses, land on a state that has them. Nothing is sent to the service: the
 * plan already diffed against the moved state. A run killed before the checkpoint loses nothing:
 * the next plan makes the same moves from the same entries.
 */
import { membershipMoves, moveMemberStores, type MembershipMove } from '../members/store-move.js';
import { parseAddress } from '../manifest/address.js';
import { addressMoves, moveEntries, removeEntries, takenDestination } from '../plan/moves.js';
import type { ApplyEvent } from './events.js';
import type { ApplyInput } from './run.js';

/** Makes the plan's moves and removals in `input.state`, telling `emit` of a member store that could not move. */
export async function refactorState(input: ApplyInput, emit: (event: ApplyEvent) => void): Promise<void> {
  const { plan, state } = input;
  const moves = plan.moves ?? [];
  const removals = plan.removals ?? [];
  if (moves.length === 0 && removals.length === 0) return;
  const memberships: MembershipMove[] = [];
  for (const move of moves) {
    const from = parseAddress(move.from).value;
    const to = parseAddress(move.to).value;
    if (from === undefined || to === undefined) continue;
    const pairs = addressMoves(state, from, to);
    // the plan checked the destination against the same state, which is locked since
    if (takenDestination(state, pairs) !== undefined) continue;
    memberships.push(...membershipMoves(moveEntries(state, pairs)));
  }
  for (const removal of removals) removeEntries(state, removal.address);
  await input.store.checkpoint(state, input.operation ?? 'apply', false);
  const problems = await moveMemberStores([input.stateDir], plan.account, input.store.memberRows?.(plan.account), memberships);
  for (const { to, problem } of problems) emit({ type: 'working', account: plan.account, address: to, message: `the members last uploaded did not move: ${problem}; the next plan says what to do` });
}
