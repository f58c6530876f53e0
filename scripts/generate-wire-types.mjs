// Generates src/api/generated/wire.ts from schemas/wire.schema.json (json-schema-to-typescript).
// Run by `npm run build` (and so by `npm ci`) before tsc; the output is not committed.
// `--check` compares instead of writing and exits 1 when the file on disk is stale.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { compile } from 'json-schema-to-typescript';

const schema = JSON.parse(readFileSync('schemas/wire.schema.json', 'utf8'));
// Every $defs entry becomes a property of the root, so each is emitted as a named type.
const root = { ...schema, properties: Object.fromEntries(Object.keys(schema.$defs).map((k) => [k, { $ref: `#/$defs/${k}` }])), additionalProperties: false };
const banner = '/* Generated from schemas/wire.schema.json by scripts/generate-wire-types.mjs. Do not edit. */';
const ts = await compile(root, 'AdsWire', { bannerComment: banner, additionalProperties: false, unreachableDefinitions: true, format: true, style: { singleQuote: true, printWidth: 140 } });
const target = 'src/api/generated/wire.ts';
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== ts) {
    console.error(`${target} is stale: run npm run build`);
    process.exit(1);
  }
} else {
  mkdirSync('src/api/generated', { recursive: true });
  writeFileSync(target, ts);
}
