/**
 * Renders diagnostics for people: `file:line:col: error CODE: message`, then the source line with
 * a caret under the offending key or value, then any related locations as notes. Plain text, no
 * colour, so the output is the same in a terminal, a CI log and a golden file.
 */
import type { Diagnostic } from './diagnostic.js';
import { formatPosition, type SourceRange } from './source-range.js';

/** The text of each source file by path, as read when the diagnostics were made. */
export type SourceTexts = ReadonlyMap<string, string>;

function lineAt(text: string, offset: number): { text: string; start: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  if (end > start && text[end - 1] === '\r') end -= 1;
  return { text: text.slice(start, end), start };
}

function snippet(range: SourceRange, sources: SourceTexts): string[] {
  const text = sources.get(range.file);
  if (text === undefined || range.start.offset > text.length) return [];
  const line = lineAt(text, range.start.offset);
  const from = range.start.offset - line.start;
  const to = range.end.line === range.start.line ? Math.min(range.end.offset - line.start, line.text.length) : line.text.length;
  const gutter = String(range.start.line);
  const pad = ' '.repeat(gutter.length);
  const indent = line.text.slice(0, from).replace(/[^\t]/g, ' ');
  const carets = '^'.repeat(Math.max(1, to - from));
  return [`  ${gutter} | ${line.text}`, `  ${pad} | ${indent}${carets}`];
}

/** Renders one diagnostic as lines of text (no trailing newline). */
export function formatDiagnostic(diagnostic: Diagnostic, sources: SourceTexts): string {
  const where = diagnostic.range === undefined ? '' : `${formatPosition(diagnostic.range)}: `;
  const lines = [`${where}${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}`];
  if (diagnostic.range !== undefined) lines.push(...snippet(diagnostic.range, sources));
  for (const related of diagnostic.related ?? []) lines.push(`  ${formatPosition(related.range)}: note: ${related.message}`);
  return lines.join('\n');
}

/** Renders diagnostics in the order given, separated by blank lines, ending with a newline. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], sources: SourceTexts): string {
  return diagnostics.length === 0 ? '' : `${diagnostics.map((d) => formatDiagnostic(d, sources)).join('\n\n')}\n`;
}
