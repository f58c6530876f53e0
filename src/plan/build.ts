/**
 * `buildPlan`: pure. From each account's changes to the operations that make them, ordered by
 * their dependency graph (order.ts, schedule.ts) into batched steps, with the request
 * estimate, the spend deltas, the fingerprints of every live object touched (for stale-plan
 * checks) and every problem found against the lookups. Planning never prints.
 */
import { checked } from './stale.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { KINDS } from '../kinds/registry.js';
import type { ResourceChange } from '../diff/types.js';
import type { UnmanagedObject } from '../diff/unmanaged.js';
import type { Lookups } from '../live/lookups.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount } from '../manifest/types.js';
import { operationsOf } from './operations.js';
import { driftServingOf } from './drift-spend.js';
import { isDrift } from './drift.js';
import { accountServing } from './serving-spend.js';
import { accountSpend } from './spend.js';
import { orderOperations } from './order.js';
import { scheduleOperations } from './schedule.js';
import { keepServingSafe } from './serving.js';
import { creativeRestores } from './creative-restores.js';
import { repairWithoutCreative } from './without-creative.js';
import { retiringObjects } from './retiring.js';
import { landedCreates, type InFlightCreate } from './in-flight.js';
import { requestsOf } from './steps.js';
import { PLAN_FORMAT_VERSION, type AccountPlan, type Operation, type Plan, type UnmanagedChild } from './types.js';
import { checkRules } from './rules.js';
import { checkAudienceSizes } from './audience-size.js';
import { checkFunding } from './funding.js';
import { targetingValueNames } from './targeting-values.js';
import { validateAgainstLookups } from './validate.js';

export interface AccountPlanInput {
  account: string;
  accountId?: string;
  /** The configuration root the account's state lives in, when it has one on disk. */
  root?: string;
  /** The folder of the account's manifest (see `AccountPlan.manifestDir`). */
  manifestDir?: string;
  endpoint: string;
  desired: DesiredAccount | undefined;
  changes: ResourceChange[];
  live: LiveAccount;
  /** Absent when validation against lookups is not wanted (destroy). */
  lookups: Lookups | undefined;
  /** Requests made to read live state. */
  reads: number;
  stateSerial: number;
  /** The creates an interrupted apply left in flight (a plan's journal's open entries). */
  inFlight?: readonly InFlightCreate[];
  /** The live objects adsctl does not manage (src/diff/unmanaged.ts); absent when not looked for. */
  unmanaged?: UnmanagedObject[];
  /** Those under an object the plan deletes (unmanaged-children.ts), whatever the mode; absent when not looked for. */
  unmanagedChildren?: UnmanagedChild[];
  /** When the account was planned, by the run's clock: the times the service wants in the future are checked against it. */
  plannedAt?: Date;
}

/** The address of the parent of a resource, if it has one. */
function parentAddress(change: ResourceChange): string | undefined {
  const kind = KINDS[change.kind].parent;
  return kind === undefined ? undefined : formatAddress({ kind, steps: change.address.steps.slice(0, -1) });
}

/** The account's name: the manifest's, else the live account's (an account the manifest names only by id). */
function accountName(input: AccountPlanInput): string | undefined {
  const desired = input.desired?.resources.find((r) => r.kind === 'account')?.attributes['name'];
  if (typeof desired === 'string' && desired !== '') return desired;
  const live = input.live.resources.get('account')?.values().next().value?.record['name'];
  return typeof live === 'string' && live !== '' ? live : undefined;
}

function planAccount(input: AccountPlanInput): { plan: AccountPlan; diagnostics: Diagnostic[] } {
  const retiring = new Set(input.changes.filter((c) => c.action === 'delete' || c.action === 'replace').map((c) => formatAddress(c.address)));
  const implied: AccountPlan['implied'] = [];
  const operations: Operation[] = [];
  const fingerprints: Record<string, string> = {};
  const changes = new Map<string, ResourceChange>();
  const diagnostics: Diagnostic[] = [];
  for (const change of input.changes) {
    if (change.action === 'noop') continue;
    const address = formatAddress(change.address);
    changes.set(address, change);
    if (change.id !== undefined && change.action !== 'create' && checked(change.kind)) {
      const fp = input.live.resources.get(change.kind)?.get(change.id)?.fingerprint;
      if (fp !== undefined) fingerprints[change.id] = fp;
    }
    // the service retires the children of a deleted parent with it: no delete request of their own
    const parent = KINDS[change.kind].retiredWithParent ? parentAddress(change) : undefined;
    const retired = parent !== undefined && retiring.has(parent);
    if (change.action === 'delete' && retired) {
      implied.push({ address, by: parent });
      continue;
    }
    for (const op of operationsOf(change)) if (!(op.action === 'delete' && retired)) operations.push(op);
  }
  const every = new Map(input.changes.map((c) => [formatAddress(c.address), c]));
  const safe = keepServingSafe(operations, every, input.live);
  const repaired = repairWithoutCreative(safe.operations, every, input.live);
  const ordered = repaired.operations;
  // every change, no-ops included: a serving object paused for its children's changes has
  // operations of its own, and a write may name an object that does not change by its id
  const schedule = scheduleOperations(ordered, orderOperations({ operations: ordered, changes: every, desired: input.desired, live: input.live }));
  if (!schedule.ok) {
    const first = changes.get(ordered.find((op) => op.key === schedule.cycle[0])?.address ?? '');
    diagnostics.push(errorAt('dependency-cycle', `the writes of account ${input.account} depend on each other in a cycle: ${schedule.cycle.join(' → ')}`, first?.source));
  }
  const layers = schedule.ok ? schedule.layers : [];
  const restores = creativeRestores(ordered, every, input.live);
  let writes = 0;
  let batches = 0;
  for (const step of layers.flat()) {
    const r = requestsOf(step);
    writes += r.writes;
    batches += r.batches;
  }
  const now = input.plannedAt ?? new Date();
  const serving = accountServing(input.changes, input.live, now);
  const taken = retiringObjects(input.changes, input.live, serving.servingBefore);
  const name = accountName(input);
  diagnostics.push(...checkRules(input.changes, input.desired, input.live, input.plannedAt));
  diagnostics.push(...checkAudienceSizes(input.changes, input.desired, input.live));
  if (input.plannedAt !== undefined) diagnostics.push(...checkFunding(serving.commitments, input.live));
  const valueNames = input.lookups === undefined ? {} : targetingValueNames(input.changes, input.lookups);
  if (input.lookups !== undefined) diagnostics.push(...validateAgainstLookups({ changes: input.changes, layers, desired: input.desired, live: input.live, lookups: input.lookups, landed: landedCreates(input.inFlight ?? [], input.live, input.changes) }));
  return {
    plan: {
      account: input.account,
      ...(input.accountId === undefined ? {} : { accountId: input.accountId }),
      ...(name === undefined ? {} : { name }),
      ...(input.root === undefined ? {} : { root: input.root }),
      ...(input.manifestDir === undefined ? {} : { manifestDir: input.manifestDir }),
      endpoint: input.endpoint,
      changes: input.changes,
      layers,
      requests: { reads: input.reads, writes, batches },
      spend: accountSpend(input.changes, serving.spend),
      // what drift moved is read only where there is drift (plan --refresh-only and the digest show it)
      ...(input.changes.some(isDrift) || (input.unmanaged ?? []).some((u) => u.new) ? { driftServing: [...driftServingOf(input.changes, input.live, now)].map(([currency, s]) => ({ currency, ...s })) } : {}),
      fingerprints,
      implied,
      stateSerial: input.stateSerial,
      serving: safe.notes,
      ...(input.unmanaged === undefined ? {} : { unmanaged: input.unmanaged }),
      ...(Object.keys(valueNames).length === 0 ? {} : { valueNames }),
      ...(input.unmanagedChildren === undefined || input.unmanagedChildren.length === 0 ? {} : { unmanagedChildren: input.unmanagedChildren }),
      ...(taken.length === 0 ? {} : { retiring: taken }),
      ...(restores.length === 0 ? {} : { restores }),
      ...(repaired.found.length === 0 ? {} : { withoutCreative: repaired.found }),
    },
    diagnostics,
  };
}

/** Builds the plan of every account; `diagnostics` are those of earlier stages to carry along. */
export function buildPlan(mode: Plan['mode'], inputs: readonly AccountPlanInput[], diagnostics: readonly Diagnostic[] = []): Plan {
  const accounts: AccountPlan[] = [];
  const all: Diagnostic[] = [...diagnostics];
  for (const input of inputs) {
    const { plan, diagnostics: found } = planAccount(input);
    accounts.push(plan);
    all.push(...found);
  }
  return { formatVersion: PLAN_FORMAT_VERSION, mode, accounts, diagnostics: all };
}
