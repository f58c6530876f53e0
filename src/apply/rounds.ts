/**
 * Retrying what the service asks to retry: a chunk is sent again, without the operations that got
 * an outcome, while some were refused only because of a sibling or went unanswered, up to
 * `MAX_ROUNDS` requests. Each request waits for one of the run's slots, and none is sent once the
 * apply is stopped.
 */
import type { Step } from '../plan/types.js';
import type { Sendable } from './ready.js';
import { recordFailure } from './record.js';
import type { ApplyRun } from './run.js';
import { sendOnce } from './send-once.js';

/** Rounds of re-sending operations refused only because of a sibling, or with no answer. */
const MAX_ROUNDS = 4;

/** Sends `chunk` until every operation has an outcome; false when the apply was stopped first. */
export async function runChunk(run: ApplyRun, step: Step, chunk: Sendable[]): Promise<boolean> {
  let pending = chunk;
  for (let round = 1; pending.length > 0; round++) {
    if (round > MAX_ROUNDS) {
      for (const { op } of pending) recordFailure(run, op, `not applied after ${MAX_ROUNDS} attempts`);
      return true;
    }
    await run.slots.acquire();
    try {
      if (run.stopped()) return false;
      pending = await sendOnce(run, step, pending);
    } finally {
      run.slots.release();
    }
  }
  return true;
}
