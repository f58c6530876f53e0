/**
 * Checks records against a definition of schemas/wire.schema.json, as wire-schema.test.ts does:
 * exact field sets, types, nulls and timestamp form.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/wire.schema.json', import.meta.url), 'utf8')) as { $id: string };
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schema);

/** Throws, naming the problems, unless every record matches `$defs/<def>`. */
export function expectWire(def: string, ...records: unknown[]): void {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
  if (validate === undefined) throw new Error(`wire.schema.json has no $defs/${def}`);
  for (const record of records) {
    if (!validate(record)) throw new Error(`${def}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(record)}`);
  }
}
