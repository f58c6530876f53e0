/**
 * The account limits of the kinds' descriptors (`AccountLimit`) seen from a plan: per limit and
 * scope (the account, or one parent), how many records the account holds now and which
 * operations free room (deletes, pauses) or need it (creates, activations). order.ts orders the
 * first before the second when they would not fit otherwise; validate.ts replays the schedule
 * to check that no moment of the apply exceeds a limit.
 */
import type { ResourceChange } from '../diff/types.js';
import { isUnknownRef } from '../diff/types.js';
import type { AccountLimit } from '../kinds/descriptor.js';
import { kindOf, type KindLookup } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import type { ResourceKind } from '../manifest/types.js';
import type { Operation } from './types.js';

/** One limit in one scope: what the account holds and what the plan moves. */
interface LimitMove {
  kind: ResourceKind;
  limit: AccountLimit;
  code: string;
  max: number;
  /** '' for the whole account, else the parent's id (or the address of a parent yet to be created). */
  scope: string;
  initial: number;
  /** Keys of the operations that free room / need room. */
  freeing: string[];
  needing: string[];
}

const scopeValue = (value: unknown): string => (isUnknownRef(value) ? value.$ref : value === undefined || value === null ? '' : String(value));

// a held create and a pause leave the object paused; its activation (after a create, or a
// pause) is what makes it count
function countsBefore(op: Operation, change: ResourceChange, limit: AccountLimit): boolean {
  if (op.phase === 'activate') return false;
  return op.action !== 'create' && change.before !== null && limit.counts(change.before);
}

function countsAfter(op: Operation, change: ResourceChange, limit: AccountLimit): boolean {
  if (op.action === 'delete') return false;
  if (op.phase === 'held' || op.phase === 'pause') return limit.counts({ ...(change.after ?? {}), ...op.params });
  if (op.phase === 'activate') return limit.counts({ ...(change.before ?? {}), ...(change.after ?? {}), ...op.params });
  const values = op.action === 'update' ? { ...(change.before ?? {}), ...(change.after ?? {}) } : (change.after ?? {});
  return limit.counts(values);
}

/** The moves of every limit of every kind the plan writes, in a stable order. */
export function limitMoves(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, kinds: KindLookup = kindOf): LimitMove[] {
  const moves = new Map<string, LimitMove>();
  const moveOf = (kind: ResourceKind, limit: AccountLimit, scope: string): LimitMove => {
    const id = `${limit.code}\u0000${scope}`;
    let move = moves.get(id);
    if (move === undefined) {
      move = { kind, limit, code: limit.code, max: limit.max, scope, initial: 0, freeing: [], needing: [] };
      moves.set(id, move);
    }
    return move;
  };
  const written = new Set(operations.map((op) => op.kind));
  for (const kind of written) {
    for (const limit of kinds(kind).limits) {
      for (const record of live.resources.get(kind)?.values() ?? []) {
        if (limit.counts(record.record)) moveOf(kind, limit, limit.perParent === undefined ? '' : scopeValue(record.record[limit.perParent])).initial++;
      }
    }
  }
  for (const op of operations) {
    const change = changes.get(op.address);
    if (change === undefined) continue;
    for (const limit of kinds(op.kind).limits) {
      const before = countsBefore(op, change, limit);
      const after = countsAfter(op, change, limit);
      if (before === after) continue;
      const values = op.action === 'delete' ? change.before : change.after;
      const scope = limit.perParent === undefined ? '' : scopeValue(values?.[limit.perParent]);
      const move = moveOf(op.kind, limit, scope);
      (before ? move.freeing : move.needing).push(op.key);
    }
  }
  return [...moves.values()];
}
