/**
 * Checking what is read from the state directory against the shipped schemas
 * (schemas/state.schema.json for a state file, schemas/journal.schema.json for a journal line) and
 * saying what is wrong in the words of the file: `resources["campaigns.c00"].id must be a string,
 * not 12345`. The validators are compiled at build time (scripts/generate-state-validators.mjs)
 * and loaded from `schemas/<name>.validator.cjs`, so no run pays for ajv's compiler.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

/** The schemas of the state directory's files. */
type StateSchema = 'state' | 'journal';

const load = createRequire(import.meta.url);
const validators = new Map<StateSchema, ValidateFunction>();

/** `schemas/<file>` of the package this module belongs to, found upwards (src/, dist/ alike). */
function shippedFile(file: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'schemas', file)) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'schemas', file);
}

function validatorFor(name: StateSchema): ValidateFunction {
  let validate = validators.get(name);
  if (validate === undefined) {
    validate = load(shippedFile(`${name}.validator.cjs`)) as ValidateFunction;
    validators.set(name, validate);
  }
  return validate;
}

/** A JSON pointer as the path a reader of the file sees: `resources["campaigns.c00"].applied`. */
function where(pointer: string, whole: string): string {
  if (pointer === '') return whole;
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, i) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? `${i === 0 ? '' : '.'}${part}` : `[${JSON.stringify(part)}]`))
    .join('');
}

/** A value found, in a few words. */
function found(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

const ARTICLE: Record<string, string> = { object: 'an object', array: 'an array', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false' };

function describe(error: ErrorObject, whole: string): string {
  const at = where(error.instancePath, whole);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `${at} must be ${ARTICLE[String(params['type'])] ?? String(params['type'])}, not ${found(error.data)}`;
    case 'required':
      return `${at} has no ${String(params['missingProperty'])}`;
    case 'minLength':
      return `${at} must not be empty`;
    case 'propertyNames':
      return `${at} has an empty name`;
    case 'additionalProperties':
      return `${at} has ${JSON.stringify(params['additionalProperty'])}, which it cannot have`;
    default:
      return `${at} ${error.message ?? 'is not valid'}, not ${found(error.data)}`;
  }
}

/**
 * The problems of `value` against `schemas/<name>.schema.json`, in words, at most `limit` of them
 * (then how many more); empty when it matches. `whole` names the value itself ("the state").
 */
export function shapeProblems(name: StateSchema, value: unknown, whole: string, limit = 3): string[] {
  const validate = validatorFor(name);
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  // a type error says all there is about its value; a name's own errors come with `propertyNames`
  const shown = errors.filter((e) => (e.keyword === 'type' || !typed.has(e.instancePath)) && e.keyword !== 'oneOf' && e.propertyName === undefined);
  const words = [...new Set(shown.map((e) => describe(e, whole)))];
  if (words.length <= limit) return words;
  return [...words.slice(0, limit), `and ${words.length - limit} more ${words.length - limit === 1 ? 'problem' : 'problems'}`];
}
