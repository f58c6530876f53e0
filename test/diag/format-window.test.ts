/**
 * Long source lines: the snippet under a diagnostic shows a window of the line around the range,
 * never the whole line, and long messages are cut, so a hostile manifest cannot flood the output.
 */
import { describe, expect, it } from 'vitest';
import { errorAt } from '../../src/diag/diagnostic.js';
import { formatDiagnostic, SNIPPET_COLUMNS } from '../../src/diag/format.js';
import type { SourceRange } from '../../src/diag/source-range.js';

function rangeIn(file: string, text: string, from: number, to: number): SourceRange {
  const position = (offset: number) => {
    const before = text.slice(0, offset).split('\n');
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, offset };
  };
  return { file, start: position(from), end: position(to) };
}

function show(text: string, from: number, to: number, message = 'm'): string[] {
  return formatDiagnostic(errorAt('x', message, rangeIn('a.yaml', text, from, to)), new Map([['a.yaml', text]])).split('\n');
}

const caretColumn = (lines: string[]): number => (lines[2] ?? '').indexOf('^');

describe('snippets of long lines', () => {
  it('shows a window around a value in the middle of a 10 MB line, marked with … on both sides', () => {
    const value = 'x'.repeat(10_000_000);
    const text = `version: 1\naccount: { id: a, name: "${value}", industry_type: OTHER }\n`;
    const at = text.indexOf('"x');
    const lines = show(text, at, at + value.length + 2);
    expect(lines.join('\n').length).toBeLessThan(400);
    expect(lines[1]).toBe(`  2 | account: { id: a, name: "${'x'.repeat(SNIPPET_COLUMNS - 25)}…`);
    expect(caretColumn(lines)).toBe((lines[1] ?? '').indexOf('"'));
    expect(lines[2]).toMatch(/\^+$/);
    expect((lines[2] ?? '').length).toBe((lines[1] ?? '').length - 1);
  });

  it('starts the window shortly before a range far into the line, so the caret stays under it', () => {
    const text = `k: [${'1, '.repeat(100_000)}oops, 2]\n`;
    const at = text.indexOf('oops');
    const lines = show(text, at, at + 4);
    expect(lines[1]?.startsWith('  1 | …')).toBe(true);
    expect(lines[1]?.endsWith('oops, 2]')).toBe(true);
    expect((lines[1] ?? '').length).toBeLessThanOrEqual(SNIPPET_COLUMNS + 8);
    expect(lines[2]?.endsWith('^^^^')).toBe(true);
    expect(caretColumn(lines)).toBe((lines[1] ?? '').indexOf('oops'));
  });

  it('shows the line in full when it fits', () => {
    const text = `name: ${'y'.repeat(SNIPPET_COLUMNS - 6)}\n`;
    expect(show(text, 6, text.length - 1)[1]).toBe(`  1 | ${text.trimEnd()}`);
  });

  it('keeps tabs before the range in the caret line', () => {
    const text = `a:\t${'z'.repeat(300)}\tb: [oops]\n`;
    const at = text.indexOf('oops');
    const lines = show(text, at, at + 4);
    expect(lines[2]).toContain('\t');
    expect(caretColumn(lines)).toBe((lines[1] ?? '').indexOf('oops'));
  });

  it('cuts a message that quotes a huge value', () => {
    const text = 'a: b\n';
    const lines = show(text, 0, 1, `bad value "${'q'.repeat(1_000_000)}"`);
    expect((lines[0] ?? '').length).toBeLessThan(1_200);
    expect(lines[0]?.endsWith('…')).toBe(true);
  });
});
