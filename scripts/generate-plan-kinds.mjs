/**
 * Writes the kind list of schemas/plan.schema.json (a resource change's `type` enum) from the
 * registered kinds, the `ResourceKind` union of src/kinds/kind.ts, in its order, so the plan
 * format names exactly the kinds adsctl manages (test/kinds/kind-places.test.ts holds them to the
 * registry). Run by `npm run build`; the schema is committed. `--check` exits 1 when the committed
 * list is stale; `--stdout` prints the schema instead of writing it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const kindFile = `${root}src/kinds/kind.ts`;
const schemaFile = `${root}schemas/plan.schema.json`;

/** The members of the `ResourceKind` union, in order. */
export function registeredKinds() {
  const source = readFileSync(kindFile, 'utf8');
  const union = /export type ResourceKind =([^;]*);/.exec(source);
  if (union === null) throw new Error(`${kindFile} declares no ResourceKind union`);
  return [...union[1].matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
}

/** The plan schema's text with the kind list of the registry. */
export function planSchemaWithKinds() {
  const text = readFileSync(schemaFile, 'utf8');
  const list = /("description": "The resource kind\.",\s*"enum": )\[[^\]]*\]/;
  if (!list.test(text)) throw new Error(`${schemaFile} has no kind list ("The resource kind." with an enum)`);
  return text.replace(list, (_all, head) => `${head}[${registeredKinds().map((k) => JSON.stringify(k)).join(', ')}]`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = planSchemaWithKinds();
  if (process.argv.includes('--stdout')) {
    process.stdout.write(text);
  } else if (process.argv.includes('--check')) {
    if (readFileSync(schemaFile, 'utf8') !== text) {
      process.stderr.write(`${schemaFile}'s kind list is stale; run npm run build\n`);
      process.exitCode = 1;
    }
  } else {
    writeFileSync(schemaFile, text);
  }
}
