/**
 * Members at the top of a state file, read without parsing the whole file. A state
 * file names its account before its resources (state-file.ts writes `account` and `account_id`
 * first), so listing the accounts of a directory reads a few hundred bytes of each file instead
 * of tens of megabytes. Anything the scan does not understand is left to `JSON.parse` of the
 * whole file, which is what the scan stands in for.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** Bytes read from the start of the file before giving up on the scan. */
const HEAD_BYTES = 64 * 1024;

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** Where the JSON string starting at `at` (its opening quote) ends, after the closing quote; -1 when it does not end in `text`. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
  }
  return -1;
}

/** Where the JSON value starting at `at` ends; -1 when it does not end in `text` or is not JSON. */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first !== '{' && first !== '[') {
    let i = at;
    while (i < text.length && !WHITESPACE.has(text[i]!) && text[i] !== ',' && text[i] !== '}' && text[i] !== ']') i++;
    return i === at || i === text.length ? -1 : i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function skipWhitespace(text: string, at: number): number {
  let i = at;
  while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  return i;
}

/**
 * The values of the `wanted` members of the top-level object of `text` (the first of each), as
 * far as `text` goes; `complete` says whether every wanted member was found, or the object ended,
 * inside `text`. Incomplete means nothing may be concluded from `values`.
 */
export function scanTopLevel(text: string, wanted: readonly string[]): { values: Map<string, unknown>; complete: boolean } {
  const values = new Map<string, unknown>();
  let i = skipWhitespace(text, 0);
  if (text[i] !== '{') return { values, complete: false };
  i++;
  for (;;) {
    i = skipWhitespace(text, i);
    if (text[i] === '}') return { values, complete: true };
    if (text[i] !== '"') return { values, complete: false };
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return { values, complete: false };
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    if (text[i] !== ':') return { values, complete: false };
    i = skipWhitespace(text, i + 1);
    const end = valueEnd(text, i);
    if (end < 0) return { values, complete: false };
    if (wanted.includes(key) && !values.has(key)) {
      try {
        values.set(key, JSON.parse(text.slice(i, end)));
      } catch {
        return { values, complete: false };
      }
      if (wanted.every((w) => values.has(w))) return { values, complete: true };
    }
    i = skipWhitespace(text, end);
    if (text[i] === ',') i++;
    else if (text[i] === '}') return { values, complete: true };
    else return { values, complete: false };
  }
}

/**
 * The top-level members `wanted` of the JSON file at `path`: read from its first bytes when they
 * hold them, else from the whole file. Undefined when the file is not a JSON object.
 */
export function readTopLevel(path: string, wanted: readonly string[], readWhole: () => string): Map<string, unknown> | undefined {
  const fd = openSync(path, 'r');
  let head: string;
  let whole: boolean;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    whole = read < HEAD_BYTES;
    // a cut may fall inside a character: the scan then stops before it and the whole file is read
    head = buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
  if (!whole) {
    const scanned = scanTopLevel(head, wanted);
    if (scanned.complete) return scanned.values;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(whole ? head : readWhole());
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const values = new Map<string, unknown>();
  for (const key of wanted) if (Object.hasOwn(parsed, key)) values.set(key, (parsed as Record<string, unknown>)[key]);
  return values;
}
