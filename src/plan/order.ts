/**
 * The edges between the operations of one account's plan (docs/architecture.md, "Scheduling"):
 * - parents: a create or update after the create of its parent;
 * - references: after the create of every resource a value names, at any depth of the value
 *   (a funding instrument id, a card URI, a media key);
 * - `depends_on`: after every operation on the resources named, and for deletes the reverse;
 * - destroy: a delete after the deletes of its children and after every write of a resource that
 *   referred to it;
 * - replacements: the delete and the create of one resource in the order its kind requires;
 * - account limits: when the creates and activations of a limit would not fit beside what the
 *   account holds, they come after the deletes and pauses that free room (a shared barrier node,
 *   so that many of each cost two edges per operation, not their product);
 * - repairs first: the creatives added to an object serving without one come before every other
 *   write (an ordering barrier: later, not dependent on their success).
 * Pure: operations and changes in, graph nodes out.
 */
import { isUnknownRef, type ResourceChange } from '../diff/types.js';
import type { GraphNode } from '../graph/graph.js';
import { COLLECTIONS, kindOf, type KindLookup } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount, ResourceAddress } from '../manifest/types.js';
import { limitMoves } from './limits.js';
import { operationKey } from './operations.js';
import { ORDERING_BARRIER } from './schedule.js';
import { pauseKey, servingEdges } from './serving.js';
import type { Operation } from './types.js';

/** The prefix of the ids of barrier nodes (nodes that are not operations). */
const BARRIER = 'limit ';

/** The prefix of the barrier node of a `together` group. */
const TOGETHER = 'together ';

interface OrderInput {
  operations: readonly Operation[];
  /** The change of each operation's address. */
  changes: ReadonlyMap<string, ResourceChange>;
  desired: DesiredAccount | undefined;
  live: LiveAccount;
  /** The descriptors (the registry's unless a test gives others). */
  kinds?: KindLookup;
}

/** Every address the value refers to through `UnknownRef`s, at any depth. */
function referencesIn(value: unknown, out: string[]): string[] {
  if (isUnknownRef(value)) out.push(value.$ref);
  else if (Array.isArray(value)) for (const v of value) referencesIn(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) referencesIn(v, out);
  return out;
}

function parentOf(address: ResourceAddress, kinds: KindLookup): ResourceAddress | undefined {
  const parentKind = kinds(address.kind).parent;
  if (parentKind === undefined) return undefined;
  return { kind: parentKind, steps: address.steps.slice(0, -1) };
}

const TOP_LEVEL = COLLECTIONS.get('account') ?? new Map();

/** Builds the graph nodes of the operations (and barrier nodes); see the file comment. */
export function orderOperations(input: OrderInput): GraphNode[] {
  const { operations, changes } = input;
  const kinds = input.kinds ?? kindOf;
  const deps = new Map<string, Set<string>>(operations.map((op) => [op.key, new Set<string>()]));
  const keys = new Set(deps.keys());
  const edge = (from: string, to: string | undefined): void => {
    if (to !== undefined && to !== from && keys.has(to)) deps.get(from)?.add(to);
  };
  const create = (address: string): string => operationKey('create', address);
  const remove = (address: string): string => operationKey('delete', address);
  const byAddress = new Map<string, Operation[]>();
  for (const op of operations) {
    const list = byAddress.get(op.address);
    if (list === undefined) byAddress.set(op.address, [op]);
    else list.push(op);
  }
  const dependsOn = new Map<string, readonly ResourceAddress[]>();
  for (const r of input.desired?.resources ?? []) if (r.dependsOn.length > 0) dependsOn.set(formatAddress(r.address), r.dependsOn);
  // the address bound to each live id of a kind, for the references of values before the change
  const boundTo = new Map<string, string>();
  for (const [text, change] of changes) if (change.id !== undefined) boundTo.set(`${change.kind}\u0000${change.id}`, text);

  for (const op of operations) {
    const change = changes.get(op.address);
    if (change === undefined) continue;
    const descriptor = kinds(op.kind);
    if (op.action !== 'delete') {
      for (let parent = parentOf(change.address, kinds); parent !== undefined; parent = parentOf(parent, kinds)) edge(op.key, create(formatAddress(parent)));
      for (const target of referencesIn(op.params, [])) edge(op.key, create(target));
      for (const target of dependsOn.get(op.address) ?? []) for (const other of byAddress.get(formatAddress(target)) ?? []) edge(op.key, other.key);
      if (op.action === 'create' && descriptor.replaceOrder === 'delete-first') edge(op.key, remove(op.address));
      if (op.phase === 'activate') {
        edge(op.key, create(op.address));
        edge(op.key, pauseKey(op.address));
      }
      continue;
    }
    if (descriptor.replaceOrder === 'create-first') edge(op.key, create(op.address));
    // the old half of a replacement forced by a new object it will refer to (a promotion of a post
    // made anew) waits for that object: if its create fails, the old one stays in place. Not for
    // ancestors, nor for targets deleted first, whose order runs the other way.
    const replacing = byAddress.get(op.address)?.find((o) => o.action === 'create');
    if (replacing !== undefined) {
      const ancestors = new Set<string>();
      for (let parent = parentOf(change.address, kinds); parent !== undefined; parent = parentOf(parent, kinds)) ancestors.add(formatAddress(parent));
      for (const target of referencesIn(replacing.params, [])) if (!ancestors.has(target) && !keys.has(remove(target))) edge(op.key, create(target));
    }
    // the nearest ancestor that is deleted waits for this delete
    for (let parent = parentOf(change.address, kinds); parent !== undefined; parent = parentOf(parent, kinds)) {
      const key = remove(formatAddress(parent));
      if (keys.has(key)) {
        edge(key, op.key);
        break;
      }
    }
    for (const target of dependsOn.get(op.address) ?? []) edge(remove(formatAddress(target)), op.key);
  }
  // a resource that referred to another before the change is written before that one is deleted
  for (const op of operations) {
    if (op.action === 'create') continue;
    const change = changes.get(op.address);
    for (const ref of Object.values(kinds(op.kind).manifest.refs)) {
      const id = change?.before?.[ref.field];
      const kind = TOP_LEVEL.get(ref.collection);
      const target = typeof id === 'string' && kind !== undefined ? boundTo.get(`${kind}\u0000${id}`) : undefined;
      if (target !== undefined) edge(remove(target), op.key);
    }
  }
  for (const [from, to] of servingEdges(operations, changes, input.live, kinds)) edge(from, to);
  const barriers: GraphNode[] = [...repairsFirst(operations, deps)];
  for (const move of limitMoves(operations, changes, input.live, kinds)) {
    if (move.freeing.length === 0 || move.initial + move.needing.length <= move.max) continue;
    const barrier = `${BARRIER}${move.code} ${move.scope}`;
    barriers.push({ id: barrier, dependsOn: move.freeing });
    for (const key of move.needing) deps.get(key)?.add(barrier);
  }
  barriers.push(...togetherBarriers(operations, deps));
  return [...operations.map((op) => ({ id: op.key, dependsOn: [...(deps.get(op.key) ?? [])] })), ...barriers];
}

/**
 * The repairs of objects serving without a creative (`phase: 'repair'`, without-creative.ts) go
 * before every other write of the account: one ordering barrier waits for them, and every operation
 * they do not themselves wait for (at any depth) waits for it — in a later layer, sent whether or
 * not a repair succeeded, since nothing else depends on one.
 */
function repairsFirst(operations: readonly Operation[], deps: Map<string, Set<string>>): GraphNode[] {
  const repairs = operations.filter((op) => op.phase === 'repair').map((op) => op.key);
  if (repairs.length === 0) return [];
  const needed = new Set<string>();
  const visit = (key: string): void => {
    if (needed.has(key)) return;
    needed.add(key);
    for (const dep of deps.get(key) ?? []) visit(dep);
  };
  for (const key of repairs) visit(key);
  const barrier = `${ORDERING_BARRIER}repairs`;
  for (const op of operations) if (!needed.has(op.key)) deps.get(op.key)?.add(barrier);
  return [{ id: barrier, dependsOn: repairs }];
}

/**
 * The operations of one `together` group go in one request, so they wait for the same things:
 * each depends only on a barrier node that depends on everything any of them depended on
 * outside the group (edges inside the group are dropped; the request orders them).
 */
function togetherBarriers(operations: readonly Operation[], deps: Map<string, Set<string>>): GraphNode[] {
  const groups = new Map<string, string[]>();
  for (const op of operations) {
    if (op.together === undefined) continue;
    const id = `${TOGETHER}${op.kind} ${op.together}`;
    const members = groups.get(id);
    if (members === undefined) groups.set(id, [op.key]);
    else members.push(op.key);
  }
  const barriers: GraphNode[] = [];
  for (const [id, members] of groups) {
    const inside = new Set(members);
    const outside = new Set<string>();
    for (const key of members) for (const dep of deps.get(key) ?? []) if (!inside.has(dep)) outside.add(dep);
    barriers.push({ id, dependsOn: [...outside] });
    for (const key of members) deps.set(key, new Set([id]));
  }
  return barriers;
}
