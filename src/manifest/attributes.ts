/**
 * Reads one resource's fields by its kind's descriptor (src/kinds/): attributes in API names, money in
 * micros, timestamps in UTC, ids exactly as written, references by logical name turned into
 * addresses, and the lifecycle and depends_on meta-arguments. Each problem is reported at the
 * value that causes it.
 */
import { quoteValue } from '../diag/quote.js';
import { didYouMean } from '../diag/suggest.js';
import { childAddress, ACCOUNT_ADDRESS, parseAddress } from './address.js';
import { report, rangeOf, sourceOf, type FileContext } from './context.js';
import type { KindDescriptor } from '../kinds/descriptor.js';
import { DESCRIPTORS, ignorableFields } from '../kinds/registry.js';
import { decimalToMicros } from './money.js';
import { asMap, asScalar, asSeq, childPointer, idValue, plainValue, stringValue } from './nodes.js';
import { normaliseTimestamp } from './time.js';
import type { DesiredResource } from './types.js';
import type { YMap, YNode } from './yaml-tree.js';
import { timestampProblem } from '../schema/timestamp-problem.js';

/** API micros fields that must be greater than zero (budgets and bids), from the descriptors. */
const POSITIVE_MICROS: ReadonlySet<string> = new Set(DESCRIPTORS.flatMap((d) => d.attributes.filter((a) => a.positive === true).map((a) => a.field)));

function readId(ctx: FileContext, node: YNode, pointer: string, label: string): string | undefined {
  const id = idValue(node);
  if (id === 'invalid') {
    report(ctx, pointer, 'id-format', `${label} ${asScalar(node)?.raw ?? ''} is not an id as written; write ids as quoted strings`, rangeOf(ctx, node));
    return undefined;
  }
  return id;
}

function readMoney(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string, short: string, api: string): void {
  const shortEntry = map.byKey.get(short);
  const apiEntry = map.byKey.get(api);
  if (shortEntry !== undefined && apiEntry !== undefined) {
    report(ctx, childPointer(pointer, short), 'money-conflict', `${short} and ${api} set the same amount; keep one`, rangeOf(ctx, shortEntry.value), [
      { message: `${api} is set here`, range: rangeOf(ctx, apiEntry.value) },
    ]);
    return;
  }
  const entry = shortEntry ?? apiEntry;
  const scalar = asScalar(entry?.value);
  if (entry === undefined || scalar === undefined) return;
  const at = childPointer(pointer, entry.key);
  let micros: number | undefined;
  if (entry === apiEntry) {
    if (typeof scalar.value !== 'number') return;
    if (!Number.isSafeInteger(scalar.value) || (/^[0-9]+$/.test(scalar.raw) && scalar.raw.replace(/^0+(?=\d)/, '') !== String(scalar.value))) {
      report(ctx, at, 'money-range', `${api} ${scalar.raw} is not a whole number of micros below 2^53`, rangeOf(ctx, scalar));
      return;
    }
    micros = scalar.value;
  } else {
    if (typeof scalar.value !== 'string' && typeof scalar.value !== 'number') return;
    const text = typeof scalar.value === 'string' ? scalar.value : scalar.raw;
    const parsed = decimalToMicros(text);
    if (!parsed.ok) {
      const messages = {
        format: `${short} ${quoteValue(text)} is not a decimal amount such as "50.00"`,
        precision: `${short} ${quoteValue(text)} has ${parsed.ok === false && parsed.problem === 'precision' ? parsed.decimals : 0} decimal places; at most 6 are allowed (1 micro = 0.000001)`,
        range: `${short} ${quoteValue(text)} is out of range (at most 9007199254.740991, not negative)`,
      };
      report(ctx, at, `money-${parsed.problem}`, messages[parsed.problem], rangeOf(ctx, scalar));
      return;
    }
    micros = parsed.micros;
  }
  if (micros === 0 && POSITIVE_MICROS.has(api)) {
    report(ctx, at, 'money-range', `${entry.key} must be greater than 0`, rangeOf(ctx, scalar));
    return;
  }
  resource.attributes[api] = micros;
  resource.attributeSources[api] = sourceOf(ctx, scalar);
}

function readReference(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string, name: string, field: string, collection: string): void {
  const entry = map.byKey.get(name);
  const logical = stringValue(entry?.value);
  if (entry === undefined || logical === undefined) return;
  const raw = map.byKey.get(field);
  const other = resource.references[field];
  if (other !== undefined && resource.attributeSources[field] !== undefined) {
    report(ctx, childPointer(pointer, name), 'reference-conflict', `${name} and another reference both fill ${field}; keep one`, rangeOf(ctx, entry.value), [{ message: 'the other is set here', range: resource.attributeSources[field] }]);
    return;
  }
  if (raw !== undefined) {
    report(ctx, childPointer(pointer, name), 'reference-conflict', `${name} and ${field} both say which ${collection.replace(/s$/, '').replace(/_/g, ' ')} to use; keep one`, rangeOf(ctx, entry.value), [
      { message: `${field} is set here`, range: rangeOf(ctx, raw.value) },
    ]);
    return;
  }
  const known = ctx.names.get(collection) ?? [];
  if (!known.includes(logical)) {
    const hint = didYouMean(logical, known);
    const where = known.length === 0 ? `this manifest has no ${collection}` : `it is not defined under ${collection}`;
    report(ctx, childPointer(pointer, name), 'unknown-reference', `${name} ${quoteValue(logical)} does not exist: ${where}${hint}`, rangeOf(ctx, entry.value));
    return;
  }
  resource.references[field] = childAddress(ACCOUNT_ADDRESS, collection, logical);
  resource.attributeSources[field] = sourceOf(ctx, entry.value);
}

function readLifecycle(ctx: FileContext, resource: DesiredResource, descriptor: KindDescriptor, node: YNode, pointer: string): void {
  const map = asMap(node);
  if (map === undefined) return;
  const prevent = map.byKey.get('prevent_destroy');
  if (prevent !== undefined && typeof asScalar(prevent.value)?.value === 'boolean') {
    resource.lifecycle = { ...resource.lifecycle, preventDestroy: asScalar(prevent.value)?.value === true };
    resource.attributeSources['lifecycle.prevent_destroy'] = sourceOf(ctx, prevent.value);
  }
  const ignore = map.byKey.get('ignore_changes');
  const items = asSeq(ignore?.value);
  if (ignore === undefined || items === undefined) return;
  resource.attributeSources['lifecycle.ignore_changes'] = sourceOf(ctx, ignore.value);
  const allowed = ignorableFields(descriptor);
  const ignored = [...resource.lifecycle.ignoreChanges];
  items.items.forEach((item, i) => {
    const name = stringValue(item);
    if (name === undefined) return;
    const field = allowed.get(name);
    if (field === undefined) {
      const what = descriptor.noun;
      const article = /^[aeiou]/.test(what) ? 'an' : 'a';
      const hint = allowed.size === 0 ? `; ${article} ${what} has no fields to ignore` : didYouMean(name, allowed.keys());
      report(ctx, childPointer(childPointer(pointer, 'ignore_changes'), i), 'unknown-attribute', `ignore_changes names ${quoteValue(name)}, which is not a field of ${article} ${what}${hint}`, rangeOf(ctx, item));
    } else if (!ignored.includes(field)) {
      ignored.push(field);
    }
  });
  resource.lifecycle = { ...resource.lifecycle, ignoreChanges: ignored };
}

function readDependsOn(ctx: FileContext, resource: DesiredResource, node: YNode, pointer: string): void {
  asSeq(node)?.items.forEach((item, i) => {
    const text = stringValue(item);
    if (text === undefined) return;
    const at = childPointer(pointer, i);
    const range = rangeOf(ctx, item);
    const parsed = parseAddress(text, range);
    for (const d of parsed.diagnostics) report(ctx, at, d.code, d.message, range);
    if (parsed.value === undefined) return;
    resource.attributeSources[`depends_on[${i}]`] = range;
    ctx.dependencies.push({ resource, address: parsed.value, range, pointer: at });
  });
}

/** Reads every field of `map` that the kind's descriptor knows into `resource`, reporting each problem at its value. */
export function readFields(ctx: FileContext, resource: DesiredResource, descriptor: KindDescriptor, map: YMap, pointer: string): void {
  const spec = descriptor.manifest;
  for (const field of spec.plain) {
    const entry = map.byKey.get(field);
    if (entry === undefined) continue;
    resource.attributes[field] = plainValue(entry.value);
    resource.attributeSources[field] = sourceOf(ctx, entry.value);
  }
  for (const field of spec.ids) {
    const entry = map.byKey.get(field);
    if (entry === undefined) continue;
    const id = readId(ctx, entry.value, childPointer(pointer, field), field);
    if (id === undefined) continue;
    resource.attributes[field] = id;
    resource.attributeSources[field] = sourceOf(ctx, entry.value);
  }
  for (const [short, api] of Object.entries(spec.money)) readMoney(ctx, resource, map, pointer, short, api);
  for (const field of spec.times) {
    const entry = map.byKey.get(field);
    const text = stringValue(entry?.value);
    if (entry === undefined || text === undefined) continue;
    const normalised = normaliseTimestamp(text);
    if (normalised === undefined) {
      report(ctx, childPointer(pointer, field), 'time-format', timestampProblem(field, quoteValue(text), text), rangeOf(ctx, entry.value));
      continue;
    }
    resource.attributes[field] = normalised;
    resource.attributeSources[field] = sourceOf(ctx, entry.value);
  }
  for (const [name, ref] of Object.entries(spec.refs)) readReference(ctx, resource, map, pointer, name, ref.field, ref.collection);
  const lifecycle = map.byKey.get('lifecycle');
  if (lifecycle !== undefined) readLifecycle(ctx, resource, descriptor, lifecycle.value, childPointer(pointer, 'lifecycle'));
  const dependsOn = map.byKey.get('depends_on');
  if (dependsOn !== undefined) readDependsOn(ctx, resource, dependsOn.value, childPointer(pointer, 'depends_on'));
}
