/**
 * How the manifest keys a targeting criterion: `TYPE:VALUE`, or `TYPE/OP:VALUE` when the operator
 * is not EQ (the default). A criterion may name an audience of the manifest by logical name
 * (`custom_audience: newsletter`, only for the audience types): its key then names the audience's
 * address, and its value is a reference to it.
 */
import { asMap, childPointer, idValue, stringValue } from './entry-nodes.js';
import type { EntryReader, ItemIdentity } from './manifest-reading.js';

/** The key of a targeting criterion: `TYPE:VALUE`, or `TYPE/OP:VALUE` when the operator is not EQ. */
export function targetingKey(type: string, value: string, operator: string): string {
  return operator === 'EQ' ? `${type}:${value}` : `${type}/${operator}:${value}`;
}

/**
 * The key the manifest gives a live criterion (its operator EQ when the record has none), or with
 * `value` in place of its own (`custom_audiences.newsletter`, an audience named by logical name);
 * undefined for a record without a type or a value. The diff keys criteria made outside adsctl by
 * it, and generate the criteria it writes, so both give the address the manifest would.
 */
export function liveTargetingKey(record: Readonly<Record<string, unknown>>, value?: string): string | undefined {
  const type = record['targeting_type'];
  const own = record['targeting_value'];
  if (typeof type !== 'string' || own === undefined || own === null) return undefined;
  return targetingKey(type, value ?? String(own), String(record['operator_type'] ?? 'EQ'));
}

const AUDIENCE_TYPES: ReadonlySet<string> = new Set(['CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED']);

/** A criterion's key, and the audience it names by logical name (`custom_audience: newsletter`). */
export const targetingIdentity: ItemIdentity = (ctx, node, pointer) => {
  const item = asMap(node);
  if (item === undefined) return undefined;
  const type = stringValue(item.byKey.get('targeting_type')?.value);
  if (type === undefined) return undefined;
  const operator = stringValue(item.byKey.get('operator_type')?.value) ?? 'EQ';
  const valueEntry = item.byKey.get('targeting_value');
  const value = valueEntry === undefined ? undefined : idValue(valueEntry.value);
  const audienceEntry = item.byKey.get('custom_audience');
  if (audienceEntry !== undefined) {
    const at = childPointer(pointer, 'custom_audience');
    if (!AUDIENCE_TYPES.has(type)) {
      ctx.report(at, 'reference-type', `custom_audience names an audience, which only targeting_type CUSTOM_AUDIENCE or CUSTOM_AUDIENCE_EXPANDED target (this is ${type})`, ctx.rangeOf(audienceEntry.value));
      return undefined;
    }
    if (valueEntry !== undefined) {
      ctx.report(at, 'reference-conflict', 'custom_audience and targeting_value both say which audience to target; keep one', ctx.rangeOf(audienceEntry.value), [{ message: 'targeting_value is set here', range: ctx.rangeOf(valueEntry.value) }]);
      return undefined;
    }
    // a flexible audience is targeted like any other, by its name under flexible_audiences
    const name = stringValue(audienceEntry.value);
    const collection = name !== undefined && ctx.names('flexible_audiences').includes(name) ? 'flexible_audiences' : 'custom_audiences';
    const ref = ctx.reference(audienceEntry.value, at, collection, 'custom_audience');
    if (ref === undefined) return undefined;
    return { key: targetingKey(type, `${collection}.${ref.$target.steps[0]?.key ?? ''}`, operator), target: { field: 'targeting_value', address: ref.$target } };
  }
  if (value === undefined) {
    ctx.report(pointer, 'missing-field', `targeting criterion ${type} needs targeting_value`, ctx.rangeOf(item));
    return undefined;
  }
  if (value === 'invalid') {
    ctx.report(childPointer(pointer, 'targeting_value'), 'id-format', `targeting_value ${ctx.textOf(valueEntry?.value.start ?? 0, valueEntry?.value.end ?? 0)} is not a value as written; quote it`, ctx.rangeOf(valueEntry?.value ?? item));
    return undefined;
  }
  return { key: targetingKey(type, value, operator) };
};

/** The operator a criterion's key leaves out, EQ, filled in when the manifest does not write one. */
export const defaultOperator: EntryReader = (_ctx, resource) => {
  if (resource.attributes['operator_type'] === undefined) resource.attributes['operator_type'] = 'EQ';
};
