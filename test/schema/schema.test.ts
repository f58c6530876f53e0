/**
 * The manifest schema is the single source of the format: it compiles under ajv's strict mode,
 * documents every field for editors, avoids what the tools cannot follow, and the generated
 * generated files (TypeScript types, standalone validator) are exactly what it generates now.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const schema = JSON.parse(readFileSync(`${root}schemas/manifest.schema.json`, 'utf8')) as Record<string, unknown>;

type Visit = (node: Record<string, unknown>, path: string) => void;
function walk(node: unknown, path: string, visit: Visit): void {
  if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${path}/${i}`, visit));
  else if (node !== null && typeof node === 'object') {
    visit(node as Record<string, unknown>, path);
    for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`, visit);
  }
}

function generated(script: string): string {
  return execFileSync(process.execPath, [`${root}scripts/${script}`, '--stdout'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
}

describe('schemas/manifest.schema.json', () => {
  it('is draft 2020-12 and compiles in ajv strict mode', () => {
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('describes every field and every $defs entry (hover docs in editors)', () => {
    const undocumented: string[] = [];
    walk(schema, '#', (node, path) => {
      const properties = node['properties'];
      if (properties !== null && typeof properties === 'object') {
        for (const [name, field] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
          if (typeof field['description'] !== 'string' || field['description'].length < 10) undocumented.push(`${path}/properties/${name}`);
        }
      }
    });
    for (const [name, def] of Object.entries(schema['$defs'] as Record<string, Record<string, unknown>>)) {
      if (typeof def['description'] !== 'string') undocumented.push(`#/$defs/${name}`);
      expect(def['title']).toBe(name);
    }
    expect(undocumented).toEqual([]);
  });

  it('avoids keywords json-schema-to-typescript cannot follow, and unregistered annotations', () => {
    const found: string[] = [];
    walk(schema, '#', (node, path) => {
      for (const key of Object.keys(node)) {
        if (['prefixItems', 'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'if', 'then', 'else', 'tsType'].includes(key) || key.startsWith('x-')) {
          if (!path.endsWith('/properties')) found.push(`${path}/${key}`);
        }
      }
    });
    expect(found).toEqual([]);
  });

  it('closes every object, so misspelt fields are reported', () => {
    const open: string[] = [];
    walk(schema, '#', (node, path) => {
      const types = ([] as unknown[]).concat(node['type'] ?? []);
      if (types.includes('object') && node['additionalProperties'] === undefined && !path.endsWith('/properties')) open.push(path);
    });
    expect(open).toEqual([]);
  });

  it('has generated TypeScript types (src/manifest/generated/manifest.ts) that match the schema', () => {
    expect(generated('generate-types.mjs')).toBe(readFileSync(`${root}src/manifest/generated/manifest.ts`, 'utf8'));
  });

  it('generates the committed standalone validator (schemas/manifest.validator.cjs)', () => {
    expect(generated('generate-validator.mjs')).toBe(readFileSync(`${root}schemas/manifest.validator.cjs`, 'utf8'));
  });
});
