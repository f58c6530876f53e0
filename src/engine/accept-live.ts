/**
 * `adsctl apply --refresh-only` (Terraform's `apply -refresh-only`): what a refresh-only plan
 * found changed outside adsctl is accepted into the state, and nothing is sent to the service.
 * The values last applied of every drifted attribute become its live value, so the drift is no
 * longer drift and a later plan shows the manifest's value as a change of the manifest; an object
 * deleted outside adsctl leaves the state with everything under it; a member of an owned
 * collection added by hand is bound at the address the manifest would give it, its live values
 * recorded as applied (as an import records them); the objects not managed by adsctl become the
 * ones seen now (`unmanaged_seen`). Members of audiences are not read from the service (it does
 * not list them), so their stores are left as they are.
 *
 * `acceptLive` decides what one account's state becomes (pure); `acceptLiveAccounts` writes it,
 * under the locks the sessions hold, through the store's ordinary write (a kept version named
 * after the run).
 */
import { refactorState } from '../apply/refactor.js';
import type { ResourceChange } from '../diff/types.js';
import { seenRecord } from '../diff/unmanaged.js';
import { formatAddress } from '../manifest/address.js';
import { accountHasDrift, isDrift } from '../plan/drift.js';
import type { AccountPlan, Plan } from '../plan/types.js';
import { LockLostError } from '../state/lock-lost.js';
import type { AccountState, StateResource } from '../state/state-file.js';
import type { AccountSession } from './accounts.js';

/** What a refresh-only apply records of one account. */
export interface Acceptance {
  /** The state to write: a copy of the one given, with the live values accepted. */
  state: AccountState;
  /** Addresses whose values last applied became the live ones. */
  accepted: string[];
  /** Addresses now bound to members of owned collections made outside adsctl. */
  bound: string[];
  /** Addresses that left the state: objects deleted outside adsctl, and what was under them. */
  forgotten: string[];
  /** Objects not managed by adsctl that appeared since the last apply, now recorded as seen. */
  seen: number;
}

/** What a refresh-only apply accepts: every account, or only the targeted resources (`--target`). */
interface AcceptScope {
  /**
   * The plan was limited to `--target` addresses: only their drift is in it, and the objects not
   * managed by adsctl, which no target names, are left as the state last recorded them.
   */
  targeted: boolean;
}

/** Whether address text `text` is `parent` or under it. */
const within = (text: string, parent: string): boolean => text === parent || (text.startsWith(parent) && text[parent.length] === '.');

/** `entry` with the live value of every attribute of `change` that drifted recorded as applied. */
function acceptedEntry(entry: StateResource, change: ResourceChange, at: string): StateResource {
  const applied = { ...entry.applied };
  for (const c of change.changes) if (c.origin === 'drift') applied[c.path] = c.before;
  return { ...entry, applied, recorded_at: at };
}

/** `account` as a refresh-only apply within `scope` sees it: under `--target`, without the objects not managed by adsctl. */
function scoped(account: AccountPlan, scope: AcceptScope): AccountPlan {
  if (!scope.targeted || account.unmanaged === undefined) return account;
  const { unmanaged: _, ...rest } = account;
  return rest;
}

/**
 * The plan `plan` as a refresh-only apply within `scope` accepts it, to be shown before it asks:
 * under `--target`, without the objects not managed by adsctl (no target names them, so they are
 * neither shown nor recorded).
 */
export function acceptedScope(plan: Plan, scope: AcceptScope): Plan {
  return scope.targeted ? { ...plan, accounts: plan.accounts.map((a) => scoped(a, scope)) } : plan;
}

/**
 * What the state of `account` becomes once its drift is accepted: `state` (as the plan read it,
 * after the plan's moves and removals) with every change made outside adsctl taken as it is live;
 * undefined when the account has no drift, and then nothing is to be written. What is accepted is
 * recorded `at` (`StateResource.recorded_at`); the drift it leaves keeps its own time.
 */
export function acceptLive(account: AccountPlan, state: AccountState, scope: AcceptScope, at: string): Acceptance | undefined {
  const plan = scoped(account, scope);
  if (!accountHasDrift(plan)) return undefined;
  const resources = { ...state.resources };
  const out: Acceptance = { state: { ...state, resources }, accepted: [], bound: [], forgotten: [], seen: 0 };
  const drifted = plan.changes.filter(isDrift);
  for (const change of drifted) {
    const text = formatAddress(change.address);
    if (change.reason === 'deleted_outside') {
      for (const address of Object.keys(resources)) {
        if (!within(address, text)) continue;
        delete resources[address];
        out.forgotten.push(address);
      }
    } else if (change.reason === 'added_outside') {
      if (change.id === undefined || change.before === null || resources[text] !== undefined) continue;
      resources[text] = { kind: change.kind, id: change.id, applied: { ...change.before }, recorded_at: at };
      out.bound.push(text);
    } else {
      const entry = resources[text];
      if (entry === undefined || !change.changes.some((c) => c.origin === 'drift')) continue;
      resources[text] = acceptedEntry(entry, change, at);
      out.accepted.push(text);
    }
  }
  if (plan.unmanaged !== undefined) {
    // the objects a `removed` entry let go stay live and are not drift either (as apply records them)
    const released = (plan.removals ?? []).flatMap((r) => (r.id === undefined ? [] : [{ kind: r.kind, id: r.id }]));
    const seen = seenRecord(plan.unmanaged, released);
    if (JSON.stringify(seen) !== JSON.stringify(out.state.unmanaged_seen) || out.state.unmanaged_seen_at === undefined) out.state.unmanaged_seen_at = at;
    if (seen === undefined) delete out.state.unmanaged_seen;
    else out.state.unmanaged_seen = seen;
    out.seen = plan.unmanaged.filter((u) => u.new).length;
  }
  out.forgotten.sort();
  return out;
}

/** How a refresh-only apply of one account ended. */
export interface AcceptOutcome {
  account: string;
  /** What was written; absent when the account had no drift (nothing was written) or it failed. */
  acceptance?: Acceptance;
  /** Why the state could not be written (nothing of it was then). */
  error?: string;
  /** Why the account's state lock was lost before its state was written. */
  lockLost?: string;
}

/** Why the lock whose `lost` signal this is was lost, in words; undefined while it is held. */
function lostReason(lost: AbortSignal | undefined): string | undefined {
  if (lost?.aborted !== true) return undefined;
  return lost.reason instanceof Error ? lost.reason.message : String(lost.reason);
}

/** Writes the acceptance of one account under its session's lock, the plan's moves and removals made first as apply makes them. */
async function acceptAccount(account: AccountPlan, session: AccountSession, scope: AcceptScope, operation: string): Promise<AcceptOutcome> {
  const lost = session.lock.lost;
  const lostBefore = lostReason(lost);
  if (lostBefore !== undefined) return { account: account.account, lockLost: lostBefore };
  if (!accountHasDrift(scoped(account, scope))) return { account: account.account };
  try {
    // the plan diffed against the state with its moves and removals made: they are made first, as apply makes them (nothing is sent)
    if ((account.moves?.length ?? 0) > 0 || (account.removals?.length ?? 0) > 0) {
      await refactorState({ plan: account, api: session.api, accountId: session.accountId ?? '', state: session.state, store: session.store, stateDir: session.stateDir, operation }, () => {});
    }
    const acceptance = acceptLive(account, session.state, scope, session.clock.now().toISOString());
    if (acceptance === undefined) return { account: account.account };
    await session.store.write(acceptance.state, operation);
    session.state = acceptance.state;
    return { account: account.account, acceptance };
  } catch (error) {
    const lostMeanwhile = lostReason(lost);
    if (lostMeanwhile !== undefined) return { account: account.account, lockLost: lostMeanwhile };
    if (error instanceof LockLostError) return { account: account.account, lockLost: error.message };
    if (!(error instanceof Error)) throw error;
    return { account: account.account, error: `the state of account ${account.account} could not be written: ${error.message}` };
  }
}

/**
 * Accepts the drift of every account of `plan` (made by `planAccounts` against `sessions`, whose
 * locks are still held) into its state; `operation` names the versions written. Sends nothing.
 */
export async function acceptLiveAccounts(plan: Plan, sessions: readonly AccountSession[], scope: AcceptScope, operation: string): Promise<AcceptOutcome[]> {
  const outcomes: AcceptOutcome[] = [];
  for (const account of plan.accounts) {
    const session = sessions.find((s) => s.key === account.account);
    if (session === undefined) throw new Error(`no session for account ${account.account}`);
    outcomes.push(await acceptAccount(account, session, scope, operation));
  }
  return outcomes;
}
