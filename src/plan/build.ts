/**
 * `buildPlan`: pure. From each account's changes to ordered, batched steps, with the request
 * estimate, the spend deltas, the fingerprints of every live object touched (for stale-plan
 * checks) and every problem found against the lookups. Planning never prints.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import type { ResourceChange } from '../diff/types.js';
import type { Lookups } from '../live/lookups.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount } from '../manifest/types.js';
import { operationsOf } from './operations.js';
import { spendOf } from './spend.js';
import { layerSteps, requestsOf } from './steps.js';
import { PLAN_FORMAT_VERSION, type AccountPlan, type Operation, type Plan } from './types.js';
import { validateAgainstLookups } from './validate.js';

export interface AccountPlanInput {
  account: string;
  accountId?: string;
  endpoint: string;
  desired: DesiredAccount | undefined;
  changes: ResourceChange[];
  live: LiveAccount;
  /** Absent when validation against lookups is not wanted (destroy). */
  lookups: Lookups | undefined;
  /** Requests made to read live state. */
  reads: number;
  stateSerial: number;
}

const CHILD_KINDS = new Set(['targeting_criterion', 'promoted_post', 'promoted_account', 'media_creative', 'line_item_curated_category']);

function parentText(change: ResourceChange): string {
  return formatAddress({ kind: 'line_item', steps: change.address.steps.slice(0, -1) });
}

function planAccount(input: AccountPlanInput): { plan: AccountPlan; diagnostics: Diagnostic[] } {
  const deletedLineItems = new Set(input.changes.filter((c) => c.kind === 'line_item' && (c.action === 'delete' || c.action === 'replace')).map((c) => formatAddress(c.address)));
  const implied: AccountPlan['implied'] = [];
  const operations: Operation[] = [];
  const fingerprints: Record<string, string> = {};
  for (const change of input.changes) {
    if (change.id !== undefined && change.action !== 'noop' && change.action !== 'create') {
      const fp = input.live.resources.get(change.kind)?.get(change.id)?.fingerprint;
      if (fp !== undefined) fingerprints[change.id] = fp;
    }
    if (change.action === 'delete' && CHILD_KINDS.has(change.kind) && deletedLineItems.has(parentText(change))) {
      implied.push({ address: formatAddress(change.address), by: parentText(change) });
      continue;
    }
    for (const op of operationsOf(change)) {
      // the replacement of a retired child needs no delete request either
      if (op.action === 'delete' && CHILD_KINDS.has(op.kind) && deletedLineItems.has(parentText(change))) continue;
      operations.push(op);
    }
  }
  const layers = layerSteps(operations);
  let writes = 0;
  let batches = 0;
  for (const step of layers.flat()) {
    const r = requestsOf(step);
    writes += r.writes;
    batches += r.batches;
  }
  const diagnostics = input.lookups === undefined ? [] : validateAgainstLookups({ changes: input.changes, desired: input.desired, live: input.live, lookups: input.lookups });
  return {
    plan: {
      account: input.account,
      ...(input.accountId === undefined ? {} : { accountId: input.accountId }),
      endpoint: input.endpoint,
      changes: input.changes,
      layers,
      requests: { reads: input.reads, writes, batches },
      spend: spendOf(input.changes),
      fingerprints,
      implied,
      stateSerial: input.stateSerial,
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
