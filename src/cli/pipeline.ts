/**
 * The plan pipeline (docs/architecture.md) for every account: refresh, diff, fetch lookups, plan;
 * for apply and destroy, finishing an interrupted apply (journal) first. Each stage is called
 * with plain data; only refresh, lookups and journal recovery touch the network. The golden
 * plan tests run this same function over fixtures.
 */
import { dirname, relative, resolve } from 'node:path';
import type { AdsApi } from '../api/ads-api.js';
import { recoverJournal } from '../apply/recover.js';
import { errorAt, hasErrors, type Diagnostic } from '../diag/diagnostic.js';
import { didYouMean } from '../diag/suggest.js';
import { diffResources } from '../diff/diff.js';
import { isUnknownRef, type ResourceChange } from '../diff/types.js';
import { fetchLiveState } from '../live/fetch.js';
import { membershipDrift, readMemberships, unknownRemovals } from '../members/read.js';
import { membersStoreOf, type MembersStoreLocation } from '../members/store-path.js';
import type { Lookups } from '../live/lookups.js';
import { journalLocation } from '../state/location.js';
import type { StateStore } from '../state/store.js';
import type { AccountState } from '../state/state-file.js';
import { isResourceKind, KINDS } from '../kinds/registry.js';
import { formatAddress, parseAddress } from '../manifest/address.js';
import type { DesiredAccount, ResourceAddress } from '../manifest/types.js';
import { buildPlan, type AccountPlanInput } from '../plan/build.js';
import { targetingValuesToLookUp } from '../plan/targeting-values.js';
import type { InFlightCreate } from '../plan/in-flight.js';
import type { Plan } from '../plan/types.js';

const isWithin = (address: ResourceAddress, target: ResourceAddress): boolean =>
  target.steps.length <= address.steps.length && target.steps.every((s, i) => address.steps[i]?.collection === s.collection && address.steps[i]?.key === s.key);

/**
 * Keeps the changes under the targets, plus what they need that is yet to be made: the creates of
 * their ancestors and of every resource their values refer to (a campaign's new funding
 * instrument), transitively; a serving object created comes with everything under it.
 */
export function filterTargets(changes: readonly ResourceChange[], targets: readonly ResourceAddress[]): ResourceChange[] {
  if (targets.length === 0) return [...changes];
  const byAddress = new Map(changes.map((c) => [formatAddress(c.address), c]));
  const kept = new Set(changes.filter((c) => targets.some((t) => isWithin(c.address, t))));
  const queue = [...kept];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    const needed = changes.filter((c) => (c.action === 'create' || c.action === 'replace') && isWithin(next.address, c.address));
    // a serving object created here comes whole: activated with only part of what is under it,
    // it would serve more widely than the manifest says (docs/architecture.md, "Serving safety")
    if ((next.action === 'create' || next.action === 'replace') && KINDS[next.kind].serving !== undefined) needed.push(...changes.filter((c) => c !== next && isWithin(c.address, next.address)));
    for (const value of Object.values(next.after ?? {})) {
      const ref = isUnknownRef(value) ? byAddress.get(value.$ref) : undefined;
      if (ref !== undefined) needed.push(ref);
    }
    for (const c of needed) {
      if (kept.has(c)) continue;
      kept.add(c);
      queue.push(c);
    }
  }
  return changes.filter((c) => kept.has(c));
}

/**
 * Deletes of sandbox-only objects (accounts, funding instruments, features) happen only on
 * sandbox and local endpoints and only for objects adsctl created; any other such delete becomes a
 * release: the object stays, adsctl stops managing it. So does every delete of a kind the API
 * cannot delete (posts, media library items).
 */
function releaseSandboxOnly(changes: readonly ResourceChange[], account: Pick<PipelineAccount, 'state' | 'sandbox'>): ResourceChange[] {
  return changes.map((c) => {
    if (c.action !== 'delete') return c;
    if (KINDS[c.kind].write.delete === undefined) return { ...c, action: 'noop', reason: 'released', changes: [] };
    if (!KINDS[c.kind].sandboxOnly) return c;
    const created = account.state.resources[formatAddress(c.address)]?.created === true;
    if (account.sandbox && created) return c;
    return { ...c, action: 'noop', reason: 'released', changes: [] };
  });
}

/**
 * One account as the pipeline sees it: its manifest, its state, the API to read through, and
 * the live account id (updated when the account adsctl created turns out to be gone). The CLI's
 * sessions are such accounts; tests give fixtures.
 */
export interface PipelineAccount {
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
  /** Where the state is kept, when the account has a backend: its journal is read (plan) or finished (apply). */
  store?: StateStore;
}

/** What a plan validates against, for one account: whether IAB and curated categories are needed. */
interface LookupNeeds {
  iabCategories: boolean;
  curatedCategories: boolean;
  /** Ids of the posts the plan promotes (to check that they exist). */
  postIds: string[];
  /** Whether a post the plan writes names its author (to check it is a promotable user). */
  promotableUsers: boolean;
  /** Per targeting type, the values of the criteria the plan creates that no live criterion has (to check the service lists them). */
  targetingValues: Record<string, string[]>;
}

interface PipelineOptions {
  mode: Plan['mode'];
  /** `--target` addresses: only these resources and what they contain. */
  targets: readonly ResourceAddress[];
  /** The lookups of one account's plan; asked for only when the plan changes something. */
  lookups: (account: PipelineAccount, needs: LookupNeeds) => Promise<Lookups>;
  /** Warnings found before the pipeline (states no manifest owns), carried in the plan. */
  warnings?: readonly Diagnostic[];
  /**
   * A plan reports what an interrupted apply left in the journal of an account's state directory
   * (and writes nothing); apply and destroy (`recover`) first finish it, writing state.
   */
  recover?: boolean;
}

/** What an interrupted apply left open in the journal: the plan's warning, and the creates in flight. */
async function unfinishedApply(account: PipelineAccount, store: StateStore): Promise<{ warning: Diagnostic; inFlight: InFlightCreate[] } | undefined> {
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
      `an apply of account ${account.key} was interrupted: ${operations.length} ${operations.length === 1 ? 'write' : 'writes'} may or may not have reached the service (journal ${journalLocation(store, account.state.account)}). ` +
      `This plan shows the state as it was recorded${creates.length === 0 ? '' : `, so creates in flight (${shown}) may appear again`}; ` +
      'the next adsctl apply or destroy first looks them up on the service and binds what exists, so nothing is created twice.',
  };
  return { warning, inFlight };
}

/** Terraform's warning for a plan limited by `-target`. */
const TARGETING_WARNING =
  'Resource targeting is in effect: this plan is limited to the targeted resources and what they need, so it may not represent all of the changes the manifests ask for. ' +
  '--target is for exceptional situations (recovering from errors or mistakes), not for routine use.';

/**
 * Every target must name a resource, or contain some, of the manifests or the state: a typo is an
 * error with the closest address, and a targeted plan carries Terraform's warning.
 */
function targetProblems(accounts: readonly PipelineAccount[], targets: readonly ResourceAddress[]): Diagnostic[] {
  if (targets.length === 0) return [];
  const known = new Map<string, ResourceAddress>();
  for (const a of accounts) {
    for (const r of a.desired?.resources ?? []) known.set(formatAddress(r.address), r.address);
    for (const text of Object.keys(a.state.resources)) {
      const parsed = parseAddress(text).value;
      if (parsed !== undefined) known.set(text, parsed);
    }
  }
  const out: Diagnostic[] = [];
  for (const target of targets) {
    if ([...known.values()].some((address) => isWithin(address, target))) continue;
    const text = formatAddress(target);
    out.push(errorAt('unknown-target', `--target ${text} matches no resource of the manifests or the state${didYouMean(text, known.keys())}`));
  }
  out.push({ severity: 'warning', code: 'targeting-in-effect', message: TARGETING_WARNING });
  return out;
}

/**
 * Runs refresh → diff → plan for every account, as `adsctl plan`, `apply` and `destroy` do; the
 * plan carries every diagnostic found. Writes nothing unless `options.recover` asks to finish an
 * interrupted apply first.
 */
export async function runPipeline(accounts: readonly PipelineAccount[], options: PipelineOptions): Promise<Plan> {
  const diagnostics: Diagnostic[] = [...(options.warnings ?? []), ...targetProblems(accounts, options.targets)];
  if (hasErrors(diagnostics)) return buildPlan(options.mode, [], diagnostics);
  const inputs = await Promise.all(
    accounts.map(async (s): Promise<AccountPlanInput> => {
      let inFlight: InFlightCreate[] = [];
      if (s.store !== undefined) {
        if (options.recover === true) await recoverJournal(s.api, s.accountId, s.state, s.store);
        else {
          const unfinished = await unfinishedApply(s, s.store);
          if (unfinished !== undefined) {
            diagnostics.push(unfinished.warning);
            inFlight = unfinished.inFlight;
          }
        }
      }
      if (s.accountId === undefined && s.state.account_id !== undefined) s.accountId = s.state.account_id;
      const live = await fetchLiveState({ api: s.api, account: s.key, accountId: s.accountId, desired: s.desired, state: s.state });
      if (live.accountId === undefined && s.accountId !== undefined && s.desired?.accountId === undefined) {
        // the account adsctl created is gone: a new one will be created
        s.accountId = undefined;
        if (options.recover === true) delete s.state.account_id;
      }
      if (s.desired !== undefined) {
        const stateDir = s.stateDir;
        // the members last uploaded count only for a membership bound to an audience that still exists
        const uploadedTo = (address: string): MembersStoreLocation | undefined => {
          const bound = s.state.resources[address];
          if (stateDir === undefined || bound === undefined || !isResourceKind(bound.kind) || live.resources.get(bound.kind)?.has(bound.id) !== true) return undefined;
          return membersStoreOf(stateDir, s.key, address, bound.id, s.store?.memberRows?.(s.key));
        };
        diagnostics.push(...(await readMemberships(s.desired, uploadedTo, (address) => s.state.resources[address]?.applied)));
        if (options.mode !== 'destroy') diagnostics.push(...(await unknownRemovals(s.desired, s.state, uploadedTo)));
        diagnostics.push(...membershipDrift(s.state, live));
      }
      const diff = diffResources({ desired: s.desired ?? { file: '', key: s.key, resources: [] }, live, state: s.state, mode: options.mode });
      const changes = releaseSandboxOnly(filterTargets(diff.value ?? [], options.targets), s);
      // problems of resources a targeted plan leaves alone (their protection) are not this plan's
      const kept = new Set(changes.map((c) => formatAddress(c.address)));
      diagnostics.push(...diff.diagnostics.filter((d) => d.subject === undefined || kept.has(d.subject)));
      const lookups =
        options.mode === 'plan' && changes.some((c) => c.action !== 'noop')
          ? await options.lookups(s, {
              iabCategories: changes.some((c) => KINDS[c.kind].lookups.includes('iab_categories') && c.action !== 'delete' && Array.isArray(c.after?.['categories']) && (c.after['categories'] as unknown[]).length > 0),
              curatedCategories: changes.some((c) => KINDS[c.kind].lookups.includes('curated_categories') && c.action !== 'delete' && c.action !== 'noop'),
              promotableUsers: changes.some((c) => KINDS[c.kind].lookups.includes('promotable_users') && (c.action === 'create' || c.action === 'replace') && typeof c.after?.['as_user_id'] === 'string'),
              postIds: changes.filter((c) => KINDS[c.kind].lookups.includes('posts') && (c.action === 'create' || c.action === 'replace')).flatMap((c) => {
                const id = c.after?.['tweet_id'];
                return typeof id === 'string' ? [id] : [];
              }),
              targetingValues: targetingValuesToLookUp(changes),
            })
          : undefined;
      return {
        account: s.key,
        ...(s.accountId === undefined ? {} : { accountId: s.accountId }),
        ...(s.root === undefined ? {} : { root: s.root }),
        ...(s.desired === undefined ? {} : { manifestDir: s.root === undefined ? resolve(dirname(s.desired.file)) : relative(s.root, resolve(dirname(s.desired.file))) || '.' }),
        endpoint: s.endpointName,
        desired: s.desired,
        changes,
        live,
        lookups,
        reads: s.reads(),
        stateSerial: s.state.serial,
        inFlight,
      };
    }),
  );
  return buildPlan(options.mode, inputs, diagnostics);
}
