/**
 * A generic dependency graph: nodes by id with the ids they depend on, ordered into layers
 * (every node after all its dependencies; nodes of one layer are independent of each other) with
 * cycle detection. Knows nothing of ads.
 */

export interface GraphNode {
  id: string;
  dependsOn: readonly string[];
}

export type GraphResult =
  | { ok: true; layers: string[][] }
  | { ok: false; cycle: string[] };

/**
 * Orders `nodes` into layers (Kahn's algorithm; ids sorted inside a layer for determinism).
 * Dependencies on ids that are not nodes are ignored. On a cycle, returns one cycle's ids in order.
 */
export function buildGraph(nodes: readonly GraphNode[]): GraphResult {
  const ids = new Set(nodes.map((n) => n.id));
  const pending = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const n of nodes) {
    const deps = [...new Set(n.dependsOn)].filter((d) => ids.has(d) && d !== n.id);
    pending.set(n.id, deps.length);
    for (const d of deps) {
      const list = dependents.get(d);
      if (list === undefined) dependents.set(d, [n.id]);
      else list.push(n.id);
    }
    if (n.dependsOn.includes(n.id)) return { ok: false, cycle: [n.id, n.id] };
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
  if (placed === nodes.length) return { ok: true, layers };
  return { ok: false, cycle: findCycle(nodes, pending) };
}

function findCycle(nodes: readonly GraphNode[], pending: Map<string, number>): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const start = [...pending].find(([, left]) => left > 0)?.[0];
  if (start === undefined) return [];
  const seen = new Map<string, number>();
  const path: string[] = [];
  let at: string | undefined = start;
  while (at !== undefined && !seen.has(at)) {
    seen.set(at, path.length);
    path.push(at);
    at = byId.get(at)?.dependsOn.find((d) => (pending.get(d) ?? 0) > 0);
  }
  if (at === undefined) return path;
  return [...path.slice(seen.get(at)!), at];
}
