/**
 * Renders diagnostics for people: `file:line:col: error CODE: message`, then the source line with
 * a caret under the offending key or value, then any related locations as notes. Plain text, no
 * colour, so the output is the same in a terminal, a CI log and a golden file. A long source line
 * is shown as a window around the range, and long messages are cut, so the output of a file
 * with a 10 MB value stays a few lines long. The password of a URL is never printed, nor a
 * control character of the source as it is.
 */
import type { Diagnostic } from './diagnostic.js';
import { clipText, CUT_MARK } from './quote.js';
import { redactUserinfo } from './redact.js';
import { formatPosition, type SourceRange } from './source-range.js';

/** The text of each source file by path, as read when the diagnostics were made. */
export type SourceTexts = ReadonlyMap<string, string>;

/** The most characters of a source line a snippet shows. */
export const SNIPPET_COLUMNS = 120;

/** How many characters before the range a window of a long line starts. */
const LEAD_COLUMNS = 40;

/** The most characters of a message (or a related note) printed. */
const MESSAGE_LIMIT = 1_000;

/** How far around the shown part of a line (or message) a URL's credentials are looked for. */
const REDACT_MARGIN = 4 * MESSAGE_LIMIT;

/** A message cut to the limit, with URL credentials hidden (looked for in a bounded prefix, so it stays fast). */
function shownMessage(message: string): string {
  return clipText(redactUserinfo(clipText(message, REDACT_MARGIN)), MESSAGE_LIMIT);
}

function lineAt(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  if (end > start && text[end - 1] === '\r') end -= 1;
  return { start, end };
}

/** The part of a line of `length` characters shown for a range starting at `from`. */
function windowOf(length: number, from: number): { start: number; end: number } {
  if (length <= SNIPPET_COLUMNS) return { start: 0, end: length };
  const start = Math.max(0, Math.min(from - LEAD_COLUMNS, length - SNIPPET_COLUMNS));
  return { start, end: start + SNIPPET_COLUMNS };
}

/**
 * A source line with each control character but the tab shown as its picture (U+0000 as ␀, U+007F
 * as ␡): one character for one, so the caret stays under it, and nothing written to the terminal
 * acts as a control (an escape sequence, a bell, a carriage return).
 */
function pictured(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, (c) => String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)));
}

function snippet(range: SourceRange, sources: SourceTexts): string[] {
  const text = sources.get(range.file);
  if (text === undefined || range.start.offset > text.length) return [];
  const line = lineAt(text, range.start.offset);
  const length = line.end - line.start;
  const from = range.start.offset - line.start;
  const to = range.end.line === range.start.line ? Math.min(range.end.offset - line.start, length) : length;
  const shown = windowOf(length, from);
  const before = shown.start > 0 ? CUT_MARK : '';
  const after = shown.end < length ? CUT_MARK : '';
  const around = Math.max(line.start, line.start + shown.start - REDACT_MARGIN);
  const redacted = redactUserinfo(text.slice(around, Math.min(line.end, line.start + shown.end + REDACT_MARGIN)), { keepLength: true });
  const visible = pictured(redacted.slice(line.start + shown.start - around, line.start + shown.end - around));
  const gutter = String(range.start.line);
  const pad = ' '.repeat(gutter.length);
  const indent = ' '.repeat(before.length) + visible.slice(0, Math.max(0, from - shown.start)).replace(/[^\t]/g, ' ');
  const carets = '^'.repeat(Math.max(1, Math.min(to, shown.end) - Math.max(from, shown.start)));
  return [`  ${gutter} | ${before}${visible}${after}`, `  ${pad} | ${indent}${carets}`];
}

/** Renders one diagnostic as lines of text (no trailing newline). */
export function formatDiagnostic(diagnostic: Diagnostic, sources: SourceTexts): string {
  const where = diagnostic.range === undefined ? '' : `${formatPosition(diagnostic.range)}: `;
  const lines = [`${where}${diagnostic.severity} ${diagnostic.code}: ${shownMessage(diagnostic.message)}`];
  if (diagnostic.range !== undefined) lines.push(...snippet(diagnostic.range, sources));
  for (const related of diagnostic.related ?? []) lines.push(`  ${formatPosition(related.range)}: note: ${shownMessage(related.message)}`);
  return lines.join('\n');
}

/** Renders diagnostics in the order given, separated by blank lines, ending with a newline. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], sources: SourceTexts): string {
  return diagnostics.length === 0 ? '' : `${diagnostics.map((d) => formatDiagnostic(d, sources)).join('\n\n')}\n`;
}
