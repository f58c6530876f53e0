/**
 * Golden cases of `loadManifests`: each directory under test/golden/validate/ holds manifest files
 * and either `diagnostics.txt` (the formatted diagnostics of a broken manifest) or `desired.json`
 * (the DesiredState of a valid one). An optional `env.json` gives the variables for ${env:NAME}.
 * `UPDATE_GOLDEN=1 npx vitest run test/manifest/golden.test.ts` rewrites the expected files.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../../src/diag/format.js';
import { loadManifests } from '../../src/manifest/load.js';
import { desiredStateJson } from './desired-json.js';

const ROOT = fileURLToPath(new URL('../golden/validate/', import.meta.url));
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';
const cases = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

function expectGolden(file: string, actual: string): void {
  if (UPDATE) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

describe('golden manifests', () => {
  it('has at least 25 broken and 5 valid cases', () => {
    const broken = cases.filter((c) => existsSync(join(ROOT, c, 'diagnostics.txt')));
    const valid = cases.filter((c) => existsSync(join(ROOT, c, 'desired.json')));
    expect(broken.length).toBeGreaterThanOrEqual(25);
    expect(valid.length).toBeGreaterThanOrEqual(5);
    expect(broken.length + valid.length).toBe(cases.length);
  });

  it.each(cases)('%s', (name) => {
    const dir = join(ROOT, name);
    const envFile = join(dir, 'env.json');
    const env = existsSync(envFile) ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>) : {};
    const result = loadManifests(dir, { env });
    const relative = (text: string): string => text.replaceAll(`${dir}/`, '').replaceAll(dir, '<case>').replaceAll(ROOT, '<golden>/');
    const diagnosticsFile = join(dir, 'diagnostics.txt');
    const desiredFile = join(dir, 'desired.json');
    const broken = UPDATE ? result.diagnostics.length > 0 : existsSync(diagnosticsFile);
    if (broken) {
      if (UPDATE) rmSync(desiredFile, { force: true });
      expect(result.value).toBeUndefined();
      expect(result.diagnostics.length).toBeGreaterThan(0);
      expectGolden(diagnosticsFile, relative(formatDiagnostics(result.diagnostics, result.sources)));
    } else {
      if (UPDATE) rmSync(diagnosticsFile, { force: true });
      expect(formatDiagnostics(result.diagnostics, result.sources)).toBe('');
      expect(result.value).toBeDefined();
      expectGolden(desiredFile, relative(desiredStateJson(result.value ?? { accounts: [] })));
    }
  });
});
