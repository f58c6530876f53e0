/**
 * Offline checks of an account's resources against the rules their kinds' descriptors declare
 * (src/kinds/): budgets (daily at most total, a total at most its parent's), flights (end after
 * start), the fields every record under one parent shares, and the account limits a file alone
 * can break (counted over what it declares, raised where the account section says so).
 */
import { errorAt } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { dailyWithinTotal, endAfterStart } from '../kinds/budget-flight.js';
import type { AccountLimit, KindDescriptor } from '../kinds/descriptor.js';
import { DESCRIPTORS, KINDS, ROOT_KIND } from '../kinds/registry.js';
import { formatAddress } from './address.js';
import type { FileContext } from './context.js';
import { formatMicros } from './money.js';
import { asMap, asScalar } from './nodes.js';
import type { DesiredResource } from './types.js';
import type { YMap, YNode } from './yaml-tree.js';

function micros(resource: DesiredResource, field: string): number | undefined {
  const value = resource.attributes[field];
  return typeof value === 'number' ? value : undefined;
}

function push(ctx: FileContext, code: string, message: string, range: SourceRange | undefined, related?: { message: string; range: SourceRange }): void {
  ctx.diagnostics.push(errorAt(code, message, range, related === undefined ? undefined : [related]));
}

function checkBudgets(ctx: FileContext, resource: DesiredResource, d: KindDescriptor): void {
  const budgets = d.budgets;
  if (budgets === undefined) return;
  for (const problem of dailyWithinTotal(budgets, resource.attributes, formatMicros)) {
    push(ctx, problem.code, problem.message, resource.attributeSources[problem.field], { message: 'total budget set here', range: resource.attributeSources[budgets.total] ?? resource.source });
  }
  const total = micros(resource, budgets.total);
  if (total === undefined || resource.parent === undefined) return;
  const parent = ctx.byAddress.get(formatAddress(resource.parent));
  const parentBudgets = parent === undefined ? undefined : KINDS[parent.kind].budgets;
  if (parent === undefined || parentBudgets === undefined) return;
  const parentTotal = micros(parent, parentBudgets.total);
  const noun = KINDS[parent.kind].noun;
  if (parentTotal !== undefined && total > parentTotal) {
    push(ctx, `budget-exceeds-${parent.kind.replace(/_/g, '-')}`, `total budget ${formatMicros(total)} is more than the ${noun}'s total budget ${formatMicros(parentTotal)}`, resource.attributeSources[budgets.total], {
      message: `${noun} total budget set here`,
      range: parent.attributeSources[parentBudgets.total] ?? parent.source,
    });
  }
}

function checkFlight(ctx: FileContext, resource: DesiredResource, d: KindDescriptor): void {
  const flight = d.flight;
  if (flight === undefined) return;
  for (const problem of endAfterStart(flight, resource.attributes)) {
    push(ctx, problem.code, problem.message, resource.attributeSources[problem.field], { message: `${flight.start} set here`, range: resource.attributeSources[flight.start] ?? resource.source });
  }
}

function checkShared(ctx: FileContext, d: KindDescriptor, siblings: readonly DesiredResource[]): void {
  const parentNoun = d.parent === undefined ? '' : KINDS[d.parent].noun;
  for (const field of d.sharedUnderParent ?? []) {
    const first = siblings.find((r) => typeof r.attributes[field] === 'string');
    if (first === undefined) continue;
    for (const other of siblings) {
      if (typeof other.attributes[field] !== 'string' || other.attributes[field] === first.attributes[field]) continue;
      push(
        ctx,
        `${d.kind.replace(/_/g, '-')}-mismatch`,
        `${field} ${String(other.attributes[field])} differs from ${String(first.attributes[field])} of ${formatAddress(first.address)}; all ${d.noun}s of a ${parentNoun} share ${field}`,
        other.attributeSources[field],
        { message: `${field} of ${formatAddress(first.address)}`, range: first.attributeSources[field] ?? first.source },
      );
    }
  }
}

/** The limit as the root section raises it (`account.limits.active_campaigns`, the limit's `raisedBy`), else the service's. */
function limitOf(root: YMap, limit: AccountLimit): number {
  const raisedBy = limit.offline?.raisedBy;
  if (raisedBy === undefined) return limit.max;
  let node: YNode | undefined = root.byKey.get(ROOT_KIND.kind)?.value;
  for (const key of raisedBy) node = asMap(node)?.byKey.get(key)?.value;
  const value = asScalar(node)?.value;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : limit.max;
}

function checkLimit(ctx: FileContext, limit: AccountLimit, max: number, counted: readonly DesiredResource[]): void {
  const offline = limit.offline;
  const excess = counted[max];
  if (offline === undefined || excess === undefined) return;
  push(ctx, offline.code, offline.message(formatAddress(excess.address), max + 1, counted.length, max), excess.source);
}

function group<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Runs every offline check over the resources of one file. */
export function checkAccountRules(ctx: FileContext, root: YMap): void {
  const byKind = new Map<string, DesiredResource[]>();
  for (const resource of ctx.resources) {
    const d = KINDS[resource.kind];
    checkBudgets(ctx, resource, d);
    checkFlight(ctx, resource, d);
    group(byKind, resource.kind, resource);
  }
  for (const d of DESCRIPTORS) {
    const resources = byKind.get(d.kind) ?? [];
    const underParent = new Map<string, DesiredResource[]>();
    for (const r of resources) if (r.parent !== undefined) group(underParent, formatAddress(r.parent), r);
    for (const siblings of underParent.values()) checkShared(ctx, d, siblings);
    for (const limit of d.limits) {
      if (limit.perParent !== undefined) {
        for (const siblings of underParent.values()) checkLimit(ctx, limit, limit.max, siblings.filter((r) => limit.counts(r.attributes)));
      } else {
        checkLimit(ctx, limit, limitOf(root, limit), resources.filter((r) => limit.counts(r.attributes)));
      }
    }
  }
}
