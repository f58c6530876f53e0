/**
 * A generic dependency graph: nodes by id with the ids they depend on, ordered into layers
 * (every node after all its dependencies; nodes of one layer are independent of each other), and
 * its cycles found as strongly connected components. Knows nothing of ads; the manifest's cycle
 * check, the kinds' decision order and the scheduling of writes all use it.
 */

export interface GraphNode {
  id: string;
  dependsOn: readonly string[];
}

type GraphResult =
  | { ok: true; layers: string[][] }
  | { ok: false; cycle: string[] };

/** The dependencies of each node that are nodes themselves, without repeats. */
function edgesOf(nodes: readonly GraphNode[]): Map<string, string[]> {
  const ids = new Set(nodes.map((n) => n.id));
  return new Map(nodes.map((n) => [n.id, [...new Set(n.dependsOn)].filter((d) => ids.has(d))]));
}

/**
 * Every cycle of the graph, once: each strongly connected component of more than one node, or of
 * one node that depends on itself (Tarjan's algorithm, iterative, so deep graphs cannot overflow
 * the stack). Components come in the order their search finished; members in stack order.
 * Dependencies on ids that are not nodes are ignored.
 */
export function findCycles(nodes: readonly GraphNode[]): string[][] {
  const edges = edgesOf(nodes);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
  };
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    visit(start);
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const target = (edges.get(frame.node) ?? [])[frame.next++];
      if (target !== undefined) {
        if (!index.has(target)) {
          visit(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        component.push(member);
        if (member === frame.node) break;
      }
      if (component.length > 1 || (edges.get(frame.node) ?? []).includes(frame.node)) components.push(component);
    }
  }
  return components;
}

/**
 * The shortest path from `from` to `to` along dependencies, staying inside `within`:
 * `[from, ..., to]`, or undefined when there is none.
 */
export function shortestPath(edges: ReadonlyMap<string, readonly string[]>, from: string, to: string, within: ReadonlySet<string>): string[] | undefined {
  if (from === to) return [from];
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  for (let head = 0; head < queue.length && !previous.has(to); head++) {
    const node = queue[head]!;
    for (const next of edges.get(node) ?? []) {
      if (within.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  if (!previous.has(to)) return undefined;
  const path: string[] = [];
  for (let node = to; node !== from; node = previous.get(node)!) path.push(node);
  path.push(from);
  return path.reverse();
}

/** A closed path through one cycle's members, starting and ending at `from` (`[a, a]` for a self-dependency). */
function cycleThrough(members: ReadonlySet<string>, edges: ReadonlyMap<string, readonly string[]>, from: string): string[] {
  for (const next of edges.get(from) ?? []) {
    const back = members.has(next) ? shortestPath(edges, next, from, members) : undefined;
    if (back !== undefined) return [from, ...back];
  }
  return [from];
}

/**
 * Orders `nodes` into layers (Kahn's algorithm; ids sorted inside a layer for determinism).
 * Dependencies on ids that are not nodes are ignored. On a cycle, returns one cycle's ids in
 * order, the first repeated at the end.
 */
export function buildGraph(nodes: readonly GraphNode[]): GraphResult {
  const edges = edgesOf(nodes);
  const pending = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const [id, deps] of edges) {
    pending.set(id, deps.length);
    for (const d of deps) {
      const list = dependents.get(d);
      if (list === undefined) dependents.set(d, [id]);
      else list.push(id);
    }
  }
  const layers: string[][] = [];
  let current = [...pending].filter(([, count]) => count === 0).map(([id]) => id).sort();
  let placed = 0;
  while (current.length > 0) {
    layers.push(current);
    placed += current.length;
    const next: string[] = [];
    for (const id of current) {
      for (const dep of dependents.get(id) ?? []) {
        const left = pending.get(dep)! - 1;
        pending.set(dep, left);
        if (left === 0) next.push(dep);
      }
    }
    current = next.sort();
  }
  if (placed === edges.size) return { ok: true, layers };
  const component = findCycles(nodes)[0] ?? [];
  const first = [...component].sort()[0];
  return { ok: false, cycle: first === undefined ? [] : cycleThrough(new Set(component), edges, first) };
}
