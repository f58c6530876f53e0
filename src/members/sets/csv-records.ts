/**
 * RFC 4180 records from the lines of a CSV file: comma-separated fields, a field in double quotes
 * may hold commas, line breaks and quotes doubled (`""`). A record spans lines while a quoted
 * field is open (an odd count of quotes so far); a trailing CR is dropped, so CR LF files read
 * like LF files. Malformed quoting (a quote inside an unquoted field, text after a closing quote,
 * a quoted field never closed) stops the reading at its line and column. Positions are all this
 * module reports: a message never carries the text of a field.
 */
import type { LineSink } from './line-splitter.js';

/** Receives the records of a CSV text. */
export interface CsvSink {
  /**
   * One record: its fields (unquoted) and the line it starts on; `raw` and `offset` are the
   * record's text and where it starts, for `fieldPosition` when a field must be pointed at.
   */
  record(fields: string[], line: number, raw: string, offset: number): void;
  /** Malformed CSV at a 1-based line and column; nothing is sent after it. */
  error(line: number, column: number, offset: number, message: string): void;
}

/** Where a field starts: its line, 1-based column and character offset in the file. */
export interface FieldPosition {
  line: number;
  column: number;
  offset: number;
}

const QUOTE = 0x22;
const COMMA = 0x2c;

function countQuotes(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) n++;
  return n;
}

/** Fields of a record without quotes, less a trailing CR; `indexOf` and `slice` beat `String.split` here threefold. */
function splitPlain(text: string): string[] {
  const end = text.charCodeAt(text.length - 1) === 0x0d ? text.length - 1 : text.length;
  const fields: string[] = [];
  let from = 0;
  for (let comma = text.indexOf(','); comma >= 0 && comma < end; comma = text.indexOf(',', from)) {
    fields.push(text.slice(from, comma));
    from = comma + 1;
  }
  fields.push(text.slice(from, end));
  return fields;
}

/** Fields of a record holding quotes, or the offset and message of its first syntax error. */
function parseQuoted(raw: string): string[] | { at: number; message: string } {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (raw.charCodeAt(i) === QUOTE) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const q = raw.indexOf('"', from);
        if (q < 0) return { at: i, message: 'a quoted field is not closed' };
        if (raw.charCodeAt(q + 1) === QUOTE) {
          value += raw.slice(from, q + 1);
          from = q + 2;
          continue;
        }
        value += raw.slice(from, q);
        i = q + 1;
        break;
      }
      fields.push(value);
      if (i === raw.length) return fields;
      if (raw.charCodeAt(i) !== COMMA) return { at: i, message: 'text follows a closing quote; a field must be quoted whole' };
      i++;
    } else {
      const comma = raw.indexOf(',', i);
      const end = comma < 0 ? raw.length : comma;
      const quote = raw.indexOf('"', i);
      if (quote >= 0 && quote < end) return { at: quote, message: 'a quote inside an unquoted field; quote the whole field and double the quote' };
      fields.push(raw.slice(i, end));
      if (comma < 0) return fields;
      i = comma + 1;
    }
  }
}

/** The line and column of `at` in a record that starts at `line`, `offset`. */
function positionIn(raw: string, at: number, line: number, offset: number): FieldPosition {
  let l = line;
  let lineStart = 0;
  for (let nl = raw.indexOf('\n'); nl >= 0 && nl < at; nl = raw.indexOf('\n', nl + 1)) {
    l++;
    lineStart = nl + 1;
  }
  return { line: l, column: at - lineStart + 1, offset: offset + at };
}

/** Where field `index` of a record starts (the record as `CsvSink.record` gave it). */
export function fieldPosition(raw: string, index: number, line: number, offset: number): FieldPosition {
  let at = 0;
  let inQuotes = false;
  let field = 0;
  for (let i = 0; i < raw.length && field < index; i++) {
    const c = raw.charCodeAt(i);
    if (c === QUOTE) inQuotes = !inQuotes;
    else if (c === COMMA && !inQuotes) {
      field++;
      at = i + 1;
    }
  }
  return positionIn(raw, at, line, offset);
}

/** A line sink that turns lines into CSV records. */
export class CsvRecords implements LineSink {
  private pending: string | undefined;
  private pendingQuotes = 0;
  private pendingLine = 0;
  private pendingOffset = 0;
  private failed = false;

  constructor(
    private readonly sink: CsvSink,
    private readonly maxRecordChars: number,
  ) {}

  line(text: string, line: number, offset: number): void {
    if (this.failed) return;
    if (this.pending !== undefined) {
      this.pending += `\n${text}`;
      this.pendingQuotes += countQuotes(text);
      if (this.pendingQuotes % 2 === 1) {
        if (this.pending.length > this.maxRecordChars) this.unclosed(this.pending, this.pendingLine, this.pendingOffset);
        return;
      }
      const raw = this.pending;
      this.pending = undefined;
      return this.quoted(raw, this.pendingLine, this.pendingOffset);
    }
    if (text.indexOf('"') < 0) return this.sink.record(splitPlain(text), line, text, offset);
    const quotes = countQuotes(text);
    if (quotes % 2 === 0) return this.quoted(text, line, offset);
    this.pending = text;
    this.pendingQuotes = quotes;
    this.pendingLine = line;
    this.pendingOffset = offset;
  }

  tooLong(line: number, offset: number): void {
    if (this.failed) return;
    this.failed = true;
    this.sink.error(line, 1, offset, `the line is longer than ${this.maxRecordChars} characters`);
  }

  /** Ends the text: a quoted field still open is an error at its record. */
  end(): void {
    if (this.failed || this.pending === undefined) return;
    this.unclosed(this.pending, this.pendingLine, this.pendingOffset);
  }

  /** Whether a syntax error stopped the records. */
  get stopped(): boolean {
    return this.failed;
  }

  /** A complete record holding quotes. */
  private quoted(text: string, line: number, offset: number): void {
    const raw = text.charCodeAt(text.length - 1) === 0x0d ? text.slice(0, -1) : text;
    const parsed = parseQuoted(raw);
    if (Array.isArray(parsed)) return this.sink.record(parsed, line, raw, offset);
    this.fail(raw, parsed.at, line, offset, parsed.message);
  }

  private fail(raw: string, at: number, line: number, offset: number, message: string): void {
    this.failed = true;
    this.pending = undefined;
    const p = positionIn(raw, at, line, offset);
    this.sink.error(p.line, p.column, p.offset, message);
  }

  /** An open quoted field at the end of the text or past the length limit: the record's first fault. */
  private unclosed(raw: string, line: number, offset: number): void {
    const parsed = parseQuoted(raw);
    if (Array.isArray(parsed)) this.fail(raw, 0, line, offset, 'a quoted field is not closed');
    else this.fail(raw, parsed.at, line, offset, parsed.message);
  }
}
