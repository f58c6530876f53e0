import { EnvironmentError } from '../diag/environment-error.js';

/**
 * The error of a state operation attempted after the run lost its state lock (the server ended
 * the session that held it). It is the run's situation, not a bug: the run stops, says whose lock
 * it lost and why (an `EnvironmentError`, printed as its message alone), and the next run
 * recovers from the journal. Kept apart from the backends so a command can recognise it without
 * loading a database driver.
 */
export class LockLostError extends EnvironmentError {}

/**
 * What a run says when it stopped because a state lock was lost: `why` names the lock and the
 * cause; `verb` is the command (a plan writes nothing, so it only has to run again).
 */
export function lockLostMessage(why: string, verb: string): string {
  if (verb === 'plan') return `${why}. Nothing was written; run adsctl plan again.`;
  return (
    `${why}. No write was sent after it: what the service answered before is in the journal, ` +
    `and the requests that were in flight are looked up on the service by the next run. Run adsctl ${verb} again to finish.`
  );
}
