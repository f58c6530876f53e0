/**
 * Turns ajv's errors into adsctl diagnostics: a stable code per JSON Schema keyword
 * (`schema-enum`, `schema-unknown-field`, ...; `money-*`, `id-format`, `time-format` for the
 * shared value types), a message that names the field, the value and what was expected, a
 * "did you mean" for misspelt names and enum values, and the pointer of the key or value at fault.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { didYouMean } from '../diag/suggest.js';
import { timestampProblem } from './timestamp-problem.js';

/** What one ajv error means for the user, before it is given a source position. */
interface SchemaProblem {
  code: string;
  message: string;
  /** JSON pointer of the offending value, or of the map entry whose key is at fault. */
  pointer: string;
  /** Point at the entry's key (unknown or missing fields) rather than its value. */
  at: 'key' | 'value';
  /** The value at `pointer` itself is invalid, so later checks of it would only repeat this problem. */
  invalidatesValue: boolean;
}

type Schema = Record<string, unknown>;

const unescape = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const escape = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function segments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescape);
}

/** A short name for the value at a pointer: its key, or `list[i]` for a list item. */
function fieldLabel(pointer: string): string {
  const parts = segments(pointer);
  const last = parts.at(-1);
  if (last === undefined) return 'the manifest';
  if (/^\d+$/.test(last)) return `${parts.at(-2) ?? 'item'}[${last}]`;
  return last;
}

function human(title: string): string {
  return title.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function ownerLabel(pointer: string, schema: Schema | undefined): string {
  const parts = segments(pointer);
  const last = parts.at(-1);
  if (last === undefined) return 'the manifest';
  const title = typeof schema?.['title'] === 'string' ? human(schema['title']) : undefined;
  if (title === undefined || title.replace(/ /g, '_') === last) return last;
  if (/^\d+$/.test(last)) return `${title} ${Number(last) + 1} of ${parts.at(-2) ?? 'the list'}`;
  return `${title} ${JSON.stringify(last)}`;
}

function describeValue(data: unknown): string {
  if (data === null) return 'an empty value';
  if (typeof data === 'string') return JSON.stringify(data.length > 60 ? `${data.slice(0, 57)}...` : data);
  if (Array.isArray(data)) return 'a list';
  if (typeof data === 'object') return 'a map';
  return String(data);
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a map',
  array: 'a list',
  null: 'empty',
};

function typeList(types: unknown): string {
  const names = (Array.isArray(types) ? types : [types]).map((t) => TYPE_NAMES[String(t)] ?? String(t));
  return names.length <= 1 ? (names[0] ?? 'something else') : `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

function titleOf(schema: Schema | undefined): string | undefined {
  const title = schema?.['title'];
  return typeof title === 'string' ? title : undefined;
}

function patternProblem(label: string, data: unknown, schema: Schema | undefined): Pick<SchemaProblem, 'code' | 'message'> {
  const title = titleOf(schema);
  const shown = describeValue(data);
  if (title === 'Money') return { code: 'money-format', message: `${label} ${shown} is not a decimal amount such as "50.00"` };
  if (title === 'Timestamp') return { code: 'time-format', message: timestampProblem(label, shown, data) };
  if (title === 'NumericIdentifier' || title === 'PromotedPost' || title === 'PromotedAccount') {
    return { code: 'id-format', message: `${label} ${shown} is not a numeric id (digits only, at most 20)` };
  }
  if (title === 'Identifier' || title === 'LineItemCuratedCategory') return { code: 'id-format', message: `${label} ${shown} is not an id (ids have no spaces)` };
  const examples = Array.isArray(schema?.['examples']) ? (schema['examples'] as unknown[]).map(String) : [];
  if (examples.length > 0) {
    const hint = typeof data === 'string' ? didYouMean(data, examples) : '';
    return { code: 'schema-pattern', message: `${label} ${shown} is not valid; expected something like ${listValues(examples)}${hint}` };
  }
  return { code: 'schema-pattern', message: `${label} ${shown} does not match the pattern ${String(schema?.['pattern'] ?? '')}` };
}

function rangeProblem(e: ErrorObject, label: string, schema: Schema | undefined): Pick<SchemaProblem, 'code' | 'message'> {
  const title = titleOf(schema);
  const limit = String((e.params as { limit?: unknown }).limit);
  const bound = e.keyword === 'minimum' || e.keyword === 'exclusiveMinimum' ? 'at least' : 'at most';
  if (title === 'Money' || title === 'Micros') return { code: 'money-range', message: `${label} must not be negative, not ${describeValue(e.data)}` };
  if (title !== undefined && /Identifier|Promoted|CuratedCategory/.test(title)) return { code: 'id-format', message: `${label} ${describeValue(e.data)} is not an id` };
  return { code: `schema-${e.keyword === 'minimum' ? 'minimum' : 'maximum'}`, message: `${label} must be ${bound} ${limit}, not ${describeValue(e.data)}` };
}

/**
 * Describes one ajv error (compiled with `verbose: true`, so `data` and `parentSchema` are set),
 * or returns undefined for errors that only restate another one (the wrapper of a property-name error).
 */
export function describeSchemaError(e: ErrorObject): SchemaProblem | undefined {
  if ((e as { propertyName?: string }).propertyName !== undefined) return undefined;
  const schema = e.parentSchema as Schema | undefined;
  const label = fieldLabel(e.instancePath);
  const base = { pointer: e.instancePath, at: 'value' as const, invalidatesValue: true };
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return { ...base, code: 'schema-type', message: `${label} must be ${typeList(params['type'])}, not ${describeValue(e.data)}` };
    case 'required': {
      const missing = String(params['missingProperty']);
      return { ...base, at: 'key', invalidatesValue: false, code: 'schema-required', message: `${ownerLabel(e.instancePath, schema)} is missing the required field ${JSON.stringify(missing)}` };
    }
    case 'additionalProperties': {
      const extra = String(params['additionalProperty']);
      const known = Object.keys((schema?.['properties'] as Schema | undefined) ?? {});
      const where = e.instancePath === '' ? 'at the top level' : `in ${ownerLabel(e.instancePath, schema)}`;
      return {
        pointer: `${e.instancePath}/${escape(extra)}`,
        at: 'key',
        invalidatesValue: true,
        code: 'schema-unknown-field',
        message: `unknown field ${JSON.stringify(extra)} ${where}${didYouMean(extra, known)}`,
      };
    }
    case 'propertyNames':
      return { pointer: `${e.instancePath}/${escape(String(params['propertyName']))}`, at: 'key', invalidatesValue: true, code: 'schema-property-name', message: `names under ${label} must not be empty` };
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[] | undefined) ?? [];
      const hint = typeof e.data === 'string' ? didYouMean(e.data, allowed.map(String)) : '';
      return { ...base, code: 'schema-enum', message: `${label} ${describeValue(e.data)} is not one of ${listValues(allowed)}${hint}` };
    }
    case 'const':
      return { ...base, code: 'schema-const', message: `${label} must be ${JSON.stringify(params['allowedValue'])}, not ${describeValue(e.data)}` };
    case 'pattern':
      return { ...base, ...patternProblem(label, e.data, schema) };
    case 'format':
      if (params['format'] === 'date-time') {
        return { ...base, code: 'time-format', message: timestampProblem(label, describeValue(e.data), e.data) };
      }
      return { ...base, code: 'schema-format', message: `${label} ${describeValue(e.data)} is not a valid ${String(params['format'])}` };
    case 'maxLength':
      return { ...base, code: 'schema-max-length', message: `${label} is ${[...String(e.data)].length} characters long; at most ${String(params['limit'])} are allowed` };
    case 'minLength':
      return { ...base, code: 'schema-min-length', message: Number(params['limit']) === 1 ? `${label} must not be empty` : `${label} must have at least ${String(params['limit'])} characters` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { ...base, ...rangeProblem(e, label, schema) };
    case 'minItems':
      return { ...base, invalidatesValue: false, code: 'schema-min-items', message: `${label} must have at least ${String(params['limit'])} item${Number(params['limit']) === 1 ? '' : 's'}` };
    case 'maxItems':
      return { ...base, invalidatesValue: false, code: 'schema-max-items', message: `${label} must have at most ${String(params['limit'])} items` };
    case 'uniqueItems': {
      const later = Math.max(Number(params['i']), Number(params['j']));
      const items = Array.isArray(e.data) ? (e.data as unknown[]) : [];
      return { pointer: `${e.instancePath}/${later}`, at: 'value', invalidatesValue: false, code: 'schema-unique-items', message: `${label} lists ${describeValue(items[later])} more than once` };
    }
    default:
      return { ...base, code: `schema-${e.keyword.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`, message: `${label}: ${e.message ?? 'is not valid'}` };
  }
}
