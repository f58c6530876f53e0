/**
 * `adsctl apply --refresh-only [PATH]`, as Terraform's `apply -refresh-only`: reads the live
 * accounts as `plan --refresh-only` does and shows what changed outside adsctl in the same words,
 * asks for `yes` as apply asks (or takes `--auto-approve`), then writes only the state: what is
 * live is accepted as what adsctl last applied (src/engine/accept-live.ts). Nothing is sent to
 * the service. With no drift it says so and writes nothing. Exit codes as apply's: 0 done (or
 * nothing to do), 1 an error, a refused confirmation or a state that could not be written.
 */
import { hasErrors } from '../diag/diagnostic.js';
import { acceptedScope, acceptLiveAccounts, type Acceptance, type AcceptOutcome } from '../engine/accept-live.js';
import { runFailure } from '../engine/failure.js';
import { hasDrift } from '../render/refresh-only.js';
import { renderRefreshOnly } from '../render/refresh-only.js';
import { useColor } from './color.js';
import { approved } from './execute.js';
import type { Io, SetExit } from './io.js';
import { prepareOrReport } from './prepare.js';
import type { RunFlags } from './run-options.js';
import { tellRemovedVersions } from './removed-versions.js';

/** What the state versions written are named after (`adsctl state history`), and the lock's operation. */
const OPERATION = 'apply --refresh-only';

const QUESTION = 'Would you like to update the adsctl state to reflect these detected changes?\n  adsctl will write these changes to the state without changing anything in the accounts.';

const counted = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The closing line of a refresh-only apply that wrote the states of `outcomes` (exported for the engine's in-process tests, which print it as the command does). */
export function completeLine(outcomes: readonly AcceptOutcome[]): string {
  const written = outcomes.flatMap((o) => (o.acceptance === undefined ? [] : [o.acceptance]));
  const sum = (f: (a: Acceptance) => number): number => written.reduce((n, a) => n + f(a), 0);
  const parts = [
    `${counted(sum((a) => a.accepted.length), 'object', 'objects')} changed outside adsctl recorded as live`,
    `${counted(sum((a) => a.forgotten.length), 'address', 'addresses')} deleted outside adsctl forgotten`,
    ...(sum((a) => a.bound.length) > 0 ? [`${counted(sum((a) => a.bound.length), 'object', 'objects')} added outside adsctl bound`] : []),
    `${counted(sum((a) => a.seen), 'object', 'objects')} not managed by adsctl recorded as seen`,
  ];
  return `Apply complete! State updated: ${parts.join(', ')}. Nothing was sent to the service.\n`;
}

/** Says how the writes ended; exit 1 when any account's state was not written. */
function report(io: Io, outcomes: readonly AcceptOutcome[], setExit: SetExit): void {
  const failed = outcomes.filter((o) => o.error !== undefined || o.lockLost !== undefined);
  for (const o of failed) {
    if (o.lockLost !== undefined) io.err(`Error: ${o.lockLost}. The state of account ${o.account} was not written and nothing was sent to the service; run adsctl apply --refresh-only again.\n`);
    else io.err(`Error: ${o.error}\n`);
  }
  if (failed.length < outcomes.length) (failed.length === 0 ? io.out : io.err)(`\n${completeLine(outcomes)}`);
  setExit(failed.length > 0 ? 1 : 0);
}

/** Runs `adsctl apply --refresh-only` on the manifests at `path`. */
export async function applyRefreshOnly(io: Io, path: string, flags: RunFlags & { autoApprove?: boolean }, setExit: SetExit, tty: boolean): Promise<void> {
  const prepared = await prepareOrReport(io, path, flags, 'plan', OPERATION, setExit);
  if (prepared === undefined) return;
  const { sessions, sources } = prepared;
  try {
    const scope = { targeted: (flags.target?.length ?? 0) > 0 };
    const plan = acceptedScope(prepared.plan, scope);
    io.out(renderRefreshOnly(plan, 'text', { color: useColor(flags.colorChoice ?? 'auto', io.env, tty), sources }));
    if (hasErrors(plan.diagnostics)) return setExit(1);
    // nothing changed outside adsctl: the text above says so, and the state is left as it is
    if (!hasDrift(plan)) return setExit(0);
    if (!(await approved(io, flags.autoApprove === true, QUESTION, 'apply'))) return setExit(1);
    const outcomes = await acceptLiveAccounts(plan, sessions.sessions, scope, OPERATION);
    tellRemovedVersions(io, sessions.sessions.map((s) => s.store));
    report(io, outcomes, setExit);
  } catch (error) {
    const failure = runFailure(error);
    if (failure === undefined) throw error;
    io.err(`Error: ${failure.message}${failure.lockLost ? '. Nothing was sent to the service; run adsctl apply --refresh-only again.' : ''}\n`);
    setExit(1);
  } finally {
    await sessions.close();
  }
}
