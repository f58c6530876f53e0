/**
 * Checkpoints of the state while an apply goes on: at most every `everyMs`, never two at once;
 * after one, the journal keeps only what the checkpoint lacks (state/apply-journal.ts).
 */
import type { ApplyRun } from './run.js';

/** Checkpoints the state when the last checkpoint is old enough and none is being written. */
export async function checkpointIfDue(run: ApplyRun): Promise<void> {
  const { checkpoints, state } = run;
  if (checkpoints.busy || run.now() - checkpoints.last < checkpoints.everyMs) return;
  checkpoints.busy = true;
  try {
    const serial = state.serial;
    await run.store.checkpoint(state, checkpoints.operation, false);
    await run.journal.compact(serial);
    checkpoints.last = run.now();
  } finally {
    checkpoints.busy = false;
  }
}
