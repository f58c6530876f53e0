/**
 * Applying a plan whose accounts are open (Terraform's Context.Apply): each account's part at
 * once, their requests in flight bounded together by the run's budget (accounts.ts) and each
 * account's writes by the run's `parallelism` (as the session was opened with it), after
 * creating the sandbox account a manifest asks for. An account whose state lock is lost stops
 * writing (`Lock.lost`) and says so as its outcome; one account's failure — an error the service
 * answers, or a state it cannot write — is that account's: the others go on.
 */
import { applyPlan } from '../apply/apply.js';
import { emptyResult, type ApplyEvent, type ApplyResult } from '../apply/events.js';
import { operationCount } from '../apply/run.js';
import { ensureAccount } from '../apply/sandbox-account.js';
import { ApiError } from '../api/errors.js';
import type { AccountPlan, Plan } from '../plan/types.js';
import type { AccountSession } from './accounts.js';

interface ApplyOptions {
  /** Told of each operation as it starts and ends. */
  onEvent: (event: ApplyEvent) => void;
  /** Aborted to stop the writes: nothing more is sent, what is in flight is recorded. */
  stop?: AbortSignal;
  /** `apply` or `destroy`: what the versions of state it keeps are named after. */
  operation?: string;
}

/** One account's part of an apply. */
interface AccountOutcome extends ApplyResult {
  account: string;
  /** Why the account's state lock was lost during the apply, which then stopped writing. */
  lockLost?: string;
}

/** What one account's apply did, or why it did not. */
async function applyAccount(accountPlan: AccountPlan, session: AccountSession, options: ApplyOptions): Promise<ApplyResult> {
  const result = emptyResult();
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
    now: () => session.clock.now().getTime(),
    onEvent: options.onEvent,
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.stop === undefined ? {} : { stop: options.stop }),
    parallelism: session.parallelism,
  });
}

/** Why `lost` was aborted, in words. */
const lostReason = (lost: AbortSignal): string => (lost.reason instanceof Error ? lost.reason.message : String(lost.reason));

/**
 * One account's apply, stopped when its state lock is lost: nothing more is sent, and a lock
 * lost is the account's outcome whether the apply then ends or fails writing the state.
 */
async function applyLocked(accountPlan: AccountPlan, session: AccountSession, options: ApplyOptions): Promise<AccountOutcome> {
  const lost = session.lock.lost;
  const stops = [options.stop, lost].filter((s): s is AbortSignal => s !== undefined);
  const stop = stops.length > 1 ? AbortSignal.any(stops) : stops[0];
  try {
    const result = await applyAccount(accountPlan, session, { ...options, ...(stop === undefined ? {} : { stop }) });
    return { account: accountPlan.account, ...result, ...(lost?.aborted === true ? { lockLost: lostReason(lost) } : {}) };
  } catch (error) {
    if (lost?.aborted !== true) throw error;
    return { account: accountPlan.account, ...emptyResult(), lockLost: lostReason(lost) };
  }
}

/**
 * Applies every account's plan; returns the summed counts, every error (with several accounts,
 * each says whose it is), and each account's own result.
 */
export async function applyAccounts(plan: Plan, sessions: readonly AccountSession[], options: ApplyOptions): Promise<ApplyResult & { accounts: AccountOutcome[] }> {
  const accounts = await Promise.all(
    plan.accounts.map(async (accountPlan): Promise<AccountOutcome> => {
      const session = sessions.find((s) => s.key === accountPlan.account);
      if (session === undefined) throw new Error(`no session for account ${accountPlan.account}`);
      try {
        return await applyLocked(accountPlan, session, options);
      } catch (error) {
        if (!(error instanceof Error) || plan.accounts.length === 1) throw error;
        return { account: accountPlan.account, ...emptyResult(), errors: [{ address: 'account', message: error.message }] };
      }
    }),
  );
  const several = accounts.length > 1;
  const sum = (count: (a: AccountOutcome) => number): number => accounts.reduce((n, a) => n + count(a), 0);
  return {
    added: sum((a) => a.added),
    changed: sum((a) => a.changed),
    destroyed: sum((a) => a.destroyed),
    sent: sum((a) => a.sent),
    applied: sum((a) => a.applied),
    refused: sum((a) => a.refused),
    skipped: sum((a) => a.skipped),
    notStarted: sum((a) => a.notStarted),
    // with several accounts, each error says whose it is
    errors: accounts.flatMap((a) => a.errors.map((e) => (several ? { ...e, address: `${a.account}: ${e.address}` } : e))),
    accounts,
  };
}
