import { describe, expect, it } from 'vitest';
import { errorAt, hasErrors, sortDiagnostics, type Diagnostic } from '../../src/diag/diagnostic.js';
import { formatDiagnostic, formatDiagnostics } from '../../src/diag/format.js';
import type { SourceRange } from '../../src/diag/source-range.js';

function rangeIn(file: string, text: string, from: number, to: number): SourceRange {
  const position = (offset: number) => {
    const before = text.slice(0, offset).split('\n');
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, offset };
  };
  return { file, start: position(from), end: position(to) };
}

describe('formatDiagnostics', () => {
  const text = 'version: 1\ncampaigns:\n  summer:\n    daily_budget: "50.0000001"\n';
  const sources = new Map([['a.yaml', text]]);
  const at = text.indexOf('"50');

  it('prints file:line:col, severity, code and message, then the source line with a caret under the value', () => {
    const d = errorAt('money-precision', 'too many decimals', rangeIn('a.yaml', text, at, at + 12));
    expect(formatDiagnostic(d, sources)).toBe(
      ['a.yaml:4:19: error money-precision: too many decimals', '  4 |     daily_budget: "50.0000001"', '    |                   ^^^^^^^^^^^^'].join('\n'),
    );
  });

  it('underlines to the end of the line when the range spans lines, and shows one caret for an empty range', () => {
    const multi = formatDiagnostic(errorAt('x', 'm', rangeIn('a.yaml', text, text.indexOf('summer'), text.length)), sources);
    expect(multi.split('\n')[2]).toBe('    |   ^^^^^^^');
    const empty = formatDiagnostic(errorAt('x', 'm', rangeIn('a.yaml', text, 0, 0)), sources);
    expect(empty.split('\n')[2]).toBe('    | ^');
  });

  it('keeps tabs in the caret line so the caret lines up', () => {
    const tabbed = 'a:\t"b"\n';
    const line = formatDiagnostic(errorAt('x', 'm', rangeIn('t.yaml', tabbed, 3, 6)), new Map([['t.yaml', tabbed]])).split('\n')[2];
    expect(line).toBe('    |   \t^^^');
  });

  it('prints related locations as notes and diagnostics without a range on one line', () => {
    const first = rangeIn('a.yaml', text, 13, 22);
    const d = errorAt('duplicate-key', 'twice', rangeIn('a.yaml', text, 25, 31), [{ message: 'first here', range: first }]);
    expect(formatDiagnostic(d, sources).split('\n').at(-1)).toBe('  a.yaml:2:3: note: first here');
    expect(formatDiagnostics([errorAt('path-not-found', 'nope does not exist')], sources)).toBe('error path-not-found: nope does not exist\n');
    expect(formatDiagnostics([], sources)).toBe('');
  });

  it('omits the snippet when the source is unknown', () => {
    expect(formatDiagnostic(errorAt('x', 'm', rangeIn('other.yaml', text, 0, 1)), sources)).toBe('other.yaml:1:1: error x: m');
  });
});

describe('sortDiagnostics', () => {
  const text = 'a\nb\nc\n';
  const d = (code: string, file: string, offset: number): Diagnostic => errorAt(code, code, rangeIn(file, text, offset, offset + 1));

  it('orders by the given file order, then by position, with range-less diagnostics first, and drops exact repeats', () => {
    const sorted = sortDiagnostics([d('late', 'a.yaml', 4), d('z-file', 'z.yaml', 0), d('early', 'a.yaml', 0), errorAt('global', 'g'), d('b-first', 'b.yaml', 2), d('early', 'a.yaml', 0)], ['b.yaml', 'a.yaml']);
    expect(sorted.map((x) => x.code)).toEqual(['global', 'b-first', 'early', 'late', 'z-file']);
  });

  it('tells errors from warnings', () => {
    expect(hasErrors([{ severity: 'warning', code: 'w', message: 'm' }])).toBe(false);
    expect(hasErrors([errorAt('e', 'm')])).toBe(true);
  });
});
