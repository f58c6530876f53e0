/**
 * The back half of apply and destroy: confirmation, creating a new sandbox account where the
 * manifest asks adsctl to, `applyPlan` per account with progress, and the summary. Exit code 1
 * when anything failed; what succeeded is in the state either way. SIGINT and SIGTERM stop the
 * writes cleanly (interrupt.ts): exit 130 or 143, saying what was done and what is left. A state
 * lock lost mid-apply stops the writes too (`Lock.lost`): exit 1, saying whose lock and why.
 */
import type { ApplyEvent, ApplyResult } from '../apply/events.js';
import { applyPlan } from '../apply/apply.js';
import { ApiError } from '../api/errors.js';
import { hasErrors } from '../diag/diagnostic.js';
import type { AccountPlan, Plan } from '../plan/types.js';
import { renderAccountOutcomes } from '../render/apply-outcome.js';
import { renderPlan } from '../render/render.js';
import { ApplyJournal, noChanges } from '../state/apply-journal.js';
import { LockLostError, lockLostMessage } from '../state/lock-lost.js';
import { createdAccountCandidates } from '../apply/find-created.js';
import { otherBoundAccounts } from '../apply/recover.js';
import { KINDS } from '../kinds/registry.js';
import { INTERRUPT_EXIT, watchInterrupts, type Interrupts } from './interrupt.js';
import type { Io } from './io.js';
import { useColor } from './color.js';
import { hasChanges, prepareOrReport } from './prepare.js';
import { progressPrinter } from './progress.js';
import type { RunFlags } from './run-options.js';
import type { AccountSession } from './session.js';

/** Asks for `yes` on a terminal; without one, only `--auto-approve` approves. */
async function confirm(io: Io, autoApprove: boolean, question: string): Promise<'yes' | 'no' | 'not-interactive'> {
  if (autoApprove) return 'yes';
  if (!io.interactive) return 'not-interactive';
  const answer = await io.readLine(`\n${question}\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: `);
  return answer === 'yes' ? 'yes' : 'no';
}

/** Creates the sandbox account a manifest without an account id asks for; returns its id. */
async function ensureAccount(session: AccountSession, accountPlan: AccountPlan): Promise<string | undefined> {
  if (session.accountId !== undefined) return session.accountId;
  const wantsAccount = accountPlan.changes.some((c) => KINDS[c.kind].address.key === 'root' && c.action === 'create');
  if (!wantsAccount || !session.endpoint.sandbox) return undefined;
  const { store } = session;
  const journal = await ApplyJournal.open(store, session.state);
  const sentAt = Date.now();
  const seq = await journal.intend([{ address: 'account', kind: 'account', action: 'create', params: {} }], sentAt);
  let id: string;
  try {
    id = (await session.api.createSandboxAccount()).id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.outcome !== 'unknown') throw error;
    // no answer: look before creating again, so a lost answer does not leave two accounts
    const candidates = await createdAccountCandidates(session.api, sentAt, await otherBoundAccounts(store, session.state.account));
    if (candidates.length > 1) throw new ApiError({ status: 0, items: [{ code: 'AMBIGUOUS', message: `creating the sandbox account had no answer and ${candidates.length} new accounts (${candidates.join(', ')}) could be it; bind the right one with account.id` }], retryable: false, outcome: 'unknown', request: 'POST /12/accounts' });
    id = candidates[0] ?? (await session.api.createSandboxAccount()).id;
  }
  session.accountId = id;
  session.state.account_id = id;
  session.state.serial++;
  await journal.close(seq, session.state.serial, { ...noChanges(), accountId: id });
  return id;
}

interface ExecuteOptions {
  /** Aborted to stop the writes: nothing more is sent, what is in flight is recorded. */
  stop?: AbortSignal;
  /** Write requests in flight at once (`--parallelism`). */
  parallelism?: number;
  /** `apply` or `destroy`: what the versions of state it keeps are named after. */
  operation?: string;
}

/** One account's part of an apply. */
interface AccountOutcome extends ApplyResult {
  account: string;
  /** Why the account's state lock was lost during the apply, which then stopped writing. */
  lockLost?: string;
}

const operationCount = (accountPlan: AccountPlan): number => accountPlan.layers.flat().reduce((n, step) => n + step.operations.length, 0);

/** What one account's apply did, or why it did not. */
async function applyAccount(accountPlan: AccountPlan, session: AccountSession, onEvent: (event: ApplyEvent) => void, options: ExecuteOptions): Promise<ApplyResult> {
  const result: ApplyResult = { added: 0, changed: 0, destroyed: 0, errors: [], notStarted: 0 };
  if (options.stop?.aborted === true) return { ...result, notStarted: operationCount(accountPlan) };
  let accountId: string | undefined;
  try {
    accountId = await ensureAccount(session, accountPlan);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ...result, errors: [{ address: 'account', message: error.describe() }] };
  }
  if (accountId === undefined) {
    return { ...result, errors: [{ address: 'account', message: `account ${accountPlan.account} has no id and endpoint ${session.endpointName} cannot create one (only sandbox and local can)` }] };
  }
  return applyPlan({
    plan: accountPlan,
    api: session.api,
    accountId,
    state: session.state,
    store: session.store,
    stateDir: session.stateDir,
    onEvent,
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.stop === undefined ? {} : { stop: options.stop }),
    ...(options.parallelism === undefined ? {} : { parallelism: options.parallelism }),
  });
}

/** Why `lost` was aborted, in words. */
const lostReason = (lost: AbortSignal): string => (lost.reason instanceof Error ? lost.reason.message : String(lost.reason));

/**
 * One account's apply, stopped when its state lock is lost: nothing more is sent, and a lock
 * lost is the account's outcome whether the apply then ends or fails writing the state.
 */
async function applyLocked(accountPlan: AccountPlan, session: AccountSession, onEvent: (event: ApplyEvent) => void, options: ExecuteOptions): Promise<AccountOutcome> {
  const lost = session.lock.lost;
  const stops = [options.stop, lost].filter((s): s is AbortSignal => s !== undefined);
  const stop = stops.length > 1 ? AbortSignal.any(stops) : stops[0];
  try {
    const result = await applyAccount(accountPlan, session, onEvent, { ...options, ...(stop === undefined ? {} : { stop }) });
    return { account: accountPlan.account, ...result, ...(lost?.aborted === true ? { lockLost: lostReason(lost) } : {}) };
  } catch (error) {
    if (lost?.aborted !== true) throw error;
    return { account: accountPlan.account, added: 0, changed: 0, destroyed: 0, notStarted: 0, errors: [], lockLost: lostReason(lost) };
  }
}

/**
 * Applies every account's plan, the accounts at once (their requests in flight bounded together
 * by the run's budget, session.ts); returns the summed counts, every error, and each account's
 * own result. One account's failure — an error the service answers, or a state it cannot write —
 * is that account's: the others go on.
 */
async function executePlan(io: Io, plan: Plan, sessions: readonly AccountSession[], tty: boolean, options: ExecuteOptions = {}): Promise<ApplyResult & { accounts: AccountOutcome[] }> {
  const onEvent = progressPrinter(io, tty, { plan });
  const accounts = await Promise.all(
    plan.accounts.map(async (accountPlan): Promise<AccountOutcome> => {
      const session = sessions.find((s) => s.key === accountPlan.account);
      if (session === undefined) throw new Error(`no session for account ${accountPlan.account}`);
      try {
        return await applyLocked(accountPlan, session, onEvent, options);
      } catch (error) {
        if (!(error instanceof Error) || plan.accounts.length === 1) throw error;
        return { account: accountPlan.account, added: 0, changed: 0, destroyed: 0, notStarted: 0, errors: [{ address: 'account', message: error.message }] };
      }
    }),
  );
  const several = accounts.length > 1;
  return {
    added: accounts.reduce((n, a) => n + a.added, 0),
    changed: accounts.reduce((n, a) => n + a.changed, 0),
    destroyed: accounts.reduce((n, a) => n + a.destroyed, 0),
    notStarted: accounts.reduce((n, a) => n + a.notStarted, 0),
    // with several accounts, each error says whose it is
    errors: accounts.flatMap((a) => a.errors.map((e) => (several ? { ...e, address: `${a.account}: ${e.address}` } : e))),
    accounts,
  };
}

/** How the end of an apply or destroy is told. */
interface ApplyReport {
  /** `apply` or `destroy`, in messages. */
  verb: string;
  summary: (result: ApplyResult) => string;
  tty: boolean;
  /** Write requests in flight at once (`--parallelism`). */
  parallelism?: number;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * Applies a plan whose sessions are open and says how it ended: the summary (exit 0, or 1 when
 * anything failed), or, when SIGINT or SIGTERM stopped it, every error, what was applied and what
 * is left (exit 130 or 143). Watches the signals itself unless the caller already does.
 */
export async function applyAndReport(io: Io, plan: Plan, sessions: readonly AccountSession[], how: ApplyReport, setExit: (code: number) => void, interrupts?: Interrupts): Promise<void> {
  const watch = interrupts ?? watchInterrupts((text) => io.err(text));
  try {
    const result = await executePlan(io, plan, sessions, how.tty, { stop: watch.drain(), operation: how.verb, ...(how.parallelism === undefined ? {} : { parallelism: how.parallelism }) });
    const perAccount = renderAccountOutcomes(result.accounts, how.verb === 'destroy' ? 'destroy' : 'apply');
    const lost = result.accounts.flatMap((a) => (a.lockLost === undefined ? [] : [a.lockLost]));
    if (lost.length > 0) {
      const blocks = result.errors.map((e) => `Error: ${e.address}: ${e.message}\n\n`).join('');
      io.err(`\n${blocks}Error: ${lockLostMessage(lost.join('; '), how.verb)}\n`);
      return setExit(1);
    }
    const signal = watch.received();
    if (signal !== undefined) {
      const blocks = result.errors.map((e) => `Error: ${e.address}: ${e.message}\n\n`).join('');
      io.err(`\n${blocks}Interrupted: ${plural(result.added + result.changed + result.destroyed, 'operation')} applied, ${result.notStarted} not started; run adsctl ${how.verb} again to finish.\n`);
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
      io.out(renderPlan(plan, 'text', { color: useColor(flags.colorChoice ?? 'auto', io.env, tty), sources }));
      if (hasErrors(plan.diagnostics)) return setExit(1);
      if (hasChanges(plan)) {
        const answer = await confirm(io, flags.autoApprove === true, how.question);
        if (answer !== 'yes') {
          io.err(answer === 'not-interactive' ? `Error: ${how.verb} needs confirmation: run it in a terminal, or pass --auto-approve\n` : `${how.verb[0]!.toUpperCase()}${how.verb.slice(1)} cancelled.\n`);
          return setExit(1);
        }
      }
      await applyAndReport(io, plan, sessions.sessions, { verb: how.verb, summary: how.summary, tty, parallelism: flags.parallelism }, setExit, interrupts);
    } catch (error) {
      if (error instanceof LockLostError) {
        io.err(`Error: ${lockLostMessage(error.message, how.verb)}\n`);
        return setExit(1);
      }
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      setExit(1);
    } finally {
      await sessions.close();
    }
  } finally {
    interrupts.dispose();
  }
}
