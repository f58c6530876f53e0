/**
 * `adsctl generate`'s stage: manifests written from whole live accounts (src/live/whole-account.ts),
 * in the idiom of docs/manifest.md, driven by the kind descriptors (src/kinds/) the other way
 * round from the manifest stage: it walks the registry as src/manifest/resolve.ts reads it, each
 * collection by its kind's address shape, and writes each kind as its descriptor's `generate`
 * says (src/kinds/write-back.ts). Logical names come from the objects' names
 * (src/generate/slug.ts), references by logical name, money in currency units, times in UTC, only
 * the fields that differ from the service's defaults, children nested under their parents. What
 * cannot be rebuilt from live data is written as a reference to the live object, with a comment: a
 * media library item by its id, an audience without its members. Posts are those a manifest could
 * have made: the promoted-only posts, drafts and not yet published scheduled posts of the
 * account's FULL promotable user (the descriptors' `whole` readers read no others), promotions of
 * them by `posts.NAME`. Records a manifest cannot hold and kinds that could not be read are said
 * so in the file and as a warning, never left out silently. Pure: live data in, text and the state
 * bindings out.
 */
import type { KindDescriptor } from '../kinds/descriptor.js';
import type { ResourceKind } from '../kinds/kind.js';
import { CHILD_ORDER, COLLECTIONS, DESCRIPTORS, KINDS, ROOT_KIND } from '../kinds/registry.js';
import { liveTargetingKey } from '../kinds/targeting-identity.js';
import { firstText, type WriteBack, type WrittenEntry as Entry, type WrittenNode as Node } from '../kinds/write-back.js';
import type { LiveAccount, LiveResource } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { AddressStep } from '../manifest/types.js';
import { manifestTakesScalar } from './accepted.js';
import { manifestFieldsOf } from './fields.js';
import { manifestText } from './manifest-text.js';
import { uniqueKeys } from './slug.js';

/** One account to write. */
export interface GenerateInput {
  live: LiveAccount;
  /** Kinds that could not be read whole. */
  unread: readonly ResourceKind[];
  /** The `endpoint:` the manifest names. */
  endpoint: string;
  /** The manifest schema, relative to the manifest (the editor modeline). */
  schemaPath: string;
  /** When the account was read (UTC). */
  readAt: Date;
  /**
   * The keys objects already have in a manifest, by `kind:id` (`generate --merge`): they are
   * generated under those keys, so that references to them read as that manifest writes them.
   */
  fixedKeys?: ReadonlyMap<string, string>;
}

/** The live object an address of a generated manifest is bound to. */
export interface GeneratedBinding {
  address: string;
  steps: AddressStep[];
  kind: ResourceKind;
  id: string;
}

/** A generated manifest. */
export interface GeneratedManifest {
  accountId: string;
  /** `<account id>.yaml`. */
  fileName: string;
  text: string;
  bindings: GeneratedBinding[];
  /** Objects the manifest does not hold, and names made unique, in words. */
  warnings: string[];
}

/** The kinds generate reads from a live account: those whose descriptors say how they are written back. */
export const GENERATE_READS: ReadonlySet<ResourceKind> = new Set(DESCRIPTORS.filter((d) => d.generate !== undefined).map((d) => d.kind));

/** What the writing of one account gathers as it walks: bindings, warnings, the footer, logical names, comments on keys. */
interface Run {
  input: GenerateInput;
  live: LiveAccount;
  accountId: string;
  bindings: GeneratedBinding[];
  warnings: string[];
  footer: string[];
  /** The logical names of the top-level collections written so far, by live id: what later references are written as. */
  names: Map<string, Map<string, string>>;
  /** Why an object's key is not its plain slug, by `kind:id`. */
  comments: Map<string, string>;
}

const records = (live: LiveAccount, kind: ResourceKind): LiveResource[] => [...(live.resources.get(kind)?.values() ?? [])];

/** The indexes `childrenOf` built, per account: kind and parent field → parent id → records. */
const childIndexes = new WeakMap<LiveAccount, Map<string, Map<string, LiveResource[]>>>();

/**
 * The records of `kind` whose `field` holds `parentId`, from an index built once per account,
 * kind and field: a scan per parent would take time in the product of parents and children
 * (20,000 line items × 60,000 criteria on a large account).
 */
function childrenOf(live: LiveAccount, kind: ResourceKind, field: string, parentId: string): LiveResource[] {
  let indexes = childIndexes.get(live);
  if (indexes === undefined) childIndexes.set(live, (indexes = new Map()));
  const name = `${kind}\u0000${field}`;
  let index = indexes.get(name);
  if (index === undefined) {
    index = new Map();
    for (const r of records(live, kind)) {
      const parent = String(r.record[field]);
      const list = index.get(parent);
      if (list === undefined) index.set(parent, [r]);
      else list.push(r);
    }
    indexes.set(name, index);
  }
  return index.get(parentId) ?? [];
}

/** Keys in code-unit order. */
const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** What an object's logical name is made from: its write-back's `nameOf`, else its name. */
const nameOf = (spec: WriteBack, r: LiveResource): string | undefined => (spec.nameOf ?? firstText('name'))(r.record);

/** Binds the address of `steps` to the live object `id`. */
function bind(run: Run, kind: ResourceKind, steps: AddressStep[], id: string): void {
  run.bindings.push({ address: formatAddress({ kind, steps }), steps, kind, id });
}

/** The comment an object's key gets when it is not its plain slug. */
function comment(run: Run, r: LiveResource): { comment?: string } {
  const text = run.comments.get(`${r.kind}:${r.id}`);
  return text === undefined ? {} : { comment: text };
}

/** The records of `d` the manifest holds: those its `leftOut` says one by one it cannot hold are said so here. */
function writable(run: Run, d: KindDescriptor, spec: WriteBack, all: LiveResource[]): LiveResource[] {
  const leftOut = spec.leftOut;
  if (leftOut === undefined) return all;
  if ('together' in leftOut) return all.filter((r) => !leftOut.together.holds(r.record));
  return all.filter((r) => {
    const why = leftOut.each(r.record);
    if (why === undefined) return true;
    run.footer.push(`${d.noun} ${r.id} (${JSON.stringify(nameOf(spec, r) ?? '')}) is not in this manifest: ${why}`);
    run.warnings.push(`${d.noun} ${r.id} is not in the manifest: ${why}`);
    return false;
  });
}

/** The records of `d` its `leftOut` names together, said after the collection is written. */
function reportTogether(run: Run, d: KindDescriptor, spec: WriteBack, all: LiveResource[]): void {
  const leftOut = spec.leftOut;
  if (leftOut === undefined || !('together' in leftOut)) return;
  const { holds, what, why } = leftOut.together;
  const left = all.filter((r) => holds(r.record));
  if (left.length === 0) return;
  run.footer.push(`${d.noun}s: ${left.length} ${what} (${left.map((r) => r.id).sort().join(', ')}) are not in this manifest: ${why}`);
  run.warnings.push(`${left.length} ${d.noun}(s) of account ${run.accountId} ${what} are not in the manifest`);
}

/** Unique logical names for `objects` of `d` in the collection `collectionKey`; a name made unique gets a comment and a warning. */
function keysFor(run: Run, d: KindDescriptor, spec: WriteBack, objects: LiveResource[], collectionKey: string): Map<string, string> {
  const fixed = new Map(objects.flatMap((r) => {
    const key = run.input.fixedKeys?.get(`${d.kind}:${r.id}`);
    return key === undefined ? [] : [[r.id, key] as const];
  }));
  const keys = uniqueKeys(objects.map((r) => ({ id: r.id, name: nameOf(spec, r) })), (id) => `${d.kind}_${id.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase()}`, fixed);
  const out = new Map<string, string>();
  for (const [id, given] of keys) {
    out.set(id, given.key);
    if (given.collidesWith !== undefined) {
      const text = `named like ${collectionKey}.${given.collidesWith} (${JSON.stringify(nameOf(spec, objects.find((o) => o.id === id) as LiveResource) ?? '')}): given the key ${given.key}`;
      run.comments.set(`${d.kind}:${id}`, text);
      run.warnings.push(`${d.noun} ${id} is ${text}`);
    }
  }
  return out;
}

/** The fields of an object's entry written as values: its id (`byId`), the fields its descriptor compares, those it writes right after the name. */
function entryFields(run: Run, d: KindDescriptor, spec: WriteBack, record: Readonly<Record<string, unknown>>, id: string): Array<[string, unknown]> {
  const skip = new Set([...(spec.own?.fields ?? []), ...Object.keys(spec.never ?? {})]);
  const fields = d.readOnlyWhenImported === true ? [] : manifestFieldsOf(d, record, run.names, skip);
  const leading = (spec.leading ?? []).map((f): [string, unknown] => [f, record[f]]);
  const [first, ...rest] = fields;
  const ordered = first?.[0] === 'name' ? [first, ...leading, ...rest] : [...leading, ...fields];
  return spec.byId === true ? [['id', id], ...ordered] : ordered;
}

/** An object's entry: on one line, or a block map of its fields, those it writes itself and its child collections. */
function entryValue(run: Run, d: KindDescriptor, spec: WriteBack, r: LiveResource, steps: AddressStep[]): Node {
  const fields = entryFields(run, d, spec, r.record, r.id);
  if (spec.oneLine === true) return { flow: fields };
  const entries: Entry[] = fields.map(([key, value]) => ({ key, value: { scalar: value } }));
  return { map: [...entries, ...(spec.own?.write(r.record, run.names) ?? []), ...collectionsUnder(run, d, steps, r.id)] };
}

/** A map of logical names (`campaigns`, a campaign's `line_items`). */
function namedCollection(run: Run, d: KindDescriptor, spec: WriteBack, all: LiveResource[], parent: KindDescriptor, steps: AddressStep[]): Entry | undefined {
  const collection = d.address.collection;
  const objects = writable(run, d, spec, all);
  const keys = keysFor(run, d, spec, objects, steps.length === 0 ? collection : `${formatAddress({ kind: parent.kind, steps })}.${collection}`);
  if (parent === ROOT_KIND) run.names.set(collection, keys);
  const entries = [...objects].sort((a, b) => byKey(keys.get(a.id) ?? '', keys.get(b.id) ?? '')).map((r): Entry => {
    const key = keys.get(r.id) ?? r.id;
    const at = [...steps, { collection, key }];
    bind(run, d.kind, at, r.id);
    return { key, value: entryValue(run, d, spec, r, at), ...comment(run, r) };
  });
  reportTogether(run, d, spec, all);
  return entries.length === 0 ? undefined : { key: collection, ...(spec.comment === undefined ? {} : { comment: spec.comment }), value: { map: entries } };
}

/**
 * The target a list item names by logical name (a criterion's audience, `targetNamed`): the field
 * that holds its id, the manifest field that names it, and its address as the item's key writes it.
 */
function namedTarget(run: Run, d: KindDescriptor, spec: WriteBack, record: Readonly<Record<string, unknown>>): { field: string; by: string; name: string; key: string } | undefined {
  const target = d.targets?.(record);
  if (target === undefined || spec.targetNamed === undefined) return undefined;
  const collection = KINDS[target.kind].address.collection;
  const name = run.names.get(collection)?.get(String(record[target.field]));
  return name === undefined ? undefined : { field: target.field, by: spec.targetNamed, name, key: `${collection}.${name}` };
}

/** A list item of `d`: its key in the address, and how it is written (the bare id when nothing else is and the schema takes one). */
function listItem(run: Run, d: KindDescriptor, spec: WriteBack, r: LiveResource): { key: string; id: string; node: Node } | undefined {
  const shape = d.address;
  if (shape.key === 'targeting') {
    const fields = manifestFieldsOf(d, r.record, run.names);
    const target = namedTarget(run, d, spec, r.record);
    const key = liveTargetingKey(r.record, target?.key);
    if (key === undefined) return undefined;
    return { key, id: r.id, node: { flow: target === undefined ? fields : fields.map(([k, v]): [string, unknown] => (k === target.field ? [target.by, target.name] : [k, v])) } };
  }
  if (shape.key !== 'value') return undefined;
  const field = shape.field;
  const named = spec.itemNamed === undefined ? undefined : run.names.get(spec.itemNamed)?.get(String(r.record[field]));
  if (named !== undefined) return { key: `${spec.itemNamed}.${named}`, id: r.id, node: { scalar: `${spec.itemNamed}.${named}` } };
  const key = String(r.record[field]);
  const rest = manifestFieldsOf(d, r.record, run.names, new Set([field]));
  return { key, id: r.id, node: rest.length === 0 && manifestTakesScalar(d.manifest.def) ? { scalar: key } : { flow: [[field, key], ...rest] } };
}

/** A list keyed by what identifies its items (targeting, promoted posts), in the order of their keys. */
function listCollection(run: Run, d: KindDescriptor, spec: WriteBack, all: LiveResource[], steps: AddressStep[]): Entry | undefined {
  const written = all.flatMap((r) => listItem(run, d, spec, r) ?? []).sort((a, b) => byKey(a.key, b.key));
  if (written.length === 0) return undefined;
  for (const w of written) bind(run, d.kind, [...steps, { collection: d.address.collection, key: w.key }], w.id);
  return { key: d.address.collection, value: { list: written.map((w) => w.node) } };
}

/** A map of `<key>: <value>` entries (an audience's permissions), in the order of their keys. */
function mapEntries(run: Run, d: KindDescriptor, valueField: string, all: LiveResource[], steps: AddressStep[]): Entry | undefined {
  const shape = d.address;
  if (shape.key !== 'value' || all.length === 0) return undefined;
  const keyed = all.map((r) => ({ key: String(r.record[shape.field]), r })).sort((a, b) => byKey(a.key, b.key));
  for (const { key, r } of keyed) bind(run, d.kind, [...steps, { collection: d.address.collection, key }], r.id);
  return { key: d.address.collection, value: { map: keyed.map(({ key, r }) => ({ key, value: { scalar: r.record[valueField] } })) } };
}

/** The one object of a `single` collection (the do-not-reach list). */
function singleEntry(run: Run, d: KindDescriptor, spec: WriteBack, all: LiveResource[], steps: AddressStep[]): Entry | undefined {
  const r = all[0];
  if (r === undefined) return undefined;
  const at = [...steps, { collection: d.address.collection, key: '' }];
  bind(run, d.kind, at, r.id);
  return { key: d.address.collection, ...(spec.comment === undefined ? {} : { comment: spec.comment }), value: entryValue(run, d, spec, r, at) };
}

/** The feature list: the keys the account has, in order. */
function featureList(run: Run, d: KindDescriptor, all: LiveResource[], steps: AddressStep[]): Entry | undefined {
  const keys = all.map((f) => f.id).sort();
  if (keys.length === 0) return undefined;
  for (const key of keys) bind(run, d.kind, [...steps, { collection: d.address.collection, key }], key);
  return { key: d.address.collection, value: { scalar: keys } };
}

/**
 * The collections under the object at `steps` (the account: the file's sections), in the order
 * the manifest reads them (those its `generate.children` names first), each kind written as its
 * address shape says; a kind without a write-back is not written (test/kinds/kind-places.test.ts
 * names each, with why).
 */
function collectionsUnder(run: Run, parent: KindDescriptor, steps: AddressStep[], parentId: string): Entry[] {
  const out: Entry[] = [];
  const kinds = COLLECTIONS.get(parent.kind);
  const read = CHILD_ORDER.get(parent.kind) ?? [];
  const first = parent.generate?.children ?? [];
  for (const collection of [...first, ...read.filter((c) => !first.includes(c))]) {
    const kind = kinds?.get(collection);
    const d = kind === undefined ? undefined : KINDS[kind];
    const spec = d?.generate;
    if (d === undefined || spec === undefined) continue;
    const all = parent === ROOT_KIND ? records(run.live, d.kind) : childrenOf(run.live, d.kind, d.parentField ?? '', parentId);
    const entries = d.manifest.entries;
    let entry: Entry | undefined;
    switch (d.address.key) {
      case 'name':
        entry = namedCollection(run, d, spec, all, parent, steps);
        break;
      case 'single':
        entry = singleEntry(run, d, spec, all, steps);
        break;
      case 'feature':
        entry = featureList(run, d, all, steps);
        break;
      case 'value':
      case 'targeting':
        entry = entries?.form === 'map' ? mapEntries(run, d, entries.valueField, all, steps) : listCollection(run, d, spec, all, steps);
        break;
      case 'root':
        break;
    }
    if (entry !== undefined) out.push(entry);
  }
  return out;
}

/** Writes the manifest of one account: the account's own entry, then every section under it. */
function generateAccount(input: GenerateInput): GeneratedManifest {
  const { live } = input;
  const accountId = live.accountId ?? live.account;
  const run: Run = { input, live, accountId, bindings: [], warnings: [], footer: [], names: new Map(), comments: new Map() };
  bind(run, ROOT_KIND.kind, [], accountId);
  const account = records(live, ROOT_KIND.kind)[0];
  // the account always by its id: the manifest binds it by `account.id`
  const fields = entryFields(run, ROOT_KIND, { ...ROOT_KIND.generate, byId: true }, account?.record ?? {}, accountId);
  const root: Entry[] = [
    { key: 'version', value: { scalar: 1 } },
    { key: 'endpoint', value: { scalar: input.endpoint } },
    { key: ROOT_KIND.kind, value: { map: fields.map(([key, value]) => ({ key, value: { scalar: value } })) } },
    ...collectionsUnder(run, ROOT_KIND, [], accountId),
  ];
  // a kind generate writes but could not read is said so: never left out silently
  for (const d of DESCRIPTORS) {
    if (d.generate === undefined || !input.unread.includes(d.kind)) continue;
    run.footer.push(`${d.address.collection}: not read by adsctl generate yet; any ${d.noun}s of the account are not in this manifest`);
    run.warnings.push(`${d.noun}s are not generated yet: any in account ${accountId} are not in the manifest`);
  }
  const header = [
    `yaml-language-server: $schema=${input.schemaPath}`,
    '',
    `Generated by adsctl generate from account ${accountId} at ${input.endpoint} on ${input.readAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}.`,
    'Logical names are made from the objects\' names; the state binds each to its live object.',
  ];
  return { accountId, fileName: `${accountId}.yaml`, text: manifestText(header, root, run.footer), bindings: run.bindings, warnings: run.warnings };
}

/** The manifests of `accounts`, one each. */
export function generateManifests(accounts: readonly GenerateInput[]): GeneratedManifest[] {
  return accounts.map(generateAccount);
}
