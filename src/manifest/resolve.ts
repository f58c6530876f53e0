/**
 * One manifest file's tree → its account's resources, in the order the registry reads the
 * collections (src/kinds/registry.ts, `CHILD_ORDER`). Maps of logical names give map-keyed
 * addresses; lists are keyed by the identity the API gives their items, or by what an item names
 * (the kind's `identity`), and a second item with the same key is an error. Each entry's fields
 * are read by its descriptor (attributes.ts), then by the kind's own reader (`read`), which reads
 * through an `EntryContext` (entry-context.ts): this file names no kind and no kind's field.
 */
import { quoteValue } from '../diag/quote.js';
import { ACCOUNT_ADDRESS, childAddress, formatAddress } from './address.js';
import { readFields } from './attributes.js';
import { findResource, rangeOf, report, sourceOf, type FileContext } from './context.js';
import type { KindDescriptor } from '../kinds/descriptor.js';
import type { EntryContext } from '../kinds/manifest-reading.js';
import { CHILD_ORDER, COLLECTIONS, KINDS, ROOT_KIND } from '../kinds/registry.js';
import { entryContext } from './entry-context.js';
import { asMap, asScalar, asSeq, childPointer, idValue, stringValue } from './nodes.js';
import type { DesiredResource, Lifecycle, ResourceAddress } from './types.js';
import type { YMap } from './yaml-tree.js';

/** The context each file's entries are read through by their kinds' own readers, made once per file. */
const readerContexts = new WeakMap<FileContext, EntryContext>();

function readerContext(ctx: FileContext): EntryContext {
  let made = readerContexts.get(ctx);
  if (made === undefined) {
    made = entryContext(ctx);
    readerContexts.set(ctx, made);
  }
  return made;
}

/** What a resource without `depends_on` or `lifecycle` entries has: one of each for all of them. */
const NO_DEPENDENCIES: readonly ResourceAddress[] = Object.freeze([]);
const DEFAULT_LIFECYCLE: Lifecycle = Object.freeze({ preventDestroy: false, ignoreChanges: Object.freeze([]) });

function addResource(
  ctx: FileContext,
  address: ResourceAddress,
  parent: ResourceAddress | undefined,
  start: number,
  end: number,
  pointer: string,
): DesiredResource | undefined {
  const source = ctx.doc.compactRange(start, end);
  const existing = findResource(ctx, address);
  if (existing !== undefined) {
    const what = address.kind.replace(/_/g, ' ');
    report(ctx, pointer, KINDS[address.kind].manifest.duplicate ?? 'duplicate-entry', `${formatAddress(address)} is listed twice; list each ${what} once`, source, [
      { message: 'first listed here', range: existing.source },
    ]);
    return undefined;
  }
  const resource: DesiredResource = {
    address,
    kind: address.kind,
    attributes: {},
    references: {},
    ...(parent === undefined ? {} : { parent }),
    dependsOn: NO_DEPENDENCIES,
    lifecycle: DEFAULT_LIFECYCLE,
    source,
    attributeSources: {},
  };
  ctx.resources.push(resource);
  ctx.byAddress.set(formatAddress(address), resource);
  return resource;
}

function sandboxOnly(ctx: FileContext, pointer: string, node: { start: number; end: number }, message: string): void {
  if (ctx.endpoint === 'production') report(ctx, pointer, 'sandbox-only', message, ctx.doc.range(node.start, node.end));
}

/** Binds a resource to the existing object its `id` field names; true when it has one. */
function bindId(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string): boolean {
  const id = map.byKey.get('id');
  if (id === undefined) return false;
  const value = idValue(id.value);
  if (value === 'invalid') {
    report(ctx, childPointer(pointer, 'id'), 'id-format', `id ${ctx.doc.text.slice(id.value.start, id.value.end)} is not an id as written; write ids as quoted strings`, rangeOf(ctx, id.value));
  } else if (value !== undefined) {
    resource.importId = value;
    resource.namedById = true;
    resource.attributeSources['import'] = rangeOf(ctx, id.value);
  }
  return true;
}

/** The kind's own reader of the fields it reads itself, if it has one (`ManifestFields.read`). */
function runReader(ctx: FileContext, d: KindDescriptor, resource: DesiredResource, map: YMap, pointer: string): void {
  d.manifest.read?.(readerContext(ctx), resource, map, pointer);
}

function resolveRoot(ctx: FileContext, root: YMap): DesiredResource | undefined {
  const section = ROOT_KIND.kind;
  const entry = root.byKey.get(section);
  const start = entry?.keyStart ?? root.start;
  const end = entry?.value.end ?? root.start;
  const account = addResource(ctx, ACCOUNT_ADDRESS, undefined, start, end, `/${section}`);
  const map = asMap(entry?.value);
  if (account === undefined) return undefined;
  const hasId = map !== undefined && bindId(ctx, account, map, `/${section}`);
  if (map !== undefined) readFields(ctx, account, ROOT_KIND, map, `/${section}`);
  if (!hasId) {
    sandboxOnly(ctx, `/${section}`, { start, end: entry?.keyEnd ?? start }, `with endpoint production the ${ROOT_KIND.noun} must already exist: give ${section}.id (adsctl creates ${ROOT_KIND.noun}s only in sandbox and local)`);
  }
  return account;
}

/** A kind made only in the sandbox, named in a map: bound to an existing object by `id`, else the fields a create needs. */
function resolveSandboxEntry(ctx: FileContext, d: KindDescriptor, resource: DesiredResource, map: YMap, pointer: string, keyStart: number, keyEnd: number): void {
  if (bindId(ctx, resource, map, pointer)) return;
  const name = resource.address.steps.at(-1)?.key ?? '';
  const missing = d.attributes.filter((a) => a.requiredOnCreate === true && !map.byKey.has(a.field)).map((a) => a.field);
  const keyRange = ctx.doc.range(keyStart, keyEnd);
  if (missing.length > 0) {
    const fields = missing.length === 1 ? (missing[0] ?? '') : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1) ?? ''}`;
    report(ctx, pointer, 'missing-field', `${d.noun} ${quoteValue(name)} needs id (an existing ${d.noun.split(' ').at(-1) ?? ''}), or ${fields} to create one in sandbox or local`, keyRange);
  }
  sandboxOnly(ctx, pointer, { start: keyStart, end: keyEnd }, `with endpoint production ${d.noun} ${quoteValue(name)} must already exist: give its id`);
}

/** A reference a create needs (a campaign's funding instrument): by logical name or by id, one of them. */
function checkRequiredReferences(ctx: FileContext, d: KindDescriptor, resource: DesiredResource, map: YMap, pointer: string, keyStart: number, keyEnd: number): void {
  for (const [name, ref] of Object.entries(d.manifest.refs)) {
    if (ref.field === d.parentField || d.attributes.find((a) => a.field === ref.field)?.requiredOnCreate !== true) continue;
    if (map.byKey.has(name) || map.byKey.has(ref.field)) continue;
    report(ctx, pointer, 'missing-field', `${d.noun} ${quoteValue(resource.address.steps.at(-1)?.key ?? '')} needs ${name} (a name under ${ref.collection}) or ${ref.field}`, ctx.doc.range(keyStart, keyEnd));
  }
}

/** The entries of a map of logical names. */
function resolveNamed(ctx: FileContext, d: KindDescriptor, parentMap: YMap, collection: string, parent: DesiredResource, pointer: string): void {
  const map = asMap(parentMap.byKey.get(collection)?.value);
  if (map === undefined) return;
  for (const entry of map.entries) {
    const at = childPointer(childPointer(pointer, collection), entry.key);
    const value = asMap(entry.value);
    if (value === undefined || entry.key.length === 0) continue;
    const end = entry.value.start >= entry.keyEnd ? entry.value.end : entry.keyEnd;
    const resource = addResource(ctx, childAddress(parent.address, collection, entry.key), parent.address, entry.keyStart, end, at);
    if (resource === undefined) continue;
    readFields(ctx, resource, d, value, at);
    if (d.parentField !== undefined) resource.references[d.parentField] = parent.address;
    if (d.sandboxOnly && d.manifest.special.includes('id')) resolveSandboxEntry(ctx, d, resource, value, at, entry.keyStart, entry.keyEnd);
    checkRequiredReferences(ctx, d, resource, value, at, entry.keyStart, entry.keyEnd);
    runReader(ctx, d, resource, value, at);
    resolveChildren(ctx, resource, value, at);
  }
}

/** The one resource of a `single` collection. */
function resolveSingle(ctx: FileContext, d: KindDescriptor, parentMap: YMap, collection: string, parent: DesiredResource, pointer: string): void {
  const entry = parentMap.byKey.get(collection);
  const map = asMap(entry?.value);
  if (entry === undefined || map === undefined) return;
  const at = childPointer(pointer, collection);
  const resource = addResource(ctx, childAddress(parent.address, collection, ''), parent.address, entry.keyStart, entry.value.end, at);
  if (resource === undefined) return;
  if (d.parentField !== undefined) resource.references[d.parentField] = parent.address;
  readFields(ctx, resource, d, map, at);
  runReader(ctx, d, resource, map, at);
  resolveChildren(ctx, resource, map, at);
}

/** The entries `<key>: <value>` of a map, one resource each (an audience's permissions). */
function resolveMapEntries(ctx: FileContext, d: KindDescriptor, valueField: string, parentMap: YMap, collection: string, parent: DesiredResource, pointer: string): void {
  const shape = d.address;
  const map = asMap(parentMap.byKey.get(collection)?.value);
  if (map === undefined || shape.key !== 'value') return;
  for (const entry of map.entries) {
    const value = asScalar(entry.value)?.value;
    if (typeof value !== 'string') continue;
    const at = childPointer(childPointer(pointer, collection), entry.key);
    const resource = addResource(ctx, childAddress(parent.address, collection, entry.key), parent.address, entry.keyStart, entry.value.end, at);
    if (resource === undefined) continue;
    if (d.parentField !== undefined) resource.references[d.parentField] = parent.address;
    resource.attributes[shape.field] = entry.key;
    resource.attributeSources[shape.field] = ctx.doc.compactRange(entry.keyStart, entry.keyEnd);
    resource.attributes[valueField] = value;
    resource.attributeSources[valueField] = sourceOf(ctx, entry.value);
  }
}

/** A list of features, each its key or a map with it. */
function resolveFeatures(ctx: FileContext, d: KindDescriptor, parentMap: YMap, collection: string, parent: DesiredResource, pointer: string): void {
  const section = parentMap.byKey.get(collection);
  if (section === undefined) return;
  const field = d.manifest.special[0] ?? '';
  const at = childPointer(pointer, collection);
  if (d.sandboxOnly) sandboxOnly(ctx, at, { start: section.keyStart, end: section.keyEnd }, `${d.noun}s can be added and removed only in sandbox and local, not with endpoint production`);
  asSeq(section.value)?.items.forEach((item, i) => {
    const itemPointer = childPointer(at, i);
    const map = asMap(item);
    const key = map === undefined ? stringValue(item) : stringValue(map.byKey.get(field)?.value);
    if (key === undefined) return;
    const feature = addResource(ctx, childAddress(parent.address, collection, key), parent.address, item.start, item.end, itemPointer);
    if (feature === undefined) return;
    feature.attributes[field] = key;
    feature.attributeSources[field] = sourceOf(ctx, map?.byKey.get(field)?.value ?? item);
    if (map !== undefined) readFields(ctx, feature, d, map, itemPointer);
  });
}

/** A list keyed by the identity the API gives its items (targeting, promoted posts, ...), or by what an item names (the kind's `identity`). */
function resolveItems(ctx: FileContext, d: KindDescriptor, parentMap: YMap, collection: string, parent: DesiredResource, pointer: string): void {
  const shape = d.address;
  const seq = asSeq(parentMap.byKey.get(collection)?.value);
  if (seq === undefined) return;
  seq.items.forEach((item, i) => {
    const at = childPointer(childPointer(pointer, collection), i);
    const itemMap = asMap(item);
    let key: string | undefined;
    let target: { field: string; address: ResourceAddress } | undefined;
    const identity = d.manifest.identity?.(readerContext(ctx), item, at) ?? 'default';
    if (identity !== 'default') {
      key = identity?.key;
      // the addresses a reader hands back are the manifest stage's own (EntryContext.reference)
      if (identity?.target !== undefined) target = { field: identity.target.field, address: identity.target.address as ResourceAddress };
    } else if (shape.key === 'value') {
      const idNode = itemMap === undefined ? item : itemMap.byKey.get(shape.field)?.value;
      const id = idNode === undefined ? undefined : idValue(idNode);
      if (id === 'invalid' && idNode !== undefined) report(ctx, at, 'id-format', `${shape.field} ${quoteValue(ctx.doc.text.slice(idNode.start, idNode.end))} is not an id as written; write ids as quoted strings`, rangeOf(ctx, idNode));
      key = id === 'invalid' ? undefined : id;
    }
    if (key === undefined) return;
    const child = addResource(ctx, childAddress(parent.address, collection, key), parent.address, item.start, item.end, at);
    if (child === undefined) return;
    if (d.parentField !== undefined) child.references[d.parentField] = parent.address;
    if (target !== undefined) {
      child.attributes[target.field] = { $target: target.address };
      child.references[target.field] = target.address;
      child.attributeSources[target.field] = sourceOf(ctx, item);
    }
    if (itemMap !== undefined) {
      readFields(ctx, child, d, itemMap, at);
      runReader(ctx, d, child, itemMap, at);
    } else if (target === undefined) {
      const field = d.manifest.ids[0] ?? 'id';
      child.attributes[field] = key;
      child.attributeSources[field] = sourceOf(ctx, item);
    }
  });
}

/** Every collection under `parent`, in the order its kind reads them (src/kinds/registry.ts, `CHILD_ORDER`). */
function resolveChildren(ctx: FileContext, parent: DesiredResource, map: YMap, pointer: string): void {
  const kinds = COLLECTIONS.get(parent.kind);
  for (const collection of CHILD_ORDER.get(parent.kind) ?? []) {
    const kind = kinds?.get(collection);
    if (kind === undefined) continue;
    const d = KINDS[kind];
    const entries = d.manifest.entries;
    switch (d.address.key) {
      case 'name':
        resolveNamed(ctx, d, map, collection, parent, pointer);
        break;
      case 'single':
        resolveSingle(ctx, d, map, collection, parent, pointer);
        break;
      case 'feature':
        resolveFeatures(ctx, d, map, collection, parent, pointer);
        break;
      case 'value':
      case 'targeting':
        if (entries?.form === 'map') resolveMapEntries(ctx, d, entries.valueField, map, collection, parent, pointer);
        else resolveItems(ctx, d, map, collection, parent, pointer);
        break;
      case 'root':
        break;
    }
  }
}

/** Builds every resource the file's root map declares, in the order the registry reads them, into `ctx`. */
export function resolveResources(ctx: FileContext, root: YMap): void {
  const account = resolveRoot(ctx, root);
  if (account === undefined) return;
  resolveChildren(ctx, account, root, '');
}
