/**
 * Values of any size get diagnostics of a bounded size: the source line is shown as a window
 * around the value and messages quote at most a short prefix of it. The inputs are made here, in
 * a temporary directory, rather than committed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../../src/diag/format.js';
import { loadManifests } from '../../src/manifest/load.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-huge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BIG = 'x'.repeat(10_000_000);
const LARGE = 'x'.repeat(1_000_000);
const HEAD = 'version: 1\nendpoint: local\n';

function validate(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const result = loadManifests(file);
  return { ...result, file, output: formatDiagnostics(result.diagnostics, result.sources) };
}

describe('huge values', () => {
  it('a 10 MB name: one schema-max-length error, a windowed source line, a few hundred bytes of output', () => {
    const { diagnostics, output, file, value } = validate('name.yaml', `${HEAD}account: { id: a, name: "${BIG}" }\n`);
    expect(value).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(['schema-max-length']);
    expect(output.length).toBeLessThan(600);
    const lines = output.split('\n');
    expect(lines[0]).toBe(`${file}:3:25: error schema-max-length: name is 10000000 characters long; at most 255 are allowed`);
    expect(lines[1]).toMatch(/^ {2}3 \| account: \{ id: a, name: "x+…$/);
    expect(lines[2]).toMatch(/^ {4}\| {25}\^+$/);
  });

  it('a 1 MB duplicate key: the key is quoted in part', () => {
    const { diagnostics, output } = validate('dup.yaml', `${HEAD}account: { id: a }\nx-keys: { "${LARGE}": 1, "${LARGE}": 2 }\n`);
    expect(diagnostics.map((d) => d.code)).toEqual(['duplicate-key']);
    expect(output.length).toBeLessThan(1_000);
    expect(output).toContain('duplicate key "xxxxx');
    expect(output).toContain('…"');
  });

  it('1 MB values as a reference, a money amount, an id and an unknown field: every message and line stays short', () => {
    const text = [
      HEAD,
      'account: { id: a }\n',
      'funding_instruments: { main: { id: lygyi } }\n',
      'campaigns:\n',
      '  c:\n',
      `    funding_instrument: "${LARGE}"\n`,
      `    daily_budget: "${LARGE}"\n`,
      '    name: Campaign\n',
      `    x-note: { "${LARGE}": 1 }\n`,
      `  "${LARGE}":\n`,
      '    funding_instrument_id: lygyi\n',
      '    name: Other\n',
      `    ${'k'.repeat(1_000)}: 1\n`,
    ].join('');
    const { diagnostics, output } = validate('many.yaml', text);
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const line of output.split('\n')) expect(line.length).toBeLessThan(1_200);
    expect(output.length).toBeLessThan(10_000);
  });
});
