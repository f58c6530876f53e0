/**
 * `readMemberFile`: a file of user identifiers → the distinct members of a custom audience, with
 * counts. The file is streamed (one chunk and one unfinished line in memory at a time); each
 * value is normalised and hashed as soon as it is read, and only its 32-byte digest is kept.
 * The file must be UTF-8 (anything else is refused at its first bad byte). Two forms: a CSV
 * (RFC 4180; LF, CR LF, or CR alone throughout; optional byte order mark) whose header names
 * identifier types (a line may have fewer fields than the header, read as empty, not more), or,
 * with `type`, one identifier a line without header. Blank cells and lines are skipped. Problems
 * are values: the file, line and column, never a value from the file.
 */
import { createReadStream } from 'node:fs';
import { errorAt, type Diagnostic } from '../../diag/diagnostic.js';
import { CsvRecords } from './csv-records.js';
import { IDENTIFIER_TYPES, isIdentifierType, type IdentifierType } from './identifier.js';
import { LineSplitter } from './line-splitter.js';
import { emptyCounts, formatCount, mostlyInvalid, type MemberFileCounts } from './member-counts.js';
import { MAX_LINE_CHARS, MemberReader, type FirstInvalid } from './member-reader.js';
import { Utf8Text, type NotUtf8 } from './utf8-text.js';
import { asLines, CHUNK_BYTES, emptyMemberFile, endsLinesWithCr, memberFileNotUtf8, unreadableMemberFile } from './member-text.js';
import { memberCount, type MemberSet } from './member-set.js';
import { INVALID_REASON } from './normalise.js';
import { isPhoneRegion } from './phone-number.js';

/** How a member file is read. */
interface MemberFileOptions {
  /** The type of every line of a file of one identifier a line, without header; absent: a CSV with a header. */
  type?: IdentifierType;
  /** ISO 3166-1 alpha-2 region (`US`, `GB`) of phone numbers written without `+` and calling code. */
  defaultRegion?: string;
  /** The file's name as diagnostics show it (a path relative to the manifest); default: `path`. */
  shownAs?: string;
  /**
   * The file's bytes, from a file its caller opened and checked (src/manifest/project-file.ts);
   * default: the file at `path`, opened here.
   */
  chunks?: (chunkBytes: number) => AsyncIterable<Buffer>;
}

/** A member file read. */
interface MemberFile {
  members: MemberSet;
  counts: MemberFileCounts;
}

/**
 * The outcome of `readMemberFile`: `value` when the file could be used; `counts` as far as the
 * reading went, also on failure; `diagnostics` hold the errors that failed it and a warning
 * summing up invalid identifiers.
 */
export interface MemberFileResult {
  value: MemberFile | undefined;
  counts: MemberFileCounts;
  diagnostics: Diagnostic[];
}

function failed(counts: MemberFileCounts, diagnostics: Diagnostic[]): MemberFileResult {
  return { value: undefined, counts, diagnostics };
}

/** The summary of invalid identifiers: how many, of which types, on which lines; an error when they are the majority. */
function invalidSummary(counts: MemberFileCounts, first: FirstInvalid): Diagnostic {
  const types = IDENTIFIER_TYPES.filter((t) => counts.byType[t].invalid > 0).map((t) => `${formatCount(counts.byType[t].invalid)} ${t}`);
  const lines = counts.invalidLines.join(', ') + (counts.invalidLineCount > counts.invalidLines.length ? `, and ${formatCount(counts.invalidLineCount - counts.invalidLines.length)} more` : '');
  const total = counts.valid + counts.invalid;
  const head = mostlyInvalid(counts)
    ? `${formatCount(counts.invalid)} of ${formatCount(total)} identifiers are invalid, more than half: check the file's columns and format`
    : `${formatCount(counts.invalid)} of ${formatCount(total)} identifiers are invalid and left out`;
  const message = `${head} (${types.join(', ')}; on lines ${lines}); the first is ${INVALID_REASON[first.type]}`;
  if (mostlyInvalid(counts)) return errorAt('audience-mostly-invalid', message, first.range);
  return { severity: 'warning', code: 'audience-invalid-identifiers', message, range: first.range };
}

/**
 * Reads the member file at `path`. The value is absent when the file cannot be read, its header
 * or CSV syntax is wrong, or more than half of its identifiers are invalid; the diagnostics then
 * hold an error. Never throws for a problem of the file.
 */
export async function readMemberFile(path: string, options: MemberFileOptions = {}): Promise<MemberFileResult> {
  const file = options.shownAs ?? path;
  const region = options.defaultRegion?.toUpperCase();
  if (region !== undefined && !isPhoneRegion(region)) {
    return failed(emptyCounts(), [errorAt('audience-default-region', `the default region ${JSON.stringify(options.defaultRegion)} of ${file} is not an ISO 3166-1 alpha-2 region code`)]);
  }
  if (options.type !== undefined && !isIdentifierType(options.type)) {
    return failed(emptyCounts(), [errorAt('audience-file-type', `the type ${JSON.stringify(options.type)} of ${file} is not an identifier type (${IDENTIFIER_TYPES.join(', ')})`)]);
  }

  const reader = new MemberReader(file, region, options.type);
  const csv = options.type === undefined ? new CsvRecords(reader, MAX_LINE_CHARS) : undefined;
  const splitter = new LineSplitter(csv ?? reader, MAX_LINE_CHARS);
  try {
    const text = new Utf8Text();
    /** Whether the file ends its lines with CR alone (classic Mac): read as if each were LF. */
    let crOnly: boolean | undefined;
    let notUtf8: NotUtf8 | undefined;
    for await (const chunk of options.chunks?.(CHUNK_BYTES) ?? createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
      const decoded = text.push(chunk as Buffer);
      if (typeof decoded !== 'string') {
        notUtf8 = decoded;
        break;
      }
      crOnly ??= endsLinesWithCr(decoded);
      splitter.push(asLines(decoded, crOnly));
      if (reader.stopped) break;
      await reader.builder.backlog();
    }
    notUtf8 ??= reader.stopped ? undefined : text.end();
    if (notUtf8 !== undefined) {
      reader.builder.close();
      return failed(reader.counts, [memberFileNotUtf8(file, notUtf8)]);
    }
    splitter.end();
    csv?.end();
  } catch (error) {
    reader.builder.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    return failed(reader.counts, [unreadableMemberFile(file, code)]);
  }
  if (reader.stopped || (csv !== undefined && splitter.lines === 0)) {
    reader.builder.close();
    if (reader.stopped) return failed(reader.counts, reader.diagnostics);
    return failed(reader.counts, [emptyMemberFile(file)]);
  }

  const counts = reader.counts;
  const members = await reader.builder.finish();
  for (const t of IDENTIFIER_TYPES) counts.byType[t].duplicates = counts.byType[t].valid - memberCount(members, t);
  counts.duplicates = counts.valid - memberCount(members);
  const diagnostics: Diagnostic[] = reader.first === undefined ? [] : [invalidSummary(counts, reader.first)];
  if (mostlyInvalid(counts)) return failed(counts, diagnostics);
  return { value: { members, counts }, counts, diagnostics };
}
