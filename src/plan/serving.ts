/**
 * Serving safety (docs/architecture.md, "Serving safety"): at no moment of an apply, nor after a
 * failed or killed one, does a serving object (a kind with `serving` in its descriptor: campaigns,
 * line items) target more widely, or carry other creatives, than the old or the new manifest says.
 * Pure: the plan's operations in, the operations that keep that promise and their edges out.
 *
 * - Activate last: an object the manifest wants serving, created while writes under it go out, is
 *   created paused (`held`) and switched to serving by an `activate` operation after every one of
 *   them succeeded; an update that switches an existing object to serving waits for them too.
 * - Atomic changes: the changes of a kind marked `atomicUnderServing` (targeting criteria) under a
 *   parent that serves and keeps serving share a `together` group, sent in one all-or-nothing
 *   request; more than that request holds, and the parent is paused for them, then resumed.
 *   Under a parent that does not serve while they are written, they are `mixable`: creates and
 *   deletes may share requests, since nothing serves.
 * - Pause first: the writes under an object the plan pauses come after its pause.
 * - Ready before references: a write naming a resource waits for the writes of its children of a
 *   kind marked `readyBeforeReferences` (a criterion of an audience waits for its members).
 * - Creatives: under a parent that serves, the creatives it stops carrying go before those it
 *   starts to carry; when none of the new can be added, apply puts the old back
 *   (creative-restores.ts), and a parent an apply stopped in between left carrying none gets its
 *   creatives before every other write of the next (without-creative.ts).
 */
import { isUnknownRef, type ResourceChange } from '../diff/types.js';
import type { ServingSpec } from '../kinds/descriptor.js';
import { kindOf, type KindLookup } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { ResourceAddress, ResourceKind } from '../manifest/types.js';
import { sharedBatchLimit } from './steps.js';
import type { Operation, ServingNote } from './types.js';

/** The key of the operation that switches the object at `address` to serving last. */
const activateKey = (address: string): string => `activate ${address}`;

/** The key of the operation that pauses the object at `address` for a change too large for one request. */
export const pauseKey = (address: string): string => `pause ${address}`;

function ancestorsOf(address: ResourceAddress, kinds: KindLookup): string[] {
  const out: string[] = [];
  let current = address;
  for (let kind = kinds(current.kind).parent; kind !== undefined; kind = kinds(kind).parent) {
    current = { kind, steps: current.steps.slice(0, -1) };
    out.push(formatAddress(current));
  }
  return out;
}

function pushTo<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

const sortedKinds = (ops: readonly Operation[]): ResourceKind[] => [...new Set(ops.map((op) => op.kind))].sort();

/** The operations under each address (its descendants'), and each operation's ancestors. */
function descendants(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, kinds: KindLookup): Map<string, Operation[]> {
  const under = new Map<string, Operation[]>();
  for (const op of operations) {
    const change = changes.get(op.address);
    if (change === undefined) continue;
    for (const ancestor of ancestorsOf(change.address, kinds)) pushTo(under, ancestor, op);
  }
  return under;
}

const statusOf = (values: Readonly<Record<string, unknown>> | null | undefined, spec: ServingSpec): unknown => values?.[spec.field];

/** The status the service shows for the object of `change` (the live record's, which the manifest may leave unmanaged). */
function liveStatus(change: ResourceChange, live: LiveAccount, spec: ServingSpec): unknown {
  const record = change.id === undefined ? undefined : live.resources.get(change.kind)?.get(change.id)?.record;
  return statusOf(change.before, spec) ?? statusOf(record, spec);
}

/**
 * Whether an ancestor that serves by its own status stays or becomes paused: nothing under it
 * serves during the apply (its pause goes first), so nothing under it needs holding.
 */
function underPausedAncestor(change: ResourceChange, changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, kinds: KindLookup): boolean {
  return ancestorsOf(change.address, kinds).some((address) => {
    const ancestor = changes.get(address);
    const spec = ancestor === undefined ? undefined : kinds(ancestor.kind).serving;
    if (ancestor === undefined || spec === undefined || ancestor.action === 'delete') return false;
    return (statusOf(ancestor.after, spec) ?? liveStatus(ancestor, live, spec)) === spec.paused;
  });
}

/**
 * Whether the existing object of `change` serves now and goes on serving through the plan: the
 * service shows it serving, the manifest does not pause it, and no ancestor is or becomes paused.
 */
export function servesThroughout(change: ResourceChange, changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, spec: ServingSpec, kinds: KindLookup): boolean {
  if (change.action !== 'update' && change.action !== 'noop') return false;
  if (liveStatus(change, live, spec) !== spec.active || (statusOf(change.after, spec) ?? spec.active) !== spec.active) return false;
  return !underPausedAncestor(change, changes, live, kinds);
}

/**
 * The operations of one account's plan made safe for serving objects (see the file comment), with
 * a note for every serving object that needed it. `changes` holds every change, no-ops included.
 */
export function keepServingSafe(
  operations: readonly Operation[],
  changes: ReadonlyMap<string, ResourceChange>,
  live: LiveAccount,
  kinds: KindLookup = kindOf,
): { operations: Operation[]; notes: ServingNote[] } {
  // copies: the operations given stay as they were
  const out = operations.map((op) => ({ ...op }));
  const notes: ServingNote[] = [];
  const under = descendants(out, changes, kinds);
  const byAddress = new Map<string, Operation[]>();
  for (const op of out) pushTo(byAddress, op.address, op);
  for (const [address, change] of changes) {
    const spec = kinds(change.kind).serving;
    const below = under.get(address);
    if (spec === undefined || below === undefined || below.length === 0 || underPausedAncestor(change, changes, live, kinds)) continue;
    const own = byAddress.get(address) ?? [];
    const create = own.find((op) => op.action === 'create');
    const update = own.find((op) => op.action === 'update');
    if (create !== undefined) {
      if (statusOf(change.after, spec) !== spec.active) continue;
      create.params = { ...create.params, [spec.field]: spec.paused };
      create.phase = 'held';
      out.push({ key: activateKey(address), address, kind: change.kind, action: 'update', params: { [spec.field]: spec.active }, after: [], phase: 'activate' });
      notes.push({ address, how: 'created-paused', kinds: sortedKinds(below) });
      continue;
    }
    if (update !== undefined && update.params[spec.field] === spec.active) {
      notes.push({ address, how: 'kept-paused', kinds: sortedKinds(below) });
      continue;
    }
    if (!servesThroughout(change, changes, live, spec, kinds) || change.id === undefined) continue;
    const byKind = new Map<string, Operation[]>();
    for (const op of below) {
      const childChange = changes.get(op.address);
      const parent = childChange === undefined ? undefined : ancestorsOf(childChange.address, kinds)[0];
      if (parent === address && kinds(op.kind).atomicUnderServing === true && op.action !== 'update') pushTo(byKind, op.kind, op);
    }
    for (const ops of byKind.values()) {
      const kind = ops[0]!.kind;
      const limit = sharedBatchLimit(kind, kinds);
      if (limit !== undefined && ops.length <= limit) {
        for (const op of ops) op.together = address;
        notes.push({ address, how: 'atomic', kinds: [kind] });
        continue;
      }
      if (out.some((op) => op.key === pauseKey(address))) continue;
      out.push({ key: pauseKey(address), address, kind: change.kind, action: 'update', id: change.id, params: { [spec.field]: spec.paused }, after: [], phase: 'pause' });
      out.push({ key: activateKey(address), address, kind: change.kind, action: 'update', id: change.id, params: { [spec.field]: spec.active }, after: [], phase: 'activate' });
      notes.push({ address, how: 'paused-for-change', kinds: [kind] });
    }
  }
  markMixable(out, changes, live, kinds);
  notes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { operations: out, notes };
}

/**
 * Marks `mixable` the creates and deletes of an `atomicUnderServing` kind (one batch endpoint for
 * both) whose parent does not serve while they are written: paused, under a paused ancestor,
 * paused by the plan first, created by it, or switched to serving only after them. Nothing
 * serves, so no moment can target wider, and they may share requests whatever their action.
 * Under a parent that serves throughout, they keep their `together` group or the pause around them.
 */
function markMixable(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, kinds: KindLookup): void {
  for (const op of operations) {
    if (op.action === 'update' || op.together !== undefined || kinds(op.kind).atomicUnderServing !== true || sharedBatchLimit(op.kind, kinds) === undefined) continue;
    const change = changes.get(op.address);
    const parentAddress = change === undefined ? undefined : ancestorsOf(change.address, kinds)[0];
    const parent = parentAddress === undefined ? undefined : changes.get(parentAddress);
    const spec = parent === undefined ? undefined : kinds(parent.kind).serving;
    if (parent === undefined || spec === undefined || servesThroughout(parent, changes, live, spec, kinds)) continue;
    op.mixable = true;
  }
}

/** Every address the value refers to through `UnknownRef`s, and every string in it. */
function valuesIn(value: unknown, refs: string[], strings: string[]): void {
  if (isUnknownRef(value)) refs.push(value.$ref);
  else if (typeof value === 'string') strings.push(value);
  else if (Array.isArray(value)) for (const v of value) valuesIn(v, refs, strings);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) valuesIn(v, refs, strings);
}

/**
 * The edges serving safety adds, as [operation, what it waits for] pairs of operation keys:
 * an activation after every write under its object, and after the `readyBeforeReferences`
 * writes of whatever the manifest has under it names (the members of an audience an existing
 * criterion targets); writes under an object after the object's pause; a write naming a resource
 * after the writes of that resource's `readyBeforeReferences` children (named by a yet-to-be-created
 * address, or by the live id bound to it). `changes` holds every change, no-ops included.
 */
export function servingEdges(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, kinds: KindLookup = kindOf): Array<[string, string]> {
  const edges: Array<[string, string]> = [];
  const under = descendants(operations, changes, kinds);
  edges.push(...creativeEdges(operations, changes, live, kinds));
  const activations: Operation[] = [];
  for (const op of operations) {
    const spec = kinds(op.kind).serving;
    if (spec === undefined || op.action !== 'update') continue;
    if (op.params[spec.field] === spec.active) {
      activations.push(op);
      for (const child of under.get(op.address) ?? []) edges.push([op.key, child.key]);
    }
    if (op.params[spec.field] === spec.paused) for (const child of under.get(op.address) ?? []) edges.push([child.key, op.key]);
  }
  const readyOf = readyWrites(operations, changes, kinds);
  if (readyOf === undefined) return edges;
  for (const op of operations) {
    const change = changes.get(op.address);
    if (op.action === 'delete' || change === undefined) continue;
    for (const dep of readyOf(op.params, change.address)) if (dep.key !== op.key) edges.push([op.key, dep.key]);
  }
  // an activation also waits for the members of the audiences that what is under it targets,
  // written in this plan or already there
  if (activations.length > 0) {
    const desiredUnder = new Map<string, ResourceChange[]>();
    for (const [, change] of changes) {
      if (change.action === 'delete') continue;
      for (const ancestor of ancestorsOf(change.address, kinds)) pushTo(desiredUnder, ancestor, change);
    }
    for (const op of activations) {
      for (const child of desiredUnder.get(op.address) ?? []) for (const dep of readyOf(child.after, child.address)) edges.push([op.key, dep.key]);
    }
  }
  return edges;
}

/** The creatives of one kind that a serving object stops carrying (`removes`) and starts to carry (`adds`). */
interface CreativeSwap {
  parent: string;
  kind: ResourceKind;
  adds: Operation[];
  removes: Operation[];
}

/**
 * The creative swaps of the plan: under each parent that serves and keeps serving, per `creative`
 * kind, the operations that remove some and add others (a replacement is both), when there are both.
 */
export function creativeSwaps(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, kinds: KindLookup = kindOf): CreativeSwap[] {
  const byParent = new Map<string, CreativeSwap>();
  for (const op of operations) {
    const change = changes.get(op.address);
    if (kinds(op.kind).creative !== true || change === undefined || op.action === 'update') continue;
    const parent = ancestorsOf(change.address, kinds)[0];
    if (parent === undefined) continue;
    const key = `${parent}\u0000${op.kind}`;
    const swap = byParent.get(key) ?? { parent, kind: op.kind, adds: [], removes: [] };
    byParent.set(key, swap);
    (op.action === 'create' ? swap.adds : swap.removes).push(op);
  }
  return [...byParent.values()].filter(({ parent, adds, removes }) => {
    if (adds.length === 0 || removes.length === 0) return false;
    const change = changes.get(parent);
    const spec = change === undefined ? undefined : kinds(change.kind).serving;
    return change !== undefined && spec !== undefined && servesThroughout(change, changes, live, spec, kinds);
  });
}

/**
 * Under a parent that serves and keeps serving, the additions of a `creative` kind come after its
 * removals of that kind: the parent carries the old creatives, fewer, none, then the new ones —
 * never old and new at once, even when a removal fails. The moment with none is covered twice:
 * apply puts the old ones back when no new one can be added (creative-restores.ts), and the next
 * plan repairs an object an apply stopped in that moment left without one (without-creative.ts).
 */
function creativeEdges(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, kinds: KindLookup): Array<[string, string]> {
  const edges: Array<[string, string]> = [];
  for (const { adds, removes } of creativeSwaps(operations, changes, live, kinds)) {
    for (const add of adds) for (const remove of removes) if (add.address !== remove.address) edges.push([add.key, remove.key]);
  }
  return edges;
}

/**
 * The writes of `readyBeforeReferences` kinds that a value must wait for: those under each
 * resource the value names (by the address of one yet to be created, or by the live id bound to
 * it), except under the value's own resource and its ancestors. Undefined when the plan has none.
 */
function readyWrites(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, kinds: KindLookup): ((value: unknown, at: ResourceAddress) => Operation[]) | undefined {
  const ready = new Map<string, Operation[]>();
  const readyParents = new Set<ResourceKind>();
  for (const op of operations) {
    const descriptor = kinds(op.kind);
    const change = changes.get(op.address);
    if (descriptor.readyBeforeReferences !== true || descriptor.parent === undefined || op.action === 'delete' || change === undefined) continue;
    readyParents.add(descriptor.parent);
    pushTo(ready, ancestorsOf(change.address, kinds)[0] ?? '', op);
  }
  if (ready.size === 0) return undefined;
  const boundTo = new Map<string, string>();
  for (const [address, change] of changes) if (change.id !== undefined && readyParents.has(change.kind)) boundTo.set(change.id, address);
  return (value, at) => {
    const refs: string[] = [];
    const strings: string[] = [];
    valuesIn(value, refs, strings);
    const own = new Set([formatAddress(at), ...ancestorsOf(at, kinds)]);
    const out: Operation[] = [];
    for (const target of new Set([...refs, ...strings.flatMap((s) => boundTo.get(s) ?? [])])) if (!own.has(target)) out.push(...(ready.get(target) ?? []));
    return out;
  };
}
