/**
 * Validates a value against one of the shipped JSON Schemas and maps every error back to the
 * source through a locator, so each diagnostic points at the exact key or value. The validators
 * are compiled from `schemas/<name>.schema.json` by ajv at build time (scripts/generate-validator.mjs)
 * and loaded from `schemas/<name>.validator.cjs`. Knows JSON Schema and positions, nothing of
 * what a manifest means.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { describeSchemaError } from './messages.js';

/** The schemas this package ships, each with its compiled validator. */
type SchemaName = 'manifest';

/** Finds where the value, or the key of the map entry, at a JSON pointer was written. */
export interface InstanceLocator {
  value(pointer: string): SourceRange | undefined;
  key(pointer: string): SourceRange | undefined;
}

/** The outcome of one validation: diagnostics in no particular order, and the pointers of invalid values. */
interface SchemaValidation {
  diagnostics: Diagnostic[];
  /** Values that are themselves invalid; checks of them or of anything inside them would repeat the problem. */
  invalid: Set<string>;
}

const load = createRequire(import.meta.url);
const validators = new Map<SchemaName, ValidateFunction>();

/** `schemas/<file>` of the package this module belongs to, found upwards (src/, dist/ and other build outputs alike). */
function shippedFile(file: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'schemas', file)) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'schemas', file);
}

function validatorFor(name: SchemaName): ValidateFunction {
  const known = validators.get(name);
  if (known !== undefined) return known;
  const validate = load(shippedFile(`${name}.validator.cjs`)) as ValidateFunction;
  validators.set(name, validate);
  return validate;
}

/**
 * The errors worth reporting: a type error makes the other errors at the same value noise, and a
 * property-name error already covers the errors of the name's own schema (which ajv reports at
 * the map's pointer, with the name as data).
 */
function keep(errors: readonly ErrorObject[]): ErrorObject[] {
  const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const named = new Set(errors.filter((e) => e.keyword === 'propertyNames').map((e) => e.instancePath));
  return errors.filter((e) => {
    if (named.has(e.instancePath) && e.keyword !== 'propertyNames' && typeof e.data === 'string') return false;
    return e.keyword === 'type' || !typed.has(e.instancePath);
  });
}

/**
 * Validates `value` against `schemas/<name>.schema.json`. Every error becomes a diagnostic at the
 * position the locator gives (falling back to the nearest enclosing value it knows).
 */
export function validateWithSchema(name: SchemaName, value: unknown, locate: InstanceLocator): SchemaValidation {
  const validate = validatorFor(name);
  const result: SchemaValidation = { diagnostics: [], invalid: new Set() };
  if (validate(value)) return result;
  for (const error of keep(validate.errors ?? [])) {
    const problem = describeSchemaError(error);
    if (problem === undefined) continue;
    let range = problem.at === 'key' ? locate.key(problem.pointer) : undefined;
    let pointer = problem.pointer;
    while (range === undefined) {
      range = locate.value(pointer);
      if (pointer === '') break;
      pointer = pointer.slice(0, pointer.lastIndexOf('/'));
    }
    result.diagnostics.push(errorAt(problem.code, problem.message, range));
    if (problem.invalidatesValue) result.invalid.add(problem.pointer);
  }
  return result;
}
