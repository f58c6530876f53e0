/**
 * What a step costs: the write requests it sends, and how many of them go to batch endpoints.
 * The plan's request estimate is the sum over its steps, so the estimate and what apply sends
 * are the same numbers.
 */
import { KINDS, type KindLookup } from '../kinds/registry.js';
import type { ResourceKind } from '../manifest/types.js';
import type { Operation, Step } from './types.js';

/**
 * The requests of an `atomic` step: its `together` groups whole, in the order met, each into the
 * first request with room for it (a group never exceeds `limit`); then the operations of no group
 * (`mixable`), one at a time, into the first request with room; deletes before creates in each.
 * Apply sends exactly these requests.
 */
export function packGroups<T extends Pick<Operation, 'together' | 'action'>>(ops: readonly T[], limit: number): T[][] {
  const groups = new Map<string, T[]>();
  const loose: T[] = [];
  for (const op of ops) {
    if (op.together === undefined) {
      loose.push(op);
      continue;
    }
    const list = groups.get(op.together);
    if (list === undefined) groups.set(op.together, [op]);
    else list.push(op);
  }
  const requests: T[][] = [];
  for (const group of groups.values()) {
    const into = requests.find((r) => r.length + group.length <= limit);
    if (into === undefined) requests.push([...group]);
    else into.push(...group);
  }
  // a request once full stays full: the first with room only moves on
  let open = 0;
  for (const op of loose) {
    while (open < requests.length && requests[open]!.length >= limit) open++;
    if (open === requests.length) requests.push([op]);
    else requests[open]!.push(op);
  }
  return requests.map((r) => [...r.filter((op) => op.action === 'delete'), ...r.filter((op) => op.action !== 'delete')]);
}

/**
 * The batch limit shared by a kind's create and delete endpoints, when both are one batch
 * endpoint (so that one request may carry operations of both actions); undefined otherwise.
 */
export function sharedBatchLimit(kind: ResourceKind, kinds: KindLookup): number | undefined {
  const { create, delete: remove } = kinds(kind).write;
  if (create.via !== 'batch' || remove?.via !== 'batch' || create.resource !== remove.resource) return undefined;
  return Math.min(create.limit, remove.limit);
}

/** What a step does, in a word: its action, or `change` for an atomic step of creates and deletes. */
export const stepVerb = (step: Step): string => (step.type === 'atomic' ? 'change' : step.action);

/** Requests a step will send, and how many of them go to batch endpoints. */
export function requestsOf(step: Step): { writes: number; batches: number } {
  switch (step.type) {
    case 'batch': {
      const n = Math.ceil(step.operations.length / step.limit);
      return { writes: n, batches: n };
    }
    case 'atomic': {
      const n = packGroups(step.operations, step.limit).length;
      return { writes: n, batches: n };
    }
    case 'grouped':
    case 'list':
      return { writes: Math.ceil(step.operations.length / step.limit), batches: 0 };
    case 'single': {
      const endpoint = step.action === 'update' ? KINDS[step.kind].write.update : KINDS[step.kind].write[step.action];
      const each = endpoint?.via === 'single' ? endpoint.requests : undefined;
      return { writes: each === undefined ? step.operations.length : step.operations.reduce((n, op) => n + each(op.params), 0), batches: 0 };
    }
  }
}
