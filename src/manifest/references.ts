/**
 * The checks that need every address of a file: explicit `depends_on` entries and `import`
 * entries name resources of the manifest ("did you mean" otherwise; an `import` entry whose
 * resource left the manifest is only a warning), an object may be
 * imported once, and the dependencies (parents, references, depends_on) must not form a cycle.
 */
import { warningAt } from '../diag/diagnostic.js';
import { quoteValue } from '../diag/quote.js';
import { didYouMean } from '../diag/suggest.js';
import { findCycles, shortestPath } from '../graph/graph.js';
import { formatAddress, parseAddress } from './address.js';
import { findResource, rangeOf, report, type FileContext } from './context.js';
import { asMap, asSeq, childPointer, idValue, stringValue } from './nodes.js';
import type { DesiredResource } from './types.js';
import type { YMap } from './yaml-tree.js';

function unknownAddress(ctx: FileContext, text: string): string {
  return `${quoteValue(text)} is not a resource of this manifest${didYouMean(text, ctx.byAddress.keys())}`;
}

/** Resolves the explicit `depends_on` entries collected while reading the resources. */
export function resolveDependencies(ctx: FileContext): void {
  for (const pending of ctx.dependencies) {
    const target = findResource(ctx, pending.address);
    const text = formatAddress(pending.address);
    if (target === undefined) {
      report(ctx, pending.pointer, 'unknown-reference', `depends_on: ${unknownAddress(ctx, text)}`, pending.range);
    } else if (!pending.resource.dependsOn.some((d) => formatAddress(d) === text)) {
      pending.resource.dependsOn = [...pending.resource.dependsOn, target.address];
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
      // an entry whose resource left the manifest binds nothing, and may stay: said, never refused
      ctx.diagnostics.push(warningAt('import-unused', `import binds nothing and is ignored: ${unknownAddress(ctx, formatAddress(parsed.value))}`, toRange));
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
    ctx.importEntries.push({ address: resource.address, id, source: rangeOf(ctx, item) });
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
  const edges = new Map(ctx.resources.map((r) => [formatAddress(r.address), edgesOf(r).filter((t) => ctx.byAddress.has(t))]));
  for (const component of findCycles([...edges].map(([id, dependsOn]) => ({ id, dependsOn })))) reportCycle(ctx, new Set(component), edges);
}

function reportCycle(ctx: FileContext, members: ReadonlySet<string>, edges: ReadonlyMap<string, string[]>): void {
  const inCycle = ctx.dependencies
    .filter((d) => members.has(formatAddress(d.resource.address)) && members.has(formatAddress(d.address)))
    .sort((a, b) => a.range.start.offset - b.range.start.offset);
  const first = inCycle[0];
  if (first === undefined) return;
  const from = formatAddress(first.resource.address);
  const to = formatAddress(first.address);
  const back = shortestPath(edges, to, from, members) ?? [to];
  const cycle = from === to ? [from, from] : [from, ...back];
  const related = inCycle.slice(1).map((d) => ({ message: `${formatAddress(d.resource.address)} depends on ${formatAddress(d.address)} here`, range: d.range }));
  report(ctx, first.pointer, 'dependency-cycle', `dependency cycle: ${cycle.join(' → ')}`, first.range, related);
}
