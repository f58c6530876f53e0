/**
 * The back half of apply and destroy as a command: confirmation, the engine's apply
 * (src/engine/apply.ts) with progress, and the summary. Exit code 1 when anything failed; what
 * succeeded is in the state either way. SIGINT and SIGTERM stop the
 * writes cleanly (interrupt.ts): exit 130 or 143, saying what was done and what is left. A state
 * lock lost mid-apply stops the writes too (`Lock.lost`): exit 1, saying whose lock and why.
 */
import type { ApplyResult } from '../apply/events.js';
import { hasErrors } from '../diag/diagnostic.js';
import type { AccountSession } from '../engine/accounts.js';
import { applyAccounts } from '../engine/apply.js';
import { failureMessage, lostLocksMessage } from '../engine/failure.js';
import { blockingViolations, runOperation } from '../engine/guardrails.js';
import type { Plan } from '../plan/types.js';
import { renderAccountOutcomes } from '../render/apply-outcome.js';
import { renderInterrupted, renderPlanPieces } from '../render/render.js';
import { INTERRUPT_EXIT, watchInterrupts, type Interrupts } from './interrupt.js';
import type { Io } from './io.js';
import { useColor } from './color.js';
import { hasChanges } from '../engine/has-changes.js';
import { prepareOrReport } from './prepare.js';
import { progressPrinter } from './progress.js';
import { tellRemovedVersions } from './removed-versions.js';
import type { RunFlags } from './run-options.js';

/**
 * Asks for `yes` and reads one line of standard input, a terminal or a pipe (`echo yes | adsctl
 * apply`, as Terraform reads it); any other answer refuses, and so does input that ends first.
 */
async function confirm(io: Io, autoApprove: boolean, question: string): Promise<'yes' | 'no' | 'no-input'> {
  if (autoApprove) return 'yes';
  const answer = await io.readLine(`\n${question}\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: `);
  return answer === undefined ? 'no-input' : answer === 'yes' ? 'yes' : 'no';
}

/**
 * Asks `question` (unless `autoApprove`) as apply and destroy ask it; on any answer but `yes`,
 * says on stderr that the run (`verb`) was cancelled, and why when standard input ended first.
 */
export async function approved(io: Io, autoApprove: boolean, question: string, verb: string): Promise<boolean> {
  const answer = await confirm(io, autoApprove, question);
  if (answer === 'yes') return true;
  const cancelled = `${verb[0]!.toUpperCase()}${verb.slice(1)} cancelled`;
  // a piped answer is not echoed: the message starts on a line of its own
  io.err(answer === 'no-input' ? `\n${cancelled}: standard input ended without an answer; pipe yes into it, or pass --auto-approve.\n` : `${io.interactive ? '' : '\n'}${cancelled}.\n`);
  return false;
}

/** How the end of an apply or destroy is told. */
interface ApplyReport {
  /** `apply` or `destroy`, in messages. */
  verb: string;
  summary: (result: ApplyResult) => string;
  tty: boolean;
}

/**
 * Applies a plan whose sessions are open and says how it ended: the summary (exit 0, or 1 when
 * anything failed), or, when SIGINT or SIGTERM stopped it, every error, what was sent, refused,
 * skipped and not started, and what to do next (exit 130 or 143). Watches the signals itself
 * unless the caller already does.
 */
export async function applyAndReport(io: Io, plan: Plan, sessions: readonly AccountSession[], how: ApplyReport, setExit: (code: number) => void, interrupts?: Interrupts): Promise<void> {
  const watch = interrupts ?? watchInterrupts((text) => io.err(text));
  const progress = progressPrinter(io, how.tty, { plan });
  try {
    const result = await applyAccounts(plan, sessions, { onEvent: progress, stop: watch.drain(), operation: runOperation(how.verb, plan) }).finally(progress.flush);
    // with the interrupted apply the run finished first
    tellRemovedVersions(io, sessions.map((s) => s.store));
    const perAccount = renderAccountOutcomes(result.accounts, how.verb === 'destroy' ? 'destroy' : 'apply');
    const lost = result.accounts.flatMap((a) => (a.lockLost === undefined ? [] : [a.lockLost]));
    if (lost.length > 0) {
      const blocks = result.errors.map((e) => `Error: ${e.address}: ${e.message}\n\n`).join('');
      io.err(`\n${blocks}Error: ${lostLocksMessage(lost, how.verb)}\n`);
      return setExit(1);
    }
    const signal = watch.received();
    if (signal !== undefined) {
      const blocks = result.errors.map((e) => `Error: ${e.address}: ${e.message}\n\n`).join('');
      io.err(`\n${blocks}${renderInterrupted(result, how.verb === 'destroy' ? 'destroy' : 'apply')}\n`);
      return setExit(INTERRUPT_EXIT[signal]);
    }
    const outcome = `${perAccount.lines}\n${how.summary(result)}\n${perAccount.failed}`;
    if (result.errors.length === 0) io.out(outcome);
    else io.err(outcome);
    setExit(result.errors.length > 0 ? 1 : 0);
  } finally {
    if (interrupts === undefined) watch.dispose();
  }
}

interface PlanThenApply {
  mode: Plan['mode'];
  /** The confirmation question. */
  question: string;
  /** `apply` or `destroy`, in messages. */
  verb: string;
  summary: (result: ApplyResult) => string;
}

/**
 * Plan, show, confirm, apply: `adsctl apply PATH` and `adsctl destroy PATH`. Exit 1 on any
 * diagnostic error, a refused confirmation, or a failed operation.
 */
export async function planThenApply(io: Io, path: string, flags: RunFlags & { autoApprove?: boolean }, how: PlanThenApply, setExit: (code: number) => void, tty: boolean): Promise<void> {
  const interrupts = watchInterrupts((text) => io.err(text));
  try {
    const prepared = await prepareOrReport(io, path, flags, how.mode, how.verb, setExit);
    if (prepared === undefined) return;
    const { plan, sessions, sources } = prepared;
    try {
      // each piece is written as it is rendered: the text of a large plan never exists whole
      for (const piece of renderPlanPieces(plan, 'text', { color: useColor(flags.colorChoice ?? 'auto', io.env, tty), sources })) io.out(piece);
      // a mandatory guardrail not lifted refuses the run before anything is written; the text above lists it
      if (hasErrors(plan.diagnostics) || blockingViolations(plan).length > 0) return setExit(1);
      if (hasChanges(plan) && !(await approved(io, flags.autoApprove === true, how.question, how.verb))) return setExit(1);
      await applyAndReport(io, plan, sessions.sessions, { verb: how.verb, summary: how.summary, tty }, setExit, interrupts);
    } catch (error) {
      const message = failureMessage(error, how.verb);
      if (message === undefined) throw error;
      io.err(`Error: ${message}\n`);
      setExit(1);
    } finally {
      await sessions.close();
    }
  } finally {
    interrupts.dispose();
  }
}
