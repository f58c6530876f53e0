/**
 * The manifest fields of one live record, read backwards through its kind's descriptor
 * (src/kinds/, the reverse of src/manifest/resolve.ts): each API field the kind compares, left
 * out when the service holds it at the value it gives an object created without it (`fallback`,
 * `serviceDefault`: a bound object's field the manifest leaves out is the service's, so the plan
 * after stays empty) — but for the serving status (`entity_status`), written on every object that has
 * one, so that the manifest says what serves —, empty, write-only or not a field of the API; money under its short name in
 * currency units, references by the logical name of their
 * target when the manifest has one, times in UTC, ids as strings.
 */
import type { KindDescriptor } from '../kinds/descriptor.js';
import type { NamesById } from '../kinds/write-back.js';
import { manifestAccepts } from './accepted.js';
import { unitsOf, utcOf } from './values.js';

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && [...a].map(String).sort().join('\u0000') === [...b].map(String).sort().join('\u0000');
  if (Array.isArray(a) && a.length === 0 && (b === undefined || b === null)) return true;
  return a === b || (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}

/** The fields of `record` as the manifest writes them for kind `d`, in the descriptor's order (`skip`: fields written otherwise). */
export function manifestFieldsOf(d: KindDescriptor, record: Readonly<Record<string, unknown>>, names: NamesById, skip: ReadonlySet<string> = new Set()): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const money = new Map(Object.entries(d.manifest.money).map(([short, api]) => [api, short]));
  const refs = new Map(Object.entries(d.manifest.refs).map(([name, ref]) => [ref.field, { name, collection: ref.collection }]));
  const written = new Set([...d.manifest.plain, ...d.manifest.ids, ...d.manifest.times, ...money.keys(), ...refs.keys()]);
  for (const rule of d.attributes) {
    const field = rule.field;
    if (rule.informational === true || rule.writeOnly === true || field === d.parentField || skip.has(field) || !written.has(field)) continue;
    const value = record[field];
    if (value === undefined || value === null || (typeof value === 'string' && value === '' && rule.shape !== 'scalar')) continue;
    if (rule.fallback !== undefined && field !== d.serving?.field && same(value, rule.fallback(record))) continue;
    if (rule.serviceDefault !== undefined && same(value, rule.serviceDefault(record))) continue;
    if (!manifestAccepts(d.manifest.def, field, value)) continue;
    const short = money.get(field);
    const ref = refs.get(field);
    if (short !== undefined) {
      const units = unitsOf(value);
      out.push(units === undefined ? [field, value] : [short, units]);
    } else if (ref !== undefined) {
      const name = names.get(ref.collection)?.get(String(value));
      out.push(name === undefined ? [field, String(value)] : [ref.name, name]);
    } else if (rule.shape === 'time') out.push([field, utcOf(value) ?? value]);
    else if (rule.shape === 'id') out.push([field, String(value)]);
    else out.push([field, value]);
  }
  // the name first: it is what a reader looks for
  return out.sort((a, b) => (a[0] === 'name' ? -1 : b[0] === 'name' ? 1 : 0));
}
