/**
 * Checkpoints of the state while an apply goes on: at most every `everyMs`, never two at once;
 * after one, the journal keeps only what the checkpoint lacks (state/apply-journal.ts).
 */
import type { ApplyJournal } from '../state/apply-journal.js';
import type { ApplyRun } from './run.js';

/** Checkpoints the state when the last checkpoint is old enough and none is being written; `journal` is the run's, open. */
export async function checkpointIfDue(run: ApplyRun, journal: ApplyJournal): Promise<void> {
  const { checkpoints, state } = run;
  if (checkpoints.busy || run.now() - checkpoints.last < checkpoints.everyMs) return;
  checkpoints.busy = true;
  try {
    const serial = state.serial;
    await run.store.checkpoint(state, checkpoints.operation, false);
    await journal.compact(serial);
    checkpoints.last = run.now();
  } finally {
    checkpoints.busy = false;
  }
}
