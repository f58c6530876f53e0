/**
 * Scheduling (docs/architecture.md, "Scheduling"): the operations of one account, with their
 * edges (order.ts), into layers of steps. An operation's layer is the earliest after everything
 * it depends on (barrier nodes take no layer of their own); then the operations of a kind and
 * action in one layer that can all wait are moved to a later layer their group already uses, when
 * that saves a request, so that batching stays as efficient as the endpoints allow. Each layer's operations are
 * grouped by kind and action into steps cut to the kind's write endpoint; the `mixable` creates and
 * deletes of a kind join one step of both actions when that saves a request. An operation's `after`
 * is what it depends on through the graph, barriers expanded, except behind an ordering barrier,
 * which only places it later. Pure and deterministic: layers are made in one pass over a
 * topological order.
 */
import { buildGraph, type GraphNode } from '../graph/graph.js';
import type { WriteEndpoint } from '../kinds/descriptor.js';
import { kindOf, type KindLookup } from '../kinds/registry.js';
import { isUnknownRef } from '../diff/types.js';
import type { ResourceKind } from '../manifest/types.js';
import { packGroups, sharedBatchLimit } from './steps.js';
import type { Operation, Step } from './types.js';

/**
 * The prefix of a barrier node that orders without making its dependents depend on success: an
 * operation behind it goes in a later layer than what the barrier waits for, and is sent whether or
 * not that succeeded (order.ts: the repairs of objects serving without a creative go first).
 */
export const ORDERING_BARRIER = 'first ';

/** A schedule, or the cycle (operation keys in order) that makes one impossible. */
type Schedule = { ok: true; layers: Step[][] } | { ok: false; cycle: string[] };

function endpointOf(op: Operation, kinds: KindLookup): WriteEndpoint {
  const write = kinds(op.kind).write;
  const endpoint = op.action === 'update' ? write.update : write[op.action];
  if (endpoint === undefined) throw new Error(`${op.kind} has no ${op.action} endpoint, yet ${op.address} was planned to ${op.action}`);
  return endpoint;
}

// the operations of `together` groups share one step per kind and layer, whatever their action
const groupKey = (op: Operation): string => (op.together === undefined ? `${op.kind} ${op.action}` : `${op.kind} together`);

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Earliest layers: one more than the latest dependency, barriers (nodes that are not operations) adding nothing. */
function earliestLayers(order: readonly string[], byId: ReadonlyMap<string, GraphNode>, ops: ReadonlyMap<string, Operation>): Map<string, number> {
  const layer = new Map<string, number>();
  for (const id of order) {
    let at = 0;
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      const l = layer.get(dep);
      if (l === undefined) continue;
      at = Math.max(at, ops.has(dep) ? l + 1 : l);
    }
    layer.set(id, at);
  }
  return layer;
}

/** The largest number of operations one request of the group's endpoint carries, when it carries several. */
function requestSize(op: Operation, kinds: KindLookup): number | undefined {
  const endpoint = endpointOf(op, kinds);
  return endpoint.via === 'batch' || endpoint.via === 'list' ? endpoint.limit : undefined;
}

/**
 * Moves the operations of a kind and action that sit in one layer, all together, to a later
 * layer where the same group already has operations, when nothing that depends on them comes
 * that early and the move saves a request (`ceil(a/n) + ceil(b/n) > ceil((a+b)/n)`); visited
 * from the last layer back, so dependents are placed first.
 */
function compact(byId: ReadonlyMap<string, GraphNode>, layer: Map<string, number>, ops: ReadonlyMap<string, Operation>, kinds: KindLookup): void {
  const dependents = new Map<string, string[]>();
  for (const node of byId.values()) for (const dep of node.dependsOn) pushTo(dependents, dep, node.id);
  // a barrier's latest layer is that of its earliest dependent; an operation's one before it
  const latest = (id: string): number => {
    let bound = Number.POSITIVE_INFINITY;
    for (const d of dependents.get(id) ?? []) bound = Math.min(bound, ops.has(d) ? (layer.get(d) ?? 0) - 1 : latest(d));
    return bound;
  };
  const buckets = new Map<string, Map<number, string[]>>();
  for (const [id, l] of layer) {
    const op = ops.get(id);
    // a `together` group stays in the layer its barrier gives it
    if (op === undefined || op.together !== undefined || requestSize(op, kinds) === undefined) continue;
    const byLayer = buckets.get(groupKey(op)) ?? new Map<number, string[]>();
    buckets.set(groupKey(op), byLayer);
    pushTo(byLayer, l, id);
  }
  for (const byLayer of buckets.values()) {
    const size = requestSize(ops.get([...byLayer.values()][0]![0]!)!, kinds) ?? 1;
    const requests = (n: number): number => Math.ceil(n / size);
    for (const from of [...byLayer.keys()].sort((a, b) => b - a)) {
      const ids = byLayer.get(from) ?? [];
      let bound = Number.POSITIVE_INFINITY;
      for (const id of ids) bound = Math.min(bound, latest(id));
      const target = [...byLayer.keys()].filter((l) => l > from && l <= bound).sort((a, b) => b - a)[0];
      if (target === undefined) continue;
      const there = byLayer.get(target) ?? [];
      if (requests(ids.length) + requests(there.length) <= requests(ids.length + there.length)) continue;
      for (const id of ids) layer.set(id, target);
      byLayer.set(target, [...there, ...ids]);
      byLayer.delete(from);
    }
  }
}

const valueText = (value: unknown): string => (isUnknownRef(value) ? value.$ref : String(value));

/**
 * The steps of operations of one kind and action that go together (a layer's, or the creates that
 * put back what a serving object stopped carrying), cut as the kind's write endpoint takes them;
 * `together` groups, and `mixable` operations of both actions, as one `atomic` step.
 */
export function stepsOf(ops: Operation[], kinds: KindLookup): Step[] {
  const first = ops[0]!;
  const { kind, action } = first;
  const endpoint = endpointOf(first, kinds);
  if (first.together !== undefined || ops.some((op) => op.mixable === true && op.action !== action)) {
    const limit = sharedBatchLimit(kind, kinds);
    if (limit === undefined) throw new Error(`${kind} has no batch endpoint for both creates and deletes, yet ${first.address} was planned in one request with others`);
    return [{ type: 'atomic', kind, action: 'create', limit, operations: ops }];
  }
  switch (endpoint.via) {
    case 'batch':
      return [{ type: 'batch', kind, action, limit: endpoint.limit, operations: ops }];
    case 'list':
      return [{ type: 'list', kind, action, limit: endpoint.limit, operations: ops }];
    case 'single':
      return [{ type: 'single', kind, action, operations: ops }];
    case 'grouped': {
      const groups = new Map<string, Operation[]>();
      for (const op of ops) {
        pushTo(groups, valueText(op.params[endpoint.by]), op);
      }
      return [...groups].map(([group, list]) => ({ type: 'grouped', kind, action, group, limit: endpoint.limit, operations: list }));
    }
  }
}

/** Schedules `operations` along `nodes` (their edges and barriers); fills each operation's `after`. */
export function scheduleOperations(operations: readonly Operation[], nodes: readonly GraphNode[], kinds: KindLookup = kindOf): Schedule {
  const graph = buildGraph(nodes);
  if (!graph.ok) return { ok: false, cycle: graph.cycle };
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const ops = new Map(operations.map((op) => [op.key, op]));
  const order = graph.layers.flat();
  const layer = earliestLayers(order, byId, ops);
  compact(byId, layer, ops, kinds);
  const expand = (id: string): string[] => (ops.has(id) ? [id] : id.startsWith(ORDERING_BARRIER) ? [] : (byId.get(id)?.dependsOn ?? []).flatMap(expand));
  const byLayer: Operation[][] = [];
  for (const op of [...operations].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))) {
    op.after = [...new Set((byId.get(op.key)?.dependsOn ?? []).flatMap(expand))].sort();
    const l = layer.get(op.key) ?? 0;
    (byLayer[l] ??= []).push(op);
  }
  const layers: Step[][] = [];
  for (const list of byLayer) {
    if (list === undefined || list.length === 0) continue;
    const groups = new Map<string, Operation[]>();
    for (const op of list) pushTo(groups, groupKey(op), op);
    mixActions(groups, kinds);
    layers.push([...groups.keys()].sort().flatMap((key) => stepsOf(groups.get(key)!, kinds)));
  }
  return { ok: true, layers };
}

/**
 * In one layer's groups, moves the `mixable` creates and deletes of a kind into the kind's
 * `together` group (one `atomic` step, requests shared whatever the action) when that sends fewer
 * requests than their own batches beside it: three deletes and three creates of a paused line
 * item's targeting go in one request, not two. Operations in one layer have no order between
 * them, and a `mixable` one's parent does not serve (plan/serving.ts), so sharing a request
 * changes no moment of serving.
 */
function mixActions(groups: Map<string, Operation[]>, kinds: KindLookup): void {
  const mixableKinds = new Set<ResourceKind>();
  for (const [key, ops] of groups) if (!key.endsWith(' together')) for (const op of ops) if (op.mixable === true) mixableKinds.add(op.kind);
  for (const kind of mixableKinds) {
    const limit = sharedBatchLimit(kind, kinds);
    if (limit === undefined) continue;
    const together = groups.get(`${kind} together`) ?? [];
    const creates = groups.get(`${kind} create`) ?? [];
    const deletes = groups.get(`${kind} delete`) ?? [];
    const mixed = [...creates, ...deletes].filter((op) => op.mixable === true).sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    const batches = (n: number): number => Math.ceil(n / limit);
    const atomic = (ops: readonly Operation[]): number => (ops.length === 0 ? 0 : packGroups(ops, limit).length);
    const apart = atomic(together) + batches(creates.length) + batches(deletes.length);
    const shared = atomic([...together, ...mixed]) + batches(creates.length - mixed.filter((op) => op.action === 'create').length) + batches(deletes.length - mixed.filter((op) => op.action === 'delete').length);
    if (shared >= apart) continue;
    groups.set(`${kind} together`, [...together, ...mixed]);
    for (const [key, ops] of [[`${kind} create`, creates], [`${kind} delete`, deletes]] as const) {
      const rest = ops.filter((op) => op.mixable !== true);
      if (rest.length === 0) groups.delete(key);
      else groups.set(key, rest);
    }
  }
}
