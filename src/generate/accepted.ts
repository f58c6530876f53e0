/**
 * Which values the manifest can write for a field, from the manifest schema's enums
 * (schemas/manifest.schema.json), and whether a list item may be written as a bare value. A live
 * value outside them is one the service set itself (a line
 * item's `pay_by: ENGAGEMENT` under an objective that bills that way) and that a manifest cannot
 * ask for: generate leaves it to the service, as a manifest that says nothing of it does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Schema = { $defs?: Record<string, { type?: string | string[]; properties?: Record<string, { enum?: unknown[]; items?: { enum?: unknown[] } }> }> };

let schema: Schema | undefined;

function load(): Schema {
  if (schema !== undefined) return schema;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'schemas', 'manifest.schema.json');
    if (existsSync(path)) return (schema = JSON.parse(readFileSync(path, 'utf8')) as Schema);
    if (dirname(dir) === dir) return (schema = {});
  }
}

/** False when the schema's `$defs[def]` lists the values `field` may take and `value` is not among them. */
export function manifestAccepts(def: string, field: string, value: unknown): boolean {
  const property = load().$defs?.[def]?.properties?.[field];
  const values = property?.enum ?? property?.items?.enum;
  if (values === undefined) return true;
  return Array.isArray(value) ? value.every((v) => values.includes(v)) : values.includes(value);
}

/**
 * True when the schema's `$defs[def]` takes a bare string (`promoted_posts: ["123"]`); false for
 * a list item written only as a map (a media creative: `{ account_media_id: ... }`).
 */
export function manifestTakesScalar(def: string): boolean {
  const type = load().$defs?.[def]?.type;
  return type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'));
}
