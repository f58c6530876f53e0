/**
 * The reading of a member file's records: the header (CSV) or the one type (a file of one value a
 * line), then each value normalised, counted and added to the set. Invalid values are counted
 * with their line numbers; problems with the file itself (header, CSV syntax) stop the reading
 * with a diagnostic at the file, line and column. No message carries a value from the file: a
 * header cell is named only once the header is known to be one (it names at least one
 * identifier type), so a file whose header is missing never has its first line printed.
 */
import { errorAt, type Diagnostic } from '../../diag/diagnostic.js';
import type { SourceRange } from '../../diag/source-range.js';
import { fieldPosition, type CsvSink, type FieldPosition } from './csv-records.js';
import { IDENTIFIER_TYPES, isIdentifierType, type IdentifierType } from './identifier.js';
import type { LineSink } from './line-splitter.js';
import { INVALID_LINES_KEPT, emptyCounts, type MemberFileCounts } from './member-counts.js';
import { MemberSetBuilder } from './member-builder.js';
import { normaliseIdentifier } from './normalise.js';

/** The first invalid identifier: where it is and its type (never its value). */
export interface FirstInvalid {
  type: IdentifierType;
  range: SourceRange;
}

const TYPES_LIST = IDENTIFIER_TYPES.join(', ');

/** The longest line (or CSV record) a member file may have, in characters: the reader never holds more than this of one line. */
export const MAX_LINE_CHARS = 65_536;


/** Reads records into a member set; `stopped` once a diagnostic ends the reading (later input is ignored). */
export class MemberReader implements CsvSink, LineSink {
  readonly counts: MemberFileCounts = emptyCounts();
  readonly builder = new MemberSetBuilder(true);
  readonly diagnostics: Diagnostic[] = [];
  first: FirstInvalid | undefined;
  stopped = false;
  /** The type of each column; undefined until the header is read (CSV). */
  private columns: IdentifierType[] | undefined;
  private lastInvalidLine = 0;

  constructor(
    private readonly file: string,
    private readonly region: string | undefined,
    type: IdentifierType | undefined,
  ) {
    if (type !== undefined) this.columns = [type];
  }

  private range(p: FieldPosition, length: number): SourceRange {
    const start = { line: p.line, column: p.column, offset: p.offset };
    return { file: this.file, start, end: { line: p.line, column: p.column + Math.max(length, 1), offset: p.offset + Math.max(length, 1) } };
  }

  private stop(code: string, message: string, p: FieldPosition, length: number): void {
    this.stopped = true;
    this.diagnostics.push(errorAt(code, message, this.range(p, length)));
  }

  /** A line of a file of one value a line (`type` given): the whole line, trimmed (CR included), is the value. */
  line(text: string, line: number, offset: number): void {
    if (this.stopped) return;
    this.counts.lines++;
    this.value(0, text, line, text, offset);
  }

  tooLong(line: number, offset: number): void {
    if (this.stopped) return;
    this.stop('audience-file-syntax', `the line is longer than ${MAX_LINE_CHARS} characters`, { line, column: 1, offset }, 1);
  }

  record(fields: string[], line: number, raw: string, offset: number): void {
    if (this.stopped) return;
    const columns = this.columns;
    if (columns === undefined) return this.header(fields, line, raw, offset);
    this.counts.lines += countLines(raw);
    if (fields.length > columns.length) {
      const p = fieldPosition(raw, columns.length, line, offset);
      return this.stop('audience-file-syntax', `the line has ${fields.length} fields but the header names ${columns.length} columns`, p, 1);
    }
    for (let j = 0; j < fields.length; j++) this.value(j, fields[j]!, line, raw, offset);
  }

  error(line: number, column: number, offset: number, message: string): void {
    if (this.stopped) return;
    this.stop('audience-file-syntax', message, { line, column, offset }, 1);
  }

  /** Cell `column` of the record `raw` (starting at `line`, `offset`). */
  private value(column: number, cell: string, line: number, raw: string, offset: number): void {
    const text = cell.trim();
    if (text === '') return;
    const type = this.columns![column]!;
    const byType = this.counts.byType[type];
    const value = normaliseIdentifier(type, text, this.region);
    if (value !== undefined) {
      byType.valid++;
      this.counts.valid++;
      this.builder.add(type, value);
      return;
    }
    byType.invalid++;
    this.counts.invalid++;
    if (this.first === undefined) this.first = { type, range: this.range(fieldPosition(raw, column, line, offset), cell.length) };
    if (line !== this.lastInvalidLine) {
      this.lastInvalidLine = line;
      this.counts.invalidLineCount++;
      if (this.counts.invalidLines.length < INVALID_LINES_KEPT) this.counts.invalidLines.push(line);
    }
  }

  /** The header: each cell (trimmed, any case) an identifier type, each type once. */
  private header(fields: string[], line: number, raw: string, offset: number): void {
    const names = fields.map((f) => f.trim().toLowerCase());
    if (!names.some(isIdentifierType)) {
      return this.stop(
        'audience-file-header',
        `the first line names no identifier type: a CSV member file starts with a header naming its columns (${TYPES_LIST}); a file of one identifier a line needs its type given`,
        { line, column: 1, offset },
        1,
      );
    }
    const seen = new Map<string, number>();
    names.forEach((name, j) => {
      const first = seen.get(name);
      const problem =
        name === ''
          ? `column ${j + 1} of the header is empty; the columns are identifier types: ${TYPES_LIST}`
          : !isIdentifierType(name)
            ? `column ${j + 1} of the header names no identifier type; the columns are identifier types: ${TYPES_LIST}`
            : first !== undefined
              ? `the header names ${name} twice (columns ${first + 1} and ${j + 1})`
              : undefined;
      if (first === undefined) seen.set(name, j);
      if (problem !== undefined) this.stop('audience-file-header', problem, fieldPosition(raw, j, line, offset), fields[j]!.length);
    });
    if (!this.stopped) this.columns = names as IdentifierType[];
  }
}

/** Physical lines of a record (more than one when a quoted field holds line breaks). */
function countLines(raw: string): number {
  let n = 1;
  for (let i = raw.indexOf('\n'); i >= 0; i = raw.indexOf('\n', i + 1)) n++;
  return n;
}
