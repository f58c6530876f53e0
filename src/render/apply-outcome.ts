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
