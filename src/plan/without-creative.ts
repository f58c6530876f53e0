/**
 * Serving without a creative (docs/architecture.md, "Serving safety"): an object that serves and
 * keeps serving through the plan, which the service shows carrying no creative of any kind that
 * sits under it, while the plan adds creatives of the manifest to it. An apply stopped between
 * removing its old creatives and adding the new ones leaves it so (so does a deletion by hand);
 * it spends with nothing to show. Those creates are the plan's repairs: marked `repair`, they go
 * before every other write of the account (order.ts). Pure.
 */
import type { ResourceChange } from '../diff/types.js';
import { kindOf, type KindLookup } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { ResourceKind } from '../manifest/types.js';
import { servesThroughout } from './serving.js';
import type { Operation, WithoutCreative } from './types.js';

/** Whether the service shows a creative of any kind under the object of `kind` with live id `id`. */
function carriesCreative(live: LiveAccount, kind: ResourceKind, id: string, kinds: KindLookup): boolean {
  for (const [child, records] of live.resources) {
    const descriptor = kinds(child);
    if (descriptor.creative !== true || descriptor.parent !== kind || descriptor.parentField === undefined) continue;
    for (const { record } of records.values()) if (String(record[descriptor.parentField]) === id) return true;
  }
  return false;
}

/**
 * The objects serving without a creative that the plan repairs, and the operations with their
 * repairs marked (copies; the operations given stay as they were). `changes` holds every change,
 * no-ops included.
 */
export function repairWithoutCreative(
  operations: readonly Operation[],
  changes: ReadonlyMap<string, ResourceChange>,
  live: LiveAccount,
  kinds: KindLookup = kindOf,
): { operations: Operation[]; found: WithoutCreative[] } {
  const adds = new Map<string, Operation[]>();
  // a creative the plan removes is one the service shows
  const removing = new Set<string>();
  for (const op of operations) {
    const change = changes.get(op.address);
    const parentKind = kinds(op.kind).parent;
    if (op.action === 'update' || kinds(op.kind).creative !== true || change === undefined || parentKind === undefined) continue;
    const parent = formatAddress({ kind: parentKind, steps: change.address.steps.slice(0, -1) });
    if (op.action === 'delete') removing.add(parent);
    else adds.set(parent, [...(adds.get(parent) ?? []), op]);
  }
  const repairs = new Set<string>();
  const found: WithoutCreative[] = [];
  for (const [address, ops] of adds) {
    if (removing.has(address)) continue;
    const parent = changes.get(address);
    const spec = parent === undefined ? undefined : kinds(parent.kind).serving;
    if (parent?.id === undefined || spec === undefined || !servesThroughout(parent, changes, live, spec, kinds)) continue;
    if (carriesCreative(live, parent.kind, parent.id, kinds)) continue;
    for (const op of ops) repairs.add(op.key);
    found.push({ address, kind: parent.kind, id: parent.id, repairs: ops.map((op) => op.address).sort() });
  }
  found.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { operations: operations.map((op) => (repairs.has(op.key) ? { ...op, phase: 'repair' } : op)), found };
}
