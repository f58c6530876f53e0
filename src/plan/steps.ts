/**
 * Ordering writes into layers of steps (DESIGN §2): deletes first, children before parents
 * (freeing the account's limits and the ids replacements reuse), then creates and updates,
 * parents before children. Steps of one layer are independent and run in parallel. Each step is
 * cut to its endpoint's limit: 40 campaigns or line items, 500 targeting criteria a batch, 50
 * post ids a promoted-posts POST per line item, feature keys in one comma list.
 */
import { isUnknownRef } from '../diff/types.js';
import type { ResourceKind } from '../manifest/types.js';
import type { Operation, Step } from './types.js';

/** Batch endpoint limits, by kind. */
export const BATCH_LIMITS: Partial<Record<ResourceKind, number>> = {
  campaign: 40,
  line_item: 40,
  targeting_criterion: 500,
  account_feature: 100,
};

/** Post ids per promoted-posts POST. */
export const PROMOTE_LIMIT = 50;

/** Depth of each kind in the account's tree: parents have smaller numbers. */
export const KIND_DEPTH: Record<ResourceKind, number> = {
  account: 0,
  account_feature: 1,
  funding_instrument: 1,
  custom_audience: 2,
  card: 2,
  media_library_item: 2,
  draft_post: 2,
  campaign: 3,
  line_item: 4,
  targeting_criterion: 5,
  promoted_post: 5,
  promoted_account: 5,
  media_creative: 5,
  line_item_curated_category: 5,
};

function stepsFor(kind: ResourceKind, action: Operation['action'], ops: Operation[]): Step[] {
  const limit = BATCH_LIMITS[kind];
  if (kind === 'targeting_criterion' && action === 'update') return [{ type: 'single', kind, action, operations: ops }];
  if (limit !== undefined) return [{ type: 'batch', kind, action, limit, operations: ops }];
  if (kind === 'promoted_post' && action === 'create') {
    const byLineItem = new Map<string, Operation[]>();
    for (const op of ops) {
      const li = op.params['line_item_id'];
      const key = isUnknownRef(li) ? li.$ref : String(li);
      const list = byLineItem.get(key);
      if (list === undefined) byLineItem.set(key, [op]);
      else list.push(op);
    }
    return [...byLineItem].map(([lineItem, group]) => ({ type: 'promote', kind: 'promoted_post', action: 'create', lineItem, limit: PROMOTE_LIMIT, operations: group }));
  }
  return [{ type: 'single', kind, action, operations: ops }];
}

/** Groups operations into ordered layers of steps. */
export function layerSteps(operations: readonly Operation[]): Step[][] {
  const deletes = new Map<number, Map<ResourceKind, Operation[]>>();
  const writes = new Map<number, Map<ResourceKind, { create: Operation[]; update: Operation[] }>>();
  for (const op of operations) {
    const depth = KIND_DEPTH[op.kind];
    if (op.action === 'delete') {
      const layer = deletes.get(depth) ?? new Map<ResourceKind, Operation[]>();
      deletes.set(depth, layer);
      const list = layer.get(op.kind) ?? [];
      layer.set(op.kind, list);
      list.push(op);
    } else {
      const layer = writes.get(depth) ?? new Map<ResourceKind, { create: Operation[]; update: Operation[] }>();
      writes.set(depth, layer);
      const group = layer.get(op.kind) ?? { create: [], update: [] };
      layer.set(op.kind, group);
      group[op.action].push(op);
    }
  }
  const layers: Step[][] = [];
  for (const depth of [...deletes.keys()].sort((a, b) => b - a)) {
    const steps = [...deletes.get(depth)!].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([kind, ops]) => stepsFor(kind, 'delete', ops));
    layers.push(steps);
  }
  for (const depth of [...writes.keys()].sort((a, b) => a - b)) {
    const steps = [...writes.get(depth)!]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([kind, group]) => [...(group.create.length > 0 ? stepsFor(kind, 'create', group.create) : []), ...(group.update.length > 0 ? stepsFor(kind, 'update', group.update) : [])]);
    layers.push(steps);
  }
  return layers.filter((l) => l.length > 0);
}

/** Requests a step will send, and how many of them go to batch endpoints. */
export function requestsOf(step: Step): { writes: number; batches: number } {
  switch (step.type) {
    case 'batch': {
      const n = Math.ceil(step.operations.length / step.limit);
      return { writes: n, batches: step.kind === 'account_feature' ? 0 : n };
    }
    case 'promote':
      return { writes: Math.ceil(step.operations.length / step.limit), batches: 0 };
    case 'single':
      return { writes: step.operations.length, batches: 0 };
  }
}
