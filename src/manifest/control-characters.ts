/**
 * Control characters in a manifest's values: a NUL, a bell or an escape written into a name (or
 * coming in through `${env:NAME}`) would be sent to the service as it is. Every string value of a
 * manifest — names, descriptions, titles, URLs, ids, the entries of its lists — refuses U+0000 to
 * U+001F and U+007F, each at the character itself where the value is written on one line, else at
 * the value. A field a descriptor marks `multiline` (a post's text) holds lines: a line break (LF)
 * and a tab are its own, every other control character is refused there too. Keys are logical
 * names, never sent, and the `x-` sections are read only where an alias brings them in.
 */
import { quoteValue } from '../diag/quote.js';
import { DESCRIPTORS } from '../kinds/registry.js';
import { report, type FileContext } from './context.js';
import { childPointer } from './nodes.js';
import type { YNode } from './yaml-tree.js';

/** The fields that hold lines of text (a post's), from the descriptors. */
const MULTILINE: ReadonlySet<string> = new Set(DESCRIPTORS.flatMap((d) => d.attributes.filter((a) => a.multiline === true).map((a) => a.field)));

/** The control characters no value holds, and those a field of lines holds but for its line breaks and tabs. */
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Top-level keys of extensions (`x-defaults`), which adsctl does not read. */
const EXTENSION = /^x-/;

/** `U+0007`: how a message names a character. */
const codePoint = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A value as a message shows it: quoted, each control character escaped (DEL too, which JSON leaves as it is). */
const shown = (value: string): string => quoteValue(value).replace(/\u007f/g, '\\u007f');

/** Where the character at `index` of a double-quoted scalar's value is written in `src` (an escape: all of it). */
function doubleQuoted(src: string, index: number): { at: number; length: number } | undefined {
  let unit = 0;
  for (let i = 1; i < src.length - 1; ) {
    let length = 1;
    let units = 1;
    if (src[i] === '\\') {
      const kind = src[i + 1] ?? '';
      length = kind === 'x' ? 4 : kind === 'u' ? 6 : kind === 'U' ? 10 : 2;
      if (kind === 'U') units = Number.parseInt(src.slice(i + 2, i + 10), 16) > 0xffff ? 2 : 1;
    }
    if (unit + units > index) return { at: i, length };
    unit += units;
    i += length;
  }
  return undefined;
}

/** Where the character at `index` of a single-quoted scalar's value is written in `src`. */
function singleQuoted(src: string, index: number): { at: number; length: number } | undefined {
  let unit = 0;
  for (let i = 1; i < src.length - 1; unit++) {
    const length = src[i] === "'" && src[i + 1] === "'" ? 2 : 1;
    if (unit === index) return { at: i, length };
    i += length;
  }
  return undefined;
}

/**
 * Where the character at `index` of the scalar's value is written, as offsets into the file, or
 * undefined when it cannot be told (a value over several lines, a block scalar, an interpolation).
 */
function characterRange(text: string, start: number, end: number, value: string, index: number): { start: number; end: number } | undefined {
  const src = text.slice(start, end);
  if (src.includes('\n') || src.includes('${')) return undefined;
  const found = src.startsWith('"') ? doubleQuoted(src, index) : src.startsWith("'") ? singleQuoted(src, index) : src === value ? { at: index, length: 1 } : undefined;
  return found === undefined ? undefined : { start: start + found.at, end: start + found.at + found.length };
}

/** The JSON pointer of the path `steps` (keys and indexes from the root). */
const pointerOf = (steps: ReadonlyArray<string | number>): string => steps.reduce<string>((pointer, step) => childPointer(pointer, step), '');

/**
 * Reports each string value under `node` (the value of key `key`) that holds a control character;
 * `steps` is its path from the root, kept on one stack so a pointer is made only for a report.
 */
function check(ctx: FileContext, node: YNode, steps: Array<string | number>, key: string): void {
  if (node.kind === 'map') {
    for (const entry of node.entries) {
      if (steps.length === 0 && EXTENSION.test(entry.key)) continue;
      steps.push(entry.key);
      check(ctx, entry.value, steps, entry.key);
      steps.pop();
    }
    return;
  }
  if (node.kind === 'seq') {
    node.items.forEach((item, i) => {
      steps.push(i);
      check(ctx, item, steps, key);
      steps.pop();
    });
    return;
  }
  if (typeof node.value !== 'string') return;
  const lines = MULTILINE.has(key);
  const found = (lines ? CONTROL_IN_LINES : ANY_CONTROL).exec(node.value);
  if (found === null) return;
  const at = characterRange(ctx.doc.text, node.start, node.end, node.value, found.index);
  const allowed = lines ? ' but line breaks (LF) and tabs' : '';
  report(
    ctx,
    pointerOf(steps),
    'control-character',
    `${key} ${shown(node.value)} holds the control character ${codePoint(found[0])} (character ${found.index + 1}): the service takes no control characters (U+0000 to U+001F, U+007F)${allowed} in ${key}; remove it`,
    at === undefined ? ctx.doc.range(node.start, node.end) : ctx.doc.range(at.start, at.end),
  );
}

/** Reports every control character in the string values of a manifest whose root map is `root` (see the file comment). */
export function checkControlCharacters(ctx: FileContext, root: YNode): void {
  check(ctx, root, [], '');
}
