/**
 * The requests a step's ready operations go in: an `atomic` step's `together` groups packed whole
 * (plan/steps.ts, `packGroups`, the same requests the plan counted), a `single` step one operation
 * each, the others in order up to the step's limit.
 */
import { packGroups } from '../plan/steps.js';
import type { Step } from '../plan/types.js';
import type { Sendable } from './ready.js';

/** `sendable` (operations of `step`) cut into the chunks sent one request each. */
export function chunksOf(step: Step, sendable: readonly Sendable[]): Sendable[][] {
  if (step.type === 'atomic') {
    const params = new Map(sendable.map((r) => [r.op, r.params]));
    return packGroups(sendable.map((r) => r.op), step.limit).map((request) => request.map((op) => ({ op, params: params.get(op)! })));
  }
  const size = step.type === 'single' ? 1 : step.limit;
  const chunks: Sendable[][] = [];
  for (let i = 0; i < sendable.length; i += size) chunks.push(sendable.slice(i, i + size));
  return chunks;
}
