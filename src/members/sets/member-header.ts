/**
 * `readMemberHeader`: the header of a CSV member file, read alone — as far as its first record,
 * through the reader a plan reads the whole file with (member-reader.ts), so `adsctl validate`
 * refuses a header exactly as `plan` does (the same codes, positions and messages) without
 * reading one identifier. What is read is decoded as a plan decodes it, so a byte that is not
 * UTF-8 among it is refused alike. The bytes come from a file its caller opened and checked, in
 * chunks of `CHUNK_BYTES` as a plan reads them (the first chunk tells how lines end).
 */
import type { Diagnostic } from '../../diag/diagnostic.js';
import { CsvRecords, type CsvSink } from './csv-records.js';
import { LineSplitter } from './line-splitter.js';
import { MAX_LINE_CHARS, MemberReader } from './member-reader.js';
import { asLines, emptyMemberFile, endsLinesWithCr, memberFileNotUtf8 } from './member-text.js';
import { Utf8Text } from './utf8-text.js';

/** A sink that hands the reader the first record (the header) and its faults, and nothing after it. */
class FirstRecord implements CsvSink {
  records = 0;

  constructor(private readonly reader: MemberReader) {}

  record(fields: string[], line: number, raw: string, offset: number): void {
    if (this.records++ === 0) this.reader.record(fields, line, raw, offset);
  }

  error(line: number, column: number, offset: number, message: string): void {
    if (this.records === 0) this.reader.error(line, column, offset, message);
  }
}

/**
 * The problems of the header of a CSV member file (shown as `file`) whose bytes `chunks` gives,
 * as a plan reports them; none when it is a header. Stops reading once the header is read.
 */
export async function readMemberHeader(chunks: AsyncIterable<Buffer>, file: string): Promise<Diagnostic[]> {
  const reader = new MemberReader(file, undefined, undefined);
  const first = new FirstRecord(reader);
  const csv = new CsvRecords(first, MAX_LINE_CHARS);
  const splitter = new LineSplitter(csv, MAX_LINE_CHARS);
  const text = new Utf8Text();
  let crOnly: boolean | undefined;
  let ended = true;
  for await (const chunk of chunks) {
    const decoded = text.push(chunk);
    if (typeof decoded !== 'string') return [memberFileNotUtf8(file, decoded)];
    crOnly ??= endsLinesWithCr(decoded);
    splitter.push(asLines(decoded, crOnly));
    if (first.records > 0 || reader.stopped) {
      ended = false;
      break;
    }
  }
  if (ended) {
    const notUtf8 = text.end();
    if (notUtf8 !== undefined) return [memberFileNotUtf8(file, notUtf8)];
    splitter.end();
    csv.end();
  }
  if (reader.stopped) return reader.diagnostics;
  return splitter.lines === 0 ? [emptyMemberFile(file)] : [];
}
