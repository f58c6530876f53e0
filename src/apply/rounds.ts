/**
 * Retrying what the service asks to retry: a chunk is sent again, without the operations that got
 * an outcome, while some were refused only because of a sibling or went unanswered, up to
 * `MAX_ROUNDS` requests. Each request waits for one of the run's slots, and none is sent once the
 * apply is stopped; the operations a request carries for the first time are told (`sending`) once
 * it is sure to go out.
 */
import { stepVerb } from '../plan/steps.js';
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
      announce(run, step, pending);
      pending = await sendOnce(run, step, pending);
    } finally {
      run.slots.release();
    }
  }
  return true;
}

/**
 * Tells that the operations of `chunk` not sent before go out now, and counts them as sent; a
 * creative put back is told once it is back (restore.ts), and counts in none of the plan's totals.
 */
function announce(run: ApplyRun, step: Step, chunk: readonly Sendable[]): void {
  const first = chunk.filter(({ op }) => op.phase !== 'restore' && !run.tally.sent.has(op.key));
  if (first.length === 0) return;
  for (const { op } of first) run.tally.sent.add(op.key);
  run.emit({ type: 'sending', account: run.plan.account, kind: step.kind, action: stepVerb(step), addresses: first.map(({ op }) => op.address) });
}
