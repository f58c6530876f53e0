/**
 * Resolving a step's operations into what is sent. An operation goes only when every operation it
 * comes `after` succeeded and every reference in its parameters is bound to an id; an update of an
 * object created earlier in the apply names it by the id bound then. A `together` group goes
 * whole or not at all: a member that cannot go holds back the rest.
 */
import type { Operation, Step } from '../plan/types.js';
import type { AccountState } from '../state/state-file.js';
import { resolveRefs } from './resolve.js';

/** An operation ready to send, with its parameters resolved. */
export interface Sendable {
  op: Operation;
  params: Record<string, unknown>;
}

/** An operation that is not sent, and why. */
interface Skipped {
  op: Operation;
  because: string;
}

/** A step's operations split into those sent and those skipped (in the order they are reported). */
interface ReadyStep {
  sendable: Sendable[];
  skipped: Skipped[];
}

/** What decides whether an operation may go: the plan's operations by key, the keys of those that succeeded, the ids bound. */
export interface Readiness {
  planned: ReadonlyMap<string, Operation>;
  succeeded: ReadonlySet<string>;
  state: AccountState;
}

const PAST = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/** Splits `step`'s operations into those to send, resolved, and those skipped with why. */
export function readyOperations(step: Step, readiness: Readiness): ReadyStep {
  const ready: Sendable[] = [];
  const unready: Skipped[] = [];
  for (const op of step.operations) {
    const one = readyOne(op, readiness);
    if ('because' in one) unready.push({ op, because: one.because });
    else ready.push(one);
  }
  const held = new Map<string, string>();
  for (const { op, because } of unready) if (op.together !== undefined && !held.has(op.together)) held.set(op.together, `${op.address}: ${because}`);
  const heldBack = (r: Sendable): boolean => r.op.together !== undefined && held.has(r.op.together);
  return {
    sendable: ready.filter((r) => !heldBack(r)),
    skipped: [...unready, ...ready.filter(heldBack).map((r) => ({ op: r.op, because: `it goes in one request with ${held.get(r.op.together!)}` }))],
  };
}

/** `op` resolved for sending, or why it cannot go. */
function readyOne(op: Operation, { planned, succeeded, state }: Readiness): Sendable | { because: string } {
  const blocker = op.after.map((key) => planned.get(key)).find((dep) => dep !== undefined && !succeeded.has(dep.key));
  if (blocker !== undefined) {
    return { because: blocker.address === op.address ? `the old object could not be ${PAST[blocker.action]}` : `${blocker.address} was not ${PAST[blocker.action]}` };
  }
  const resolved = resolveRefs(op.params, state);
  if (!resolved.ok) return { because: `${resolved.missing} was not created` };
  const id = op.id ?? (op.action === 'create' ? undefined : state.resources[op.address]?.id);
  return { op: id === op.id ? op : { ...op, id }, params: resolved.values };
}
