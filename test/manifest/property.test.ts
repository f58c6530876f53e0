/**
 * Property: whatever a manifest turns into, loading it never throws — every problem comes back as
 * a diagnostic that points inside the file, and a state is returned exactly when there is no error.
 * Valid manifests (the golden ones) are mutated thousands of times, as text and as structure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { formatDiagnostics } from '../../src/diag/format.js';
import { loadManifestSources, type ManifestSource } from '../../src/manifest/load.js';

const GOLDEN = fileURLToPath(new URL('../golden/validate/', import.meta.url));
const VALID = readdirSync(GOLDEN)
  .filter((name) => readdirSync(join(GOLDEN, name)).includes('desired.json'))
  .flatMap((name) => readdirSync(join(GOLDEN, name), { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(GOLDEN, name, f)))
  .map((file) => readFileSync(file, 'utf8'));

const ENV = { ADSCTL_TEST_ENDPOINT: 'sandbox', ACCOUNT_ID: 'a1', REGION_NAME: 'EU', YEAR: '2026', DAILY_BUDGET: '1.5', FREQUENCY_CAP: '2' };
const options = { env: ENV, fileExists: (path: string) => path.endsWith('newsletter.csv') };

function checkLoad(text: string): void {
  const source: ManifestSource = { file: 'm.yaml', text };
  const result = loadManifestSources([source], options);
  const lines = text.split('\n').length;
  for (const d of result.diagnostics) {
    expect(d.code).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.range?.file).toBe('m.yaml');
    const { start, end } = d.range ?? { start: { line: 0, column: 0, offset: -1 }, end: { line: 0, column: 0, offset: -1 } };
    expect(start.line).toBeGreaterThanOrEqual(1);
    expect(start.line).toBeLessThanOrEqual(lines);
    expect(start.column).toBeGreaterThanOrEqual(1);
    expect(start.offset).toBeGreaterThanOrEqual(0);
    expect(end.offset).toBeGreaterThanOrEqual(start.offset);
    expect(end.offset).toBeLessThanOrEqual(text.length);
  }
  const errors = result.diagnostics.some((d) => d.severity === 'error');
  expect(result.value === undefined).toBe(errors);
  expect(typeof formatDiagnostics(result.diagnostics, result.sources)).toBe('string');
  for (const resource of result.value?.accounts.flatMap((a) => a.resources) ?? []) {
    for (const [field, value] of Object.entries(resource.attributes)) {
      if (field.endsWith('_local_micro')) expect(Number.isSafeInteger(value)).toBe(true);
    }
    expect(resource.source.end.offset).toBeLessThanOrEqual(text.length);
  }
}

const TOKENS = [':', ': ', '-', '- ', '[', ']', '{', '}', ',', '&a ', '*a', '<<: ', '!', '!!str ', '|', '>', '"', "'", '#', '?', '%', '@', '`', '\t', '\n', '  ', '---\n', '...\n',
  '${env:YEAR}', '${env:NOPE}', '${x}', '0x1F', '1e999', '-1', '0.0000001', '.inf', '~', 'null', 'true', '__proto__: 1\n', '\u00e9', '\ud83d\ude80', '\r\n', '\u0000'];

type Edit = (text: string) => string;
const at = (text: string, n: number): number => (text.length === 0 ? 0 : n % (text.length + 1));

const textEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 })).map(([p, n]): Edit => (t) => t.slice(0, at(t, p)) + t.slice(at(t, p) + n)),
  fc.tuple(fc.nat(), fc.constantFrom(...TOKENS)).map(([p, token]): Edit => (t) => t.slice(0, at(t, p)) + token + t.slice(at(t, p))),
  fc.tuple(fc.nat(), fc.string({ maxLength: 6 })).map(([p, s]): Edit => (t) => t.slice(0, at(t, p)) + s + t.slice(at(t, p) + s.length)),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Edit => (t) => {
    const lines = t.split('\n');
    const i = a % lines.length;
    const j = b % lines.length;
    [lines[i], lines[j]] = [lines[j] ?? '', lines[i] ?? ''];
    return lines.join('\n');
  }),
  fc.tuple(fc.nat(), fc.integer({ min: -4, max: 4 })).map(([a, shift]): Edit => (t) => {
    const lines = t.split('\n');
    const i = a % lines.length;
    const line = lines[i] ?? '';
    lines[i] = shift > 0 ? ' '.repeat(shift) + line : line.slice(Math.min(-shift, line.length - line.trimStart().length));
    return lines.join('\n');
  }),
  fc.nat().map((a): Edit => (t) => {
    const lines = t.split('\n');
    const i = a % lines.length;
    lines.splice(i, 0, lines[i] ?? '');
    return lines.join('\n');
  }),
);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const leaf = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e21, 0.0000001, '', ' ', '50.00', '1346184843436720128', 'ALL_ON_SERVICE', 'campaigns.x', '${env:YEAR}', '__proto__', 'PAUSED', '2026-06-01T00:00:00Z'),
  fc.string({ maxLength: 8 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('name', 'targeting', 'line_items', 'lifecycle', 'depends_on', '<<')), tie('value'), { maxKeys: 3 })),
})).value;

function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Array.isArray(value) ? value.map((v, i) => paths(v, [...prefix, i])) : Object.entries(value).map(([k, v]) => paths(v, [...prefix, k]));
  return [prefix, ...children.flat()];
}

function replaceAt(value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  if (value !== null && typeof value === 'object') return { ...value, [head as string]: replaceAt((value as Record<string, unknown>)[head as string], rest, replacement) };
  return value;
}

/** Mutations tried per property: a fast share in `npm test`, the full count under `npm run chaos`. */
const RUNS = process.env['ADSCTL_CHAOS_TRIALS'] === undefined ? { text: 1000, structural: 700 } : { text: 3000, structural: 2000 };

describe('loading mutated manifests', () => {
  it('starts from manifests that are valid', () => {
    expect(VALID.length).toBeGreaterThanOrEqual(5);
    for (const text of VALID) expect(loadManifestSources([{ file: 'm.yaml', text }], options).diagnostics).toEqual([]);
  });

  it('never throws on text mutations; it returns diagnostics inside the file', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VALID), fc.array(textEdit, { minLength: 1, maxLength: 4 }), (text, edits) => {
        checkLoad(edits.reduce((t, edit) => edit(t), text));
      }),
      { numRuns: RUNS.text },
    );
  });

  it('never throws on structural mutations (any value at any place)', () => {
    const documents = VALID.map((text) => parse(text, { merge: true }) as unknown);
    fc.assert(
      fc.property(fc.constantFrom(...documents), fc.nat(), json, (document, pick, replacement) => {
        const all = paths(document);
        const path = all[pick % all.length] ?? [];
        checkLoad(stringify(replaceAt(document, path, replacement)));
      }),
      { numRuns: RUNS.structural },
    );
  });
});
