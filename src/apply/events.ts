/** What `applyPlan` reports while it runs; the command line decides how to show it. */

export type ApplyEvent =
  | { type: 'start'; account: string; operations: number }
  /**
   * A write request goes out now, carrying operations of a step that were never sent before
   * (`addresses`): told once its slot is taken and the apply was not stopped, so an operation
   * skipped or stopped is never told; only a lost lock, which ends the run, can still keep it from
   * the wire. A request sent again for the same operations, and one that puts a creative back
   * (told by `restored`), are not told here.
   */
  | { type: 'sending'; account: string; kind: string; action: string; addresses: string[] }
  | { type: 'progress'; account: string; done: number; total: number }
  /** A long write (an upload, a membership sync) says how far it got. */
  | { type: 'working'; account: string; address: string; message: string }
  | { type: 'failed'; account: string; address: string; message: string }
  | { type: 'skipped'; account: string; address: string; because: string }
  | { type: 'resolved'; account: string; address: string; id: string | undefined }
  /**
   * A creative of the serving object `parent` was put back (`address`), since none of the new ones
   * (`insteadOf`) could be added: `reason` is the first of their errors.
   */
  | { type: 'restored'; account: string; parent: string; address: string; insteadOf: string[]; reason: string };

/**
 * What an apply did. `added`, `changed` and `destroyed` count resources, as the plan's summary
 * does; `sent`, `applied`, `refused`, `skipped` and `notStarted` count the plan's operations, as
 * an interrupted apply tells them: every operation is sent, skipped or not started, and one sent is
 * applied, refused, or (when the apply was stopped before it could be sent again) neither.
 */
export interface ApplyResult {
  added: number;
  changed: number;
  destroyed: number;
  /** Every operation that did not happen, with why. */
  errors: Array<{ address: string; message: string }>;
  /** Operations whose request went out (whatever its answer). */
  sent: number;
  /** Operations sent and applied. */
  applied: number;
  /** Operations sent and not applied: the service refused them, or they were sent as often as allowed. */
  refused: number;
  /** Operations not sent because what they wait for failed (they are among the errors). */
  skipped: number;
  /** Operations never sent because the apply was stopped (they are not among the errors). */
  notStarted: number;
}

/** The result of an apply that has done nothing yet. */
export const emptyResult = (): ApplyResult => ({ added: 0, changed: 0, destroyed: 0, errors: [], sent: 0, applied: 0, refused: 0, skipped: 0, notStarted: 0 });
