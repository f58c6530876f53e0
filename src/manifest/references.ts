/**
 * The checks that need every address of a file: explicit `depends_on` entries and `import`
 * entries must name resources of the manifest ("did you mean" otherwise), an object may be
 * imported once, and the dependencies (parents, references, depends_on) must not form a cycle.
 */
import { didYouMean } from '../diag/suggest.js';
import { formatAddress, parseAddress } from './address.js';
import { findResource, rangeOf, report, type FileContext } from './context.js';
import { asMap, asSeq, childPointer, idValue, stringValue } from './nodes.js';
import type { DesiredResource } from './types.js';
import type { YMap } from './yaml-tree.js';

function unknownAddress(ctx: FileContext, text: string): string {
  return `${JSON.stringify(text)} is not a resource of this manifest${didYouMean(text, ctx.byAddress.keys())}`;
}

/** Resolves the explicit `depends_on` entries collected while reading the resources. */
export function resolveDependencies(ctx: FileContext): void {
  for (const pending of ctx.dependencies) {
    const target = findResource(ctx, pending.address);
    const text = formatAddress(pending.address);
    if (target === undefined) {
      report(ctx, pending.pointer, 'unknown-reference', `depends_on: ${unknownAddress(ctx, text)}`, pending.range);
    } else if (!pending.resource.dependsOn.some((d) => formatAddress(d) === text)) {
      pending.resource.dependsOn.push(target.address);
    }
  }
}

/** Applies the top-level `import` entries: each binds one resource of the manifest to an existing id. */
export function resolveImports(ctx: FileContext, root: YMap): void {
  const boundIds = new Map<string, DesiredResource>();
  for (const resource of ctx.resources) if (resource.importId !== undefined) boundIds.set(`${resource.kind}\u0000${resource.importId}`, resource);
  asSeq(root.byKey.get('import')?.value)?.items.forEach((item, i) => {
    const pointer = childPointer('/import', i);
    const map = asMap(item);
    const to = map?.byKey.get('to');
    const idEntry = map?.byKey.get('id');
    const text = stringValue(to?.value);
    const id = idEntry === undefined ? undefined : idValue(idEntry.value);
    if (to === undefined || text === undefined || idEntry === undefined || id === undefined) return;
    const toRange = rangeOf(ctx, to.value);
    if (id === 'invalid') {
      report(ctx, childPointer(pointer, 'id'), 'id-format', 'import id is not an id as written; write ids as quoted strings', rangeOf(ctx, idEntry.value));
      return;
    }
    const parsed = parseAddress(text, toRange);
    for (const d of parsed.diagnostics) report(ctx, childPointer(pointer, 'to'), d.code, d.message, toRange);
    if (parsed.value === undefined) return;
    const resource = findResource(ctx, parsed.value);
    if (resource === undefined) {
      report(ctx, childPointer(pointer, 'to'), 'unknown-reference', `import: ${unknownAddress(ctx, formatAddress(parsed.value))}`, toRange);
      return;
    }
    const address = formatAddress(resource.address);
    const earlier = resource.attributeSources['import'];
    if (resource.importId !== undefined && earlier !== undefined) {
      report(ctx, childPointer(pointer, 'to'), 'import-conflict', `${address} is already bound to id ${resource.importId}`, toRange, [{ message: 'bound here', range: earlier }]);
      return;
    }
    const idKey = `${resource.kind}\u0000${id}`;
    const other = boundIds.get(idKey);
    const otherRange = other?.attributeSources['import'];
    if (other !== undefined && otherRange !== undefined) {
      report(ctx, childPointer(pointer, 'id'), 'duplicate-import', `id ${id} is already bound to ${formatAddress(other.address)}; one object can back one resource`, rangeOf(ctx, idEntry.value), [
        { message: 'bound here', range: otherRange },
      ]);
      return;
    }
    resource.importId = id;
    resource.attributeSources['import'] = rangeOf(ctx, item);
    boundIds.set(idKey, resource);
  });
}

function edgesOf(resource: DesiredResource): string[] {
  const targets = [...Object.values(resource.references), ...resource.dependsOn];
  if (resource.parent !== undefined) targets.push(resource.parent);
  return targets.map(formatAddress);
}

/**
 * Reports every dependency cycle once, at the first `depends_on` entry (in file order) that is
 * part of it, naming the whole cycle and pointing at the other entries that close it.
 */
export function checkCycles(ctx: FileContext): void {
  if (ctx.dependencies.length === 0) return;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const edges = new Map(ctx.resources.map((r) => [formatAddress(r.address), edgesOf(r).filter((t) => ctx.byAddress.has(t))]));
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const targets = edges.get(frame.node) ?? [];
      const target = targets[frame.next++];
      if (target !== undefined) {
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
          onStack.delete(member);
          component.push(member);
          if (member === frame.node) break;
        }
        const selfLoop = component.length === 1 && (edges.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  for (const component of components) reportCycle(ctx, new Set(component), edges);
}

function reportCycle(ctx: FileContext, members: ReadonlySet<string>, edges: ReadonlyMap<string, string[]>): void {
  const inCycle = ctx.dependencies
    .filter((d) => members.has(formatAddress(d.resource.address)) && members.has(formatAddress(d.address)))
    .sort((a, b) => a.range.start.offset - b.range.start.offset);
  const first = inCycle[0];
  if (first === undefined) return;
  const from = formatAddress(first.resource.address);
  const to = formatAddress(first.address);
  const previous = new Map<string, string>([[to, to]]);
  const queue = [to];
  while (queue.length > 0 && !previous.has(from)) {
    const node = queue.shift() ?? '';
    for (const next of edges.get(node) ?? []) {
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  const chain: string[] = [];
  for (let node: string | undefined = from; node !== undefined && node !== to; node = previous.get(node)) chain.push(node);
  chain.push(to);
  const cycle = from === to ? [from, from] : [from, ...chain.reverse()];
  const related = inCycle.slice(1).map((d) => ({ message: `${formatAddress(d.resource.address)} depends on ${formatAddress(d.address)} here`, range: d.range }));
  report(ctx, first.pointer, 'dependency-cycle', `dependency cycle: ${cycle.join(' → ')}`, first.range, related);
}
