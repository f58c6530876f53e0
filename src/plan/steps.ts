/**
 * What a step costs: the write requests it sends, and how many of them go to batch endpoints.
 * The plan's request estimate is the sum over its steps, so the estimate and what apply sends
 * are the same numbers.
 */
import { KINDS } from '../kinds/registry.js';
import type { Step } from './types.js';

/** Requests a step will send, and how many of them go to batch endpoints. */
export function requestsOf(step: Step): { writes: number; batches: number } {
  switch (step.type) {
    case 'batch': {
      const n = Math.ceil(step.operations.length / step.limit);
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
