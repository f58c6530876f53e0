/**
 * `applyPlan`: executes one account's plan. Layers run in order, the steps of a layer together
 * (bounded by the client's parallelism); an operation is sent only when every operation it comes
 * `after` (its edges in the dependency graph) succeeded, and is skipped, with the reason,
 * otherwise. Before every write request the journal records it; after every answer the journal
 * records its outcome (the ids bound, the addresses dropped) in one small durable append, so a
 * process killed at any point loses nothing; the state itself is written as a checkpoint every few
 * seconds, when stopped, and at the end (state/apply-journal.ts).
 * A batch refused for one item is sent again without it, except that the operations of a
 * `together` group (the targeting changes of a serving line item, plan/serving.ts) are sent, and
 * fail, whole; an update names an object created earlier in the apply (its activation) by the id
 * bound then. A create with no answer is resolved by
 * re-reading the service, and sent again only when the service shows it did not happen. At most
 * `parallelism` requests are in flight; once `stop` is aborted no new one is sent, those in flight
 * finish and are recorded, and the rest are counted as not started. An apply that sends nothing
 * opens no journal, and writes the state only when what the plan records changes it: a plan with
 * nothing to do leaves the state, its kept versions and its journal as they were.
 *
 * The steps, each in its own file, share one `ApplyRun` (run.ts) passed to them explicitly:
 * - `refactorState` (refactor.ts): the plan's moves and removals made in the state first;
 * - `openRun` (run.ts): announces the start; the journal is opened by the first request;
 * - `runLayers` (layers.ts): layers in order, steps and chunks together within the slots;
 * - `runRestores` (restore.ts): after a layer, the creatives put back that a serving object would
 *   otherwise be left without, when none of its new ones could be added;
 * - `readyOperations` (ready.ts): a step's operations resolved into parameters, or skipped;
 * - `chunksOf` (chunks.ts): the requests a step's ready operations go in;
 * - `runChunk` (rounds.ts): a chunk sent again while the service asks, up to a bound;
 * - `sendOnce` (send-once.ts): one request with its journal intent and closing outcome;
 * - `readOutcomes` (outcomes.ts) and `recordSuccess`/`recordFailure`/`recordSkip` (record.ts):
 *   answers read into outcomes, and outcomes into state changes;
 * - `checkpointIfDue` (checkpoint.ts): the state checkpointed while requests go on;
 * - `finishApply` (finish.ts): what was never sent counted, the state settled, the final checkpoint
 *   (none when nothing was sent and the state is what the run found, `stateDigest`).
 */
import type { ApplyResult } from './events.js';
import { finishApply } from './finish.js';
import { runLayers } from './layers.js';
import { refactorState } from './refactor.js';
import { openRun, operationCount, type ApplyInput } from './run.js';
import { stateDigest } from './state-digest.js';

/** Applies `input.plan` to its account, changing and checkpointing `input.state`; returns what it did. */
export async function applyPlan(input: ApplyInput): Promise<ApplyResult> {
  // taken before the moves, which change the state without a request
  const found = operationCount(input.plan) === 0 ? stateDigest(input.state) : undefined;
  await refactorState(input, (event) => input.onEvent?.(event));
  const run = await openRun(input, found);
  await runLayers(run);
  return finishApply(run);
}
