/**
 * Reading one manifest file: its bytes, decoded strictly as UTF-8. A file that cannot be read,
 * or is not UTF-8, becomes a diagnostic instead of a source, and is not checked any further. A
 * manifest is read as the files it names are (project-file.ts): only a regular file whose real
 * path lies inside its project root, so a FIFO never holds the run and a link to a file elsewhere
 * (the process environment, a key) is never read, nor shown in a message about its lines.
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourcePosition } from '../diag/source-range.js';
import { readProjectFileSync } from './project-file.js';
import { decodeUtf8 } from './utf8.js';

/** Manifests have no size limit of the service; the YAML reader bounds what they may hold. */
const ANY_SIZE = { bytes: Number.MAX_SAFE_INTEGER, what: 'a manifest' };

/** A file's text, or the diagnostic that says why there is none; `shown` is text to quote its line from. */
type ReadSource = { text: string; diagnostic?: undefined } | { text?: undefined; diagnostic: Diagnostic; shown?: string };

function positionIn(text: string, offset: number): SourcePosition {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return { line, column: offset - lineStart + 1, offset };
}

/** Reads and decodes the manifest at `file` (a path as shown to the user), which must lie inside the project root `root`. */
export function readManifestSource(file: string, root: string): ReadSource {
  const read = readProjectFileSync({ path: file, shownAs: file, root, limit: ANY_SIZE, noun: 'manifest' });
  if (read.problem !== undefined) return { diagnostic: errorAt(read.problem.code, read.problem.message) };
  const decoded = decodeUtf8(read.bytes);
  if (decoded.ok) return { text: decoded.text };
  const hex = decoded.byte.toString(16).toUpperCase().padStart(2, '0');
  const start = positionIn(decoded.text, decoded.at);
  const end = { line: start.line, column: start.column + 1, offset: start.offset + 1 };
  const message = `the file is not valid UTF-8: byte 0x${hex} at byte offset ${decoded.offset} is not part of a UTF-8 character; save it as UTF-8`;
  return { diagnostic: errorAt('invalid-utf8', message, { file, start, end }), shown: decoded.text };
}
