/**
 * Where something is written: a file and a span of it. Every diagnostic and every resource and
 * attribute of the desired state carries one, so any stage can point back into the YAML.
 */

/** A point in a source file: 1-based line and column (UTF-16 code units), and the 0-based offset. */
export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

/** A span of a source file, `start` inclusive and `end` exclusive. `file` is the path as shown to the user. */
export interface SourceRange {
  file: string;
  start: SourcePosition;
  end: SourcePosition;
}

/** `file:line:col` of the start of a range, the form editors and CI annotations understand. */
export function formatPosition(range: SourceRange): string {
  return `${range.file}:${range.start.line}:${range.start.column}`;
}

/** Orders ranges by file name, then by start offset, then by end offset. */
export function compareRanges(a: SourceRange, b: SourceRange): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.start.offset - b.start.offset || a.end.offset - b.end.offset;
}
