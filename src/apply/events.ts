/** What `applyPlan` reports while it runs; the command line decides how to show it. */

export type ApplyEvent =
  | { type: 'start'; account: string; operations: number }
  | { type: 'step'; account: string; kind: string; action: string; operations: number }
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

export interface ApplyResult {
  added: number;
  changed: number;
  destroyed: number;
  /** Every operation that did not happen, with why. */
  errors: Array<{ address: string; message: string }>;
  /** Operations never sent because the apply was stopped (they are not among the errors). */
  notStarted: number;
}
