/**
 * What `apply` and `destroy` say when they end, in Terraform's words, and only when it is true:
 * `Apply complete! ...` only when every operation succeeded. Otherwise every error is shown as
 * its own `Error: ADDRESS: MESSAGE` block, then `Apply failed: N errors; ...` with what did
 * happen, so nothing grepping for `Apply complete!` takes a partial apply for a good one.
 */

/** What an apply did: the operations that succeeded, counted, and every one that did not, with why. */
export interface ApplyOutcome {
  added: number;
  changed: number;
  destroyed: number;
  errors: ReadonlyArray<{ address: string; message: string }>;
}

function count(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** The error blocks and the failed line, or the complete line when there is no error. */
function outcome(result: ApplyOutcome, verb: 'Apply' | 'Destroy', counts: string): string {
  if (result.errors.length === 0) return `${verb} complete! Resources: ${counts}.`;
  const blocks = result.errors.map((e) => `Error: ${e.address}: ${e.message}\n`);
  return `${blocks.join('\n')}\n${verb} failed: ${count(result.errors.length, 'error', 'errors')}; ${counts}.`;
}

/**
 * What `apply` prints when it ends: `Apply complete! Resources: N added, N changed, N destroyed.`
 * when every operation succeeded; otherwise one `Error: ADDRESS: MESSAGE` block per error and
 * `Apply failed: N errors; N added, N changed, N destroyed.` The CLI prints a failure to stderr.
 */
export function renderApplyOutcome(result: ApplyOutcome): string {
  return outcome(result, 'Apply', `${result.added} added, ${result.changed} changed, ${result.destroyed} destroyed`);
}

/**
 * What `destroy` prints when it ends: `Destroy complete! Resources: N destroyed.` when every
 * operation succeeded; otherwise the error blocks and `Destroy failed: N errors; N destroyed.`
 */
export function renderDestroyOutcome(result: ApplyOutcome): string {
  return outcome(result, 'Destroy', `${result.destroyed} destroyed`);
}

/** What an interrupted apply did with the plan's operations (events.ts, `ApplyResult`). */
interface InterruptedOutcome {
  sent: number;
  applied: number;
  refused: number;
  skipped: number;
  notStarted: number;
  errors: ReadonlyArray<{ address: string; message: string }>;
}

/**
 * What `apply` and `destroy` (`verb`) say when a signal stopped them, after the error blocks: how
 * many operations went out and what became of them, how many were skipped and never sent, and what
 * to do next. When every write had gone out before the signal, it says so, and that nothing is left
 * to do but what the errors, if any, ask.
 *
 *   Interrupted: 40 operations sent (38 applied, 2 refused), 15 not started; run adsctl apply again to finish.
 *   Interrupted after every write had been sent: 55 operations applied. Nothing is left to apply.
 */
export function renderInterrupted(result: InterruptedOutcome, verb: 'apply' | 'destroy'): string {
  const unanswered = result.sent - result.applied - result.refused;
  const skipped = result.skipped > 0 ? `, ${result.skipped} skipped` : '';
  if (result.notStarted === 0 && unanswered === 0) {
    const done = `Interrupted after every write had been sent: ${count(result.applied, 'operation', 'operations')} applied${result.refused > 0 ? `, ${result.refused} refused` : ''}${skipped}.`;
    return result.errors.length === 0 ? `${done} Nothing is left to ${verb}.` : `${done} Fix the errors above, then run adsctl ${verb} again.`;
  }
  const outcomes = [`${result.applied} applied`, ...(result.refused > 0 ? [`${result.refused} refused`] : []), ...(unanswered > 0 ? [`${unanswered} to send again`] : [])];
  return `Interrupted: ${count(result.sent, 'operation', 'operations')} sent (${outcomes.join(', ')})${skipped}, ${result.notStarted} not started; run adsctl ${verb} again to finish.`;
}

/**
 * With several accounts, what each did, a line each, and — when some failed — which ones:
 * `Failed accounts (2 of 5): acme, beta.` Empty for a single account, whose summary says it all.
 */
export function renderAccountOutcomes(accounts: ReadonlyArray<ApplyOutcome & { account: string }>, verb: 'apply' | 'destroy'): { lines: string; failed: string } {
  if (accounts.length < 2) return { lines: '', failed: '' };
  const counts = (a: ApplyOutcome): string => (verb === 'destroy' ? `${a.destroyed} destroyed` : `${a.added} added, ${a.changed} changed, ${a.destroyed} destroyed`);
  const lines = accounts.map((a) => `  ${a.account}: ${a.errors.length === 0 ? 'complete' : `failed (${count(a.errors.length, 'error', 'errors')})`}; ${counts(a)}\n`).join('');
  const failed = accounts.filter((a) => a.errors.length > 0).map((a) => a.account);
  return {
    lines: `\nAccounts:\n${lines}`,
    failed: failed.length === 0 ? '' : `Failed accounts (${failed.length} of ${accounts.length}): ${failed.join(', ')}.\n`,
  };
}
