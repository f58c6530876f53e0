/**
 * Planning a set of accounts (Terraform's Context.Plan): for each, finish an interrupted apply
 * first (apply and destroy) or report it (plan), refresh, read the member files, diff, limit the
 * changes to the targets, fetch the lookups the changes need, and build the plan. Each stage is
 * called with plain data; only refresh, lookups and journal recovery touch the network. The golden
 * plan tests run this same function over fixtures.
 */
import { dirname, relative, resolve } from 'node:path';
import type { AdsApi } from '../api/ads-api.js';
import { recoverJournal } from '../apply/recover.js';
import { hasErrors, type Diagnostic } from '../diag/diagnostic.js';
import { diffResources } from '../diff/diff.js';
import { driftedSubjects, withAttribution } from '../diff/drifted.js';
import type { ResourceChange } from '../diff/types.js';
import { findUnmanaged, type UnmanagedObject } from '../diff/unmanaged.js';
import { isResourceKind } from '../kinds/registry.js';
import { readAttribution } from '../live/attribution.js';
import { fetchLiveState } from '../live/fetch.js';
import type { Lookups } from '../live/lookups.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount, ResourceAddress } from '../manifest/types.js';
import { membershipDrift, readMemberships, unknownRemovals } from '../members/read.js';
import { buildPlan, type AccountPlanInput } from '../plan/build.js';
import type { InFlightCreate } from '../plan/in-flight.js';
import { lookupNeeds, type LookupNeeds } from '../plan/lookup-needs.js';
import { refactorState } from '../plan/moves.js';
import { releaseUndeletable } from '../plan/release.js';
import { liveServes } from '../plan/serving-spend.js';
import { filterTargets, targetProblems } from '../plan/targets.js';
import { unmanagedChildren } from '../plan/unmanaged-children.js';
import type { Plan } from '../plan/types.js';
import { membersStoreOf, type MembersStoreLocation } from '../members/store-path.js';
import type { AccountState } from '../state/state-file.js';
import type { HistoryStore, JournalStore, LookupCache, MemberStores, StateReader, StateWriter } from '../state/store.js';

/**
 * One account as a plan sees it: its manifest, its state, the API to read through, and the live
 * account id (updated when the account adsctl created turns out to be gone). The engine's
 * sessions are such accounts; tests give fixtures.
 */
export interface PlanAccount {
  key: string;
  desired: DesiredAccount | undefined;
  state: AccountState;
  api: AdsApi;
  accountId: string | undefined;
  endpointName: string;
  /** Whether sandbox-only objects may be created and deleted there. */
  sandbox: boolean;
  /** Read requests made through `api` so far. */
  reads: () => number;
  /** The configuration root (absolute) and its state directory, when the account has them on disk. */
  root?: string;
  stateDir?: string;
  /**
   * Where the state is kept, when the account has a backend: its journal is read (plan) or finished
   * (apply, destroy), its member stores and lookup cache read.
   */
  store?: StateReader & StateWriter & JournalStore & HistoryStore & MemberStores & LookupCache;
}

interface PlanOptions {
  mode: Plan['mode'];
  /** `--target` addresses: only these resources and what they contain. */
  targets: readonly ResourceAddress[];
  /** The lookups of one account's plan; asked for only when the plan changes something. */
  lookups: (account: PlanAccount, needs: LookupNeeds) => Promise<Lookups>;
  /** Warnings found before planning (states no manifest owns), carried in the plan. */
  warnings?: readonly Diagnostic[];
  /**
   * A plan reports what an interrupted apply left in the journal of an account's state (and
   * writes nothing); apply and destroy (`recover`) first finish it, writing state.
   */
  recover?: boolean;
  /** The run's clock: it ends the hours of account history read to attribute drift (the wall clock when not given). */
  now?: () => Date;
}

/** What an interrupted apply left open in the journal: the plan's warning, and the creates in flight. */
async function unfinishedApply(account: PlanAccount, store: StateReader & JournalStore): Promise<{ warning: Diagnostic; inFlight: InFlightCreate[] } | undefined> {
  const { open } = await store.readJournal(account.state.account);
  if (open.length === 0) return undefined;
  const operations = open.flatMap((intent) => intent.operations);
  const creates = operations.filter((op) => op.action === 'create').map((op) => op.address);
  const inFlight = operations.flatMap((op) => (op.action === 'create' && op.params !== undefined ? [{ address: op.address, kind: op.kind, params: op.params }] : []));
  const shown = creates.slice(0, 5).join(', ') + (creates.length > 5 ? `, and ${creates.length - 5} more` : '');
  const warning: Diagnostic = {
    severity: 'warning',
    code: 'unfinished-apply',
    message:
      `an apply of account ${account.key} was interrupted: ${operations.length} ${operations.length === 1 ? 'write' : 'writes'} may or may not have reached the service (journal ${store.locate(account.state.account).journal}). ` +
      `This plan shows the state as it was recorded${creates.length === 0 ? '' : `, so creates in flight (${shown}) may appear again`}; ` +
      'the next adsctl apply or destroy first looks them up on the service and binds what exists, so nothing is created twice.',
  };
  return { warning, inFlight };
}

/** The journal of `s`: finished first (`recover`), or reported as the plan's warning with the creates it has in flight. */
async function journalBeforePlan(s: PlanAccount, recover: boolean, diagnostics: Diagnostic[]): Promise<InFlightCreate[]> {
  if (s.store === undefined) return [];
  if (recover) {
    await recoverJournal(s.api, s.accountId, s.state, s.store);
    return [];
  }
  const unfinished = await unfinishedApply(s, s.store);
  if (unfinished === undefined) return [];
  diagnostics.push(unfinished.warning);
  return unfinished.inFlight;
}

/** The membership diagnostics of `s`: its member files read, removals nobody can name, members changed by hand. */
async function membershipProblems(s: PlanAccount, desired: DesiredAccount, live: LiveAccount, mode: Plan['mode']): Promise<Diagnostic[]> {
  const stateDir = s.stateDir;
  // the members last uploaded count only for a membership bound to an audience that still exists
  const uploadedTo = (address: string): MembersStoreLocation | undefined => {
    const bound = s.state.resources[address];
    if (stateDir === undefined || bound === undefined || !isResourceKind(bound.kind) || live.resources.get(bound.kind)?.has(bound.id) !== true) return undefined;
    return membersStoreOf(stateDir, s.key, address, bound.id, s.store?.memberRows?.(s.key));
  };
  const out = await readMemberships(desired, uploadedTo, (address) => s.state.resources[address]?.applied);
  if (mode !== 'destroy') out.push(...(await unknownRemovals(desired, s.state, uploadedTo)));
  out.push(...membershipDrift(s.state, live));
  return out;
}

/** The state writes that record what the service holds: the hours of history since the newest of them are read. */
const RECORDING_RUNS: ReadonlySet<string> = new Set(['apply', 'apply --refresh-only', 'destroy', 'recover', 'import', 'generate']);

/**
 * When the last apply of `s` finished: the newest kept state version a run that records what the
 * service holds wrote (or, when none is kept any more, the oldest version kept); undefined when
 * the state has no kept version (never applied, or a backend that keeps none).
 */
async function lastApplyOf(s: PlanAccount): Promise<Date | undefined> {
  const versions = (await s.store?.history(s.state.account)) ?? [];
  const version = versions.find((v) => RECORDING_RUNS.has(v.operation)) ?? versions[versions.length - 1];
  const at = version === undefined ? NaN : Date.parse(version.written_at);
  return Number.isFinite(at) ? new Date(at) : undefined;
}

/**
 * The drifted objects of `s` with who changed them (docs/architecture.md, "Who changed it"): the
 * account history of each, read once, for the hours since the last apply; when it cannot be
 * read, a warning once for the account, and the changes as they were.
 */
async function attributeDrift(
  s: PlanAccount,
  state: AccountState,
  changes: ResourceChange[],
  unmanaged: UnmanagedObject[] | undefined,
  now: Date,
  diagnostics: Diagnostic[],
): Promise<{ changes: ResourceChange[]; unmanaged: UnmanagedObject[] | undefined }> {
  const subjects = driftedSubjects(changes, unmanaged ?? [], state);
  if (subjects.length === 0 || s.accountId === undefined) return { changes, unmanaged };
  const lastApply = await lastApplyOf(s);
  if (lastApply === undefined) return { changes, unmanaged };
  const read = await readAttribution({ api: s.api, accountId: s.accountId, subjects, lastApply, now });
  if (read.unreadable !== undefined) {
    diagnostics.push({
      severity: 'warning',
      code: 'history-unreadable',
      message:
        `the account history of account ${s.key} could not be read (${read.unreadable}), so the changes made outside adsctl are shown without who made them. ` +
        'The account_history endpoint is a beta the service opens to allowlisted accounts only; the plan is otherwise complete.',
    });
  }
  return withAttribution(changes, unmanaged, state, read);
}

/** Refresh, diff and lookups of one account: what `buildPlan` takes. */
async function planAccount(s: PlanAccount, options: PlanOptions, diagnostics: Diagnostic[], refactorings: Map<string, ReturnType<typeof refactorState>>): Promise<AccountPlanInput> {
  const inFlight = await journalBeforePlan(s, options.recover === true, diagnostics);
  if (s.accountId === undefined && s.state.account_id !== undefined) s.accountId = s.state.account_id;
  // the manifest's moved and removed entries, made on a copy of the state the plan reads through; apply makes them for good
  const refactored = refactorState(s.desired, s.state);
  diagnostics.push(...refactored.diagnostics);
  refactorings.set(s.key, refactored);
  const state = refactored.state;
  // what adsctl does not manage is listed by a plan of a manifest's account, unless it opts out;
  // a destroy reads it to name what is left under the objects it deletes
  const unmanaged = s.desired !== undefined && s.desired.unmanaged !== 'ignore';
  const live = await fetchLiveState({ api: s.api, account: s.key, accountId: s.accountId, desired: s.desired, state, unmanaged });
  if (live.accountId === undefined && s.accountId !== undefined && s.desired?.accountId === undefined) {
    // the account adsctl created is gone: a new one will be created
    s.accountId = undefined;
    if (options.recover === true) delete s.state.account_id;
  }
  if (s.desired !== undefined) diagnostics.push(...(await membershipProblems({ ...s, state }, s.desired, live, options.mode)));
  const diff = diffResources({ desired: s.desired ?? { file: '', key: s.key, resources: [] }, live, state, mode: options.mode });
  const changes = releaseUndeletable(filterTargets(diff.value ?? [], options.targets), s);
  // problems of resources a targeted plan leaves alone (their protection) are not this plan's
  const kept = new Set(changes.map((c) => formatAddress(c.address)));
  diagnostics.push(...diff.diagnostics.filter((d) => d.subject === undefined || kept.has(d.subject)));
  const readAt = (options.now ?? (() => new Date()))();
  const found = unmanaged && s.desired !== undefined ? findUnmanaged({ desired: s.desired, live, state: s.state, changes: diff.value ?? [], serves: liveServes(live, readAt) }) : undefined;
  // who made the drift, read once the diff knows what drifted; a plan of a destroy has no use for it
  const attributed = options.mode === 'plan' ? await attributeDrift(s, state, changes, found, readAt, diagnostics) : { changes, unmanaged: undefined };
  const lookups = options.mode === 'plan' && changes.some((c) => c.action !== 'noop') ? await options.lookups(s, lookupNeeds(changes)) : undefined;
  return {
    account: s.key,
    plannedAt: (options.now ?? (() => new Date()))(),
    ...(s.accountId === undefined ? {} : { accountId: s.accountId }),
    ...(s.root === undefined ? {} : { root: s.root }),
    ...(s.desired === undefined ? {} : { manifestDir: s.root === undefined ? resolve(dirname(s.desired.file)) : relative(s.root, resolve(dirname(s.desired.file))) || '.' }),
    endpoint: s.endpointName,
    desired: s.desired,
    changes: attributed.changes,
    live,
    lookups,
    reads: s.reads(),
    stateSerial: s.state.serial,
    inFlight,
    ...(attributed.unmanaged === undefined ? {} : { unmanaged: attributed.unmanaged }),
    ...(found === undefined ? {} : { unmanagedChildren: unmanagedChildren(changes, found) }),
  };
}

/**
 * Plans every account, as `adsctl plan`, `apply` and `destroy` do; the plan carries every
 * diagnostic found. Writes nothing unless `options.recover` asks to finish an interrupted apply
 * first.
 */
export async function planAccounts(accounts: readonly PlanAccount[], options: PlanOptions): Promise<Plan> {
  const diagnostics: Diagnostic[] = [...(options.warnings ?? []), ...targetProblems(accounts, options.targets)];
  if (hasErrors(diagnostics)) return buildPlan(options.mode, [], diagnostics);
  const refactorings = new Map<string, ReturnType<typeof refactorState>>();
  const inputs = await Promise.all(accounts.map((s) => planAccount(s, options, diagnostics, refactorings)));
  const plan = buildPlan(options.mode, inputs, diagnostics);
  for (const accountPlan of plan.accounts) {
    const refactored = refactorings.get(accountPlan.account);
    if (refactored === undefined) continue;
    if (refactored.moves.length > 0) accountPlan.moves = refactored.moves;
    if (refactored.removals.length > 0) accountPlan.removals = refactored.removals;
  }
  return plan;
}
