/**
 * What a step costs: the write requests it sends, and how many of them go to batch endpoints.
 * The plan's request estimate is the sum over its steps, so the estimate and what apply sends
 * are the same numbers.
 */
import { KINDS } from '../kinds/registry.js';
import type { Operation, Step } from './types.js';

/**
 * The requests of an `atomic` step: its `together` groups whole, in the order met, each into the
 * first request with room for it (a group never exceeds `limit`); deletes before creates in each.
 * Apply sends exactly these requests.
 */
export function packGroups<T extends Pick<Operation, 'together' | 'action'>>(ops: readonly T[], limit: number): T[][] {
  const groups = new Map<string, T[]>();
  for (const op of ops) {
    const key = op.together ?? '';
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [op]);
    else list.push(op);
  }
  const requests: T[][] = [];
  for (const group of groups.values()) {
    const into = requests.find((r) => r.length + group.length <= limit);
    if (into === undefined) requests.push([...group]);
    else into.push(...group);
  }
  return requests.map((r) => [...r.filter((op) => op.action === 'delete'), ...r.filter((op) => op.action !== 'delete')]);
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
