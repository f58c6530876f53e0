/**
 * What the reading of a whole member file (member-file.ts) and of its header alone
 * (member-header.ts) share, so that `plan` and `validate` read a file alike and say the same of
 * it: line ends of CR alone, read as LF, and the problems of the file itself — empty, not UTF-8,
 * unreadable — each told by the file's name, a line and an offset, never by a byte of it.
 */
import { errorAt, type Diagnostic } from '../../diag/diagnostic.js';
import type { NotUtf8 } from './utf8-text.js';

/** The bytes a member file is read in: far more than a line may hold, so the first chunk tells how lines end. */
export const CHUNK_BYTES = 1 << 20;

/**
 * Whether a file ends its lines with CR alone (classic Mac), told by its first decoded text (far
 * longer than a line may be): CRs and no LF at all. Undefined until some text was read.
 */
export function endsLinesWithCr(first: string): boolean | undefined {
  return first.length === 0 ? undefined : !first.includes('\n') && first.includes('\r');
}

/** A file's text as lines are split: with CR-only line ends, each CR is a line end. */
export function asLines(text: string, crOnly: boolean | undefined): string {
  return crOnly === true ? text.replaceAll('\r', '\n') : text;
}

/** A CSV member file without a single line. */
export function emptyMemberFile(file: string): Diagnostic {
  const start = { line: 1, column: 1, offset: 0 };
  return errorAt('audience-file-header', `the member file ${file} is empty: a CSV member file starts with a header naming its columns`, { file, start, end: start });
}

/** A member file that stops being UTF-8 where `at` says. */
export function memberFileNotUtf8(file: string, at: NotUtf8): Diagnostic {
  const start = { line: at.line, column: 1, offset: at.offset };
  return errorAt('audience-file-encoding', `the member file ${file} is not UTF-8: byte ${at.offset} (on line ${at.line}) is not valid UTF-8; save the file as UTF-8 (for example: iconv -f LATIN1 -t UTF-8)`, { file, start, end: start });
}

/** A member file the system would not let adsctl read (the error's code: EACCES, EISDIR, ...). */
export function unreadableMemberFile(file: string, code: string): Diagnostic {
  return errorAt('audience-file-unreadable', `cannot read the member file ${file} (${code})`);
}
