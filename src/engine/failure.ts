/**
 * What a command says when a run stopped on an error thrown through the engine: a request the
 * service refused or never answered, or a state lock lost mid-run. Those are the run's situation,
 * not bugs, so the command prints them and exits 1; any other error is not one the engine knows,
 * and the command lets it through. The command line names no error class of the stages.
 */
import { ApiError } from '../api/errors.js';
import { LockLostError, lockLostMessage } from '../state/lock-lost.js';

/** A known failure: its one-line description, and whether it was the loss of a state lock. */
interface RunFailure {
  /** The request, its status and the service's message; or whose lock was lost and why. */
  message: string;
  lockLost: boolean;
}

/** The failure `error` stands for, or undefined when it is not one the engine knows. */
export function runFailure(error: unknown): RunFailure | undefined {
  if (error instanceof LockLostError) return { message: error.message, lockLost: true };
  if (error instanceof ApiError) return { message: error.describe(), lockLost: false };
  return undefined;
}

/**
 * What command `verb` says of `error` after `Error: `: a lost lock with what was written and how
 * to finish (`lostLocksMessage`), a failed request as it was; undefined when the engine does not
 * know the error.
 */
export function failureMessage(error: unknown, verb: string): string | undefined {
  const failure = runFailure(error);
  if (failure === undefined) return undefined;
  return failure.lockLost ? lostLocksMessage([failure.message], verb) : failure.message;
}

/**
 * What command `verb` says when the state locks of its accounts were lost (`lost`: whose lock and
 * why, one each): a plan wrote nothing and runs again; an apply sent nothing after it, and the
 * next run finishes from the journal.
 */
export function lostLocksMessage(lost: readonly string[], verb: string): string {
  return lockLostMessage(lost.join('; '), verb);
}
