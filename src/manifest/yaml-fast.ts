/**
 * A fast reader for the YAML that manifests are written in: block maps and lists indented with
 * spaces, one-line flow lists and maps, plain, single- and double-quoted scalars on one line, and
 * comments. It builds the positioned tree (yaml-tree.ts) directly, in one pass over the text,
 * with the same nodes, offsets and values as reading the text with yaml and converting its
 * document, without yaml's token tree and document in between — an 11 MB manifest of 100,000
 * resources in 0.8 s instead of 7.3 s, at less than half the peak memory. Anything outside
 * that subset (anchors, aliases, tags, block scalars, multi-line scalars and flow collections,
 * explicit keys, directives, document markers, tabs, malformed text) makes it give up, and the
 * text is read with yaml, which also reports every YAML error: this reader never decides that a
 * text is wrong.
 */
import type { YMap, YNode, YScalar, YSeq } from './yaml-nodes.js';
import { NESTING_LIMIT } from './yaml-depth.js';

/** How the reader makes nodes: scalars with interpolation, map entries with duplicate checks (yaml-tree.ts). */
export interface TreeBuilder {
  /** A scalar: `value` as YAML's core schema reads it, `raw` its source (the value of a quoted one), `plain` when unquoted. */
  scalar(value: string | number | boolean | null, raw: string, plain: boolean, start: number, end: number): YScalar;
  /** Adds an entry to a map (and its size), or reports a duplicate key. */
  addEntry(map: YMap, key: string, keyStart: number, keyEnd: number, value: YNode): void;
}

/** Thrown when the text leaves the subset; caught by `readSimpleYaml` only. One value, made once: throwing it costs no stack trace. */
const UNSUPPORTED = Symbol('unsupported');

const giveUp = (): never => {
  throw UNSUPPORTED;
};

const SPACE = 0x20;
const NEWLINE = 0x0a;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
const COMMA = 0x2c;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const BACKSLASH = 0x5c;

/** Characters that give a plain scalar's first character another meaning. */
const INDICATOR_START = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));
const FLOW_END = new Set([COMMA, RBRACKET, RBRACE, LBRACKET, LBRACE]);

/** Plain scalars YAML's core schema reads as something the reader leaves to yaml (octal, hex, infinities, NaN). */
const SPECIAL_NUMBER = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const NULL_WORD = /^(?:~|null|Null|NULL)$/;
const TRUE_WORD = /^(?:true|True|TRUE)$/;
const FALSE_WORD = /^(?:false|False|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

/** A content line: where it starts, how far it is indented, and where its content starts. */
interface Line {
  start: number;
  indent: number;
  content: number;
}

class Reader {
  private readonly text: string;
  private readonly build: TreeBuilder;
  /** The next line not yet consumed. */
  private at = 0;

  constructor(text: string, build: TreeBuilder) {
    this.text = text;
    this.build = build;
  }

  /** Where the line that starts at `start` ends (its newline, or the end of the text). */
  private lineEnd(start: number): number {
    const end = this.text.indexOf('\n', start);
    return end < 0 ? this.text.length : end;
  }

  /** Past the newline of the line holding `offset` (or the end of the text). */
  private afterLine(offset: number): number {
    const end = this.lineEnd(offset);
    return end < this.text.length ? end + 1 : end;
  }

  /**
   * The next line with content from `this.at`, skipping blank and comment lines: `skipped` when
   * any were skipped, `commentIndent` the deepest indentation of a skipped comment (-1 for none).
   */
  private peek(): { line: Line | undefined; skipped: boolean; commentIndent: number } {
    const text = this.text;
    let start = this.at;
    let skipped = false;
    let commentIndent = -1;
    while (start < text.length) {
      let i = start;
      while (text.charCodeAt(i) === SPACE) i++;
      const c = text.charCodeAt(i);
      if (i >= text.length) return { line: undefined, skipped: true, commentIndent };
      if (c === NEWLINE || c === HASH) {
        skipped = true;
        if (c === HASH) commentIndent = Math.max(commentIndent, i - start);
        start = this.afterLine(i);
        continue;
      }
      if (i === start && (text.startsWith('---', i) || text.startsWith('...', i) || c === 0x25)) giveUp();
      return { line: { start, indent: i - start, content: i }, skipped, commentIndent };
    }
    return { line: undefined, skipped, commentIndent };
  }

  private isSeqItem(line: Line): boolean {
    if (this.text.charCodeAt(line.content) !== DASH) return false;
    const next = this.text.charCodeAt(line.content + 1);
    return next === SPACE || next === NEWLINE || line.content + 1 >= this.text.length;
  }

  /** The whole document: a block map or list at the first content line. */
  document(): YNode {
    const { line } = this.peek();
    if (line === undefined || line.indent !== 0) return giveUp();
    const root = this.blockNode(line, 1);
    if (this.peek().line !== undefined) giveUp();
    return root;
  }

  private blockNode(line: Line, depth: number): YNode {
    if (depth > NESTING_LIMIT) giveUp();
    return this.isSeqItem(line) ? this.blockSeq(line.indent, depth) : this.blockMap(line.indent, line.content, depth);
  }

  /** Past spaces from `i` on the same line. */
  private spaces(i: number): number {
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** Checks that only spaces and a comment follow `i` on its line; returns the offset after the line. */
  private restOfLine(i: number): number {
    const text = this.text;
    const j = this.spaces(i);
    if (j >= text.length) return j;
    const c = text.charCodeAt(j);
    if (c === NEWLINE) return j + 1;
    if (c === HASH && j > i) return this.afterLine(j);
    return giveUp();
  }

  /** A block map whose keys sit at `indent`; its first key starts at `first`. */
  private blockMap(indent: number, first: number, depth: number): YMap {
    const map: YMap = { kind: 'map', start: first, end: first, entries: [], byKey: new Map(), size: 1 };
    let keyAt = first;
    for (;;) {
      const key = this.key(keyAt);
      let i = this.spaces(key.colon + 1);
      const c = this.text.charCodeAt(i);
      let value: YNode;
      if (i >= this.text.length || c === NEWLINE || c === HASH) {
        this.at = this.afterLine(i);
        value = this.emptyValue(indent, i, depth, true);
      } else {
        const inline = this.inlineValue(i, depth + 1);
        this.at = this.restOfLine(inline.end);
        value = inline.node;
        this.noContinuation(indent);
      }
      this.build.addEntry(map, key.text, key.start, key.end, value);
      map.end = this.at;
      const { line, commentIndent } = this.peek();
      if (line === undefined || line.indent < indent) return this.ended(map, indent, value, commentIndent);
      if (line.indent > indent || this.isSeqItem(line)) return giveUp();
      keyAt = line.content;
    }
  }

  /** A block list whose dashes sit at `indent`. */
  private blockSeq(indent: number, depth: number): YSeq {
    const { line: first } = this.peek();
    if (first === undefined) return giveUp();
    const seq: YSeq = { kind: 'seq', start: first.content, end: first.content, items: [], size: 1 };
    let dash = first.content;
    for (;;) {
      const i = this.spaces(dash + 1);
      const c = this.text.charCodeAt(i);
      let item: YNode;
      if (i >= this.text.length || c === NEWLINE || c === HASH) {
        if (c === HASH) giveUp();
        this.at = this.afterLine(i);
        item = this.emptyValue(indent, i, depth, false);
      } else if (c === DASH && this.isSeqItem({ start: 0, indent: 0, content: i })) {
        return giveUp();
      } else if (this.startsKey(i)) {
        // a map that starts on the dash's line: its keys line up with the first one
        if (depth + 1 > NESTING_LIMIT) giveUp();
        item = this.blockMap(i - this.lineStartOf(i), i, depth + 1);
      } else {
        const inline = this.inlineValue(i, depth + 1);
        this.at = this.restOfLine(inline.end);
        item = inline.node;
        this.noContinuation(indent);
      }
      seq.items.push(item);
      seq.size += item.kind === 'scalar' ? 1 : item.size;
      seq.end = this.at;
      const { line, commentIndent } = this.peek();
      // a line at the dashes' indentation that is no item belongs to the map the list is a value of
      if (line === undefined || line.indent < indent || (line.indent === indent && !this.isSeqItem(line))) return this.ended(seq, indent, item, commentIndent);
      if (line.indent > indent) return giveUp();
      dash = line.content;
    }
  }

  /**
   * A block collection at `indent` that ends with `last`, followed by comments as deep as
   * `commentIndent`. yaml ends a collection at an empty last value, and stretches it over the
   * comments after it that are indented deeper than it: both are left to yaml.
   */
  private ended<T extends YMap | YSeq>(collection: T, indent: number, last: YNode, commentIndent: number): T {
    if (last.kind === 'scalar' && last.raw === '' && last.start === last.end && last.value === null) giveUp();
    if (commentIndent > indent) giveUp();
    return collection;
  }

  private lineStartOf(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** After a value written on its key's or dash's line, nothing may continue it on deeper lines. */
  private noContinuation(indent: number): void {
    const { line } = this.peek();
    if (line !== undefined && line.indent > indent) giveUp();
  }

  /**
   * The value of a key or dash with nothing after it on its line: the block node on the lines
   * below (deeper, or a list at the key's own indentation), else null at `at`.
   */
  private emptyValue(indent: number, at: number, depth: number, ofKey: boolean): YNode {
    const { line, skipped } = this.peek();
    if (line !== undefined && (line.indent > indent || (ofKey && line.indent === indent && this.isSeqItem(line)))) return this.blockNode(line, depth + 1);
    // yaml stretches an empty value over the comments and blank lines after it
    if (skipped) giveUp();
    return this.build.scalar(null, '', true, at, at);
  }

  /** Whether a block map key (plain or quoted, then `:` and a space or the line's end) starts at `i`. */
  private startsKey(i: number): boolean {
    const c = this.text.charCodeAt(i);
    if (c === LBRACKET || c === LBRACE) return false;
    try {
      this.key(i);
      return true;
    } catch (error) {
      if (error === UNSUPPORTED) return false;
      throw error;
    }
  }

  /** A block map key at `i`: its text, range and the offset of its colon. */
  private key(i: number): { text: string; start: number; end: number; colon: number } {
    const text = this.text;
    const c = text.charCodeAt(i);
    if (c === DQUOTE || c === SQUOTE) {
      const quoted = this.quoted(i);
      if (text.charCodeAt(quoted.end) !== COLON || !this.endsIndicator(quoted.end + 1)) return giveUp();
      return { text: quoted.value, start: i, end: quoted.end, colon: quoted.end };
    }
    if (INDICATOR_START.has(c)) return giveUp();
    const lineEnd = this.lineEnd(i);
    let j = i;
    while (j < lineEnd) {
      const d = text.charCodeAt(j);
      if (d === COLON && this.endsIndicator(j + 1)) break;
      if (d === HASH && text.charCodeAt(j - 1) === SPACE) return giveUp();
      j++;
    }
    if (j >= lineEnd) return giveUp();
    let end = j;
    while (text.charCodeAt(end - 1) === SPACE) end--;
    const key = text.slice(i, end);
    if (key === '<<') return giveUp();
    return { text: key, start: i, end, colon: j };
  }

  /** Whether the character at `i` ends an indicator (`:` or `-`): a space, the line's end, or the text's. */
  private endsIndicator(i: number): boolean {
    return i >= this.text.length || this.text.charCodeAt(i) === SPACE || this.text.charCodeAt(i) === NEWLINE;
  }

  /** A value written on one line at `i`: a flow list or map, a quoted or a plain scalar. */
  private inlineValue(i: number, depth: number): { node: YNode; end: number } {
    const c = this.text.charCodeAt(i);
    if (c === LBRACKET || c === LBRACE) return this.flow(i, depth);
    if (c === DQUOTE || c === SQUOTE) {
      const quoted = this.quoted(i);
      return { node: this.build.scalar(quoted.value, quoted.value, false, i, quoted.end), end: quoted.end };
    }
    if (INDICATOR_START.has(c) && !(c === DASH && !this.endsIndicator(i + 1))) return giveUp();
    const lineEnd = this.lineEnd(i);
    let j = i;
    while (j < lineEnd) {
      const d = this.text.charCodeAt(j);
      if (d === HASH && this.text.charCodeAt(j - 1) === SPACE) break;
      if (d === COLON && this.endsIndicator(j + 1)) giveUp();
      j++;
    }
    let end = j;
    while (this.text.charCodeAt(end - 1) === SPACE) end--;
    return { node: this.plain(this.text.slice(i, end), i, end), end };
  }

  private plain(source: string, start: number, end: number): YScalar {
    if (SPECIAL_NUMBER.test(source)) giveUp();
    let value: string | number | boolean | null = source;
    if (NULL_WORD.test(source)) value = null;
    else if (TRUE_WORD.test(source)) value = true;
    else if (FALSE_WORD.test(source)) value = false;
    else if (INT.test(source) || FLOAT.test(source)) value = Number(source);
    return this.build.scalar(value, source, true, start, end);
  }

  /** A quoted scalar on one line at `i`: its value and the offset after its closing quote. */
  private quoted(i: number): { value: string; end: number } {
    const text = this.text;
    const quote = text.charCodeAt(i);
    let value = '';
    let from = i + 1;
    for (let j = i + 1; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === NEWLINE) return giveUp();
      if (quote === SQUOTE) {
        if (c !== SQUOTE) continue;
        if (text.charCodeAt(j + 1) === SQUOTE) {
          value += text.slice(from, j + 1);
          from = j + 2;
          j++;
          continue;
        }
        return { value: value + text.slice(from, j), end: j + 1 };
      }
      if (c === DQUOTE) return { value: value + text.slice(from, j), end: j + 1 };
      if (c === BACKSLASH) {
        const e = text[j + 1] ?? '';
        value += text.slice(from, j);
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
          const code = Number.parseInt(text.slice(j + 2, j + 6), 16);
          if (code >= 0xd800 && code <= 0xdfff) return giveUp();
          value += String.fromCharCode(code);
          j += 5;
        } else {
          const escaped = ESCAPES[e];
          if (escaped === undefined) return giveUp();
          value += escaped;
          j += 1;
        }
        from = j + 1;
      }
    }
    return giveUp();
  }

  /** A flow list or map that closes on its line. */
  private flow(i: number, depth: number): { node: YNode; end: number } {
    if (depth > NESTING_LIMIT) giveUp();
    const text = this.text;
    const isMap = text.charCodeAt(i) === LBRACE;
    const close = isMap ? RBRACE : RBRACKET;
    const node: YMap | YSeq = isMap ? { kind: 'map', start: i, end: i, entries: [], byKey: new Map(), size: 1 } : { kind: 'seq', start: i, end: i, items: [], size: 1 };
    let j = this.spaces(i + 1);
    for (;;) {
      const c = text.charCodeAt(j);
      if (c === close) break;
      if (j >= text.length || c === NEWLINE || c === HASH || c === COMMA) return giveUp();
      let keyText: string | undefined;
      let keyStart = j;
      let keyEnd = j;
      if (isMap) {
        const key = this.flowScalar(j, true);
        if (key.node.kind !== 'scalar') return giveUp();
        keyText = key.text;
        keyStart = j;
        keyEnd = key.end;
        j = this.spaces(key.end);
        if (text.charCodeAt(j) !== COLON) return giveUp();
        // a plain key needs a space after its colon; a quoted one may be followed by its value at once
        if (key.plain && text.charCodeAt(j + 1) !== SPACE) return giveUp();
        j = this.spaces(j + 1);
        const v = text.charCodeAt(j);
        if (v === COMMA || v === close || v === NEWLINE || j >= text.length) return giveUp();
      }
      const item = this.flowItem(j, depth + 1);
      if (node.kind === 'map') {
        this.build.addEntry(node, keyText ?? '', keyStart, keyEnd, item.node);
      } else {
        node.items.push(item.node);
        node.size += item.node.kind === 'scalar' ? 1 : item.node.size;
      }
      j = this.spaces(item.end);
      const after = text.charCodeAt(j);
      if (after === COMMA) {
        j = this.spaces(j + 1);
        continue;
      }
      if (after !== close) return giveUp();
    }
    node.end = j + 1;
    return { node, end: j + 1 };
  }

  private flowItem(j: number, depth: number): { node: YNode; end: number } {
    const c = this.text.charCodeAt(j);
    if (c === LBRACKET || c === LBRACE) return this.flow(j, depth);
    const item = this.flowScalar(j, false);
    // `[a: b]` is a map inside a list: left to yaml
    const next = this.spaces(item.end);
    if (this.text.charCodeAt(next) === COLON) giveUp();
    return { node: item.node, end: item.end };
  }

  /** A quoted or plain scalar inside a flow collection. */
  private flowScalar(j: number, isKey: boolean): { node: YScalar; text: string; end: number; plain: boolean } {
    const text = this.text;
    const c = text.charCodeAt(j);
    if (c === DQUOTE || c === SQUOTE) {
      const quoted = this.quoted(j);
      return { node: this.build.scalar(quoted.value, quoted.value, false, j, quoted.end), text: quoted.value, end: quoted.end, plain: false };
    }
    if (INDICATOR_START.has(c) && !(c === DASH && !this.endsIndicator(j + 1) && !FLOW_END.has(text.charCodeAt(j + 1)))) return giveUp();
    let k = j;
    for (; k < text.length; k++) {
      const d = text.charCodeAt(k);
      if (d === NEWLINE || FLOW_END.has(d)) break;
      if (d === HASH && text.charCodeAt(k - 1) === SPACE) return giveUp();
      if (d === COLON) {
        const n = text.charCodeAt(k + 1);
        if (n === SPACE || FLOW_END.has(n) || n === NEWLINE || k + 1 >= text.length) break;
        if (isKey) return giveUp();
      }
    }
    let end = k;
    while (text.charCodeAt(end - 1) === SPACE) end--;
    if (end <= j) return giveUp();
    const source = text.slice(j, end);
    if (isKey) return { node: this.build.scalar(source, source, true, j, end), text: source, end, plain: true };
    return { node: this.plain(source, j, end), text: source, end, plain: true };
  }
}

/**
 * The positioned tree of `text` when it is written in the subset this reader knows, or undefined:
 * then nothing has been built that matters, and the text must be read with yaml.
 */
export function readSimpleYaml(text: string, build: TreeBuilder): YNode | undefined {
  if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  try {
    return new Reader(text, build).document();
  } catch (error) {
    if (error === UNSUPPORTED) return undefined;
    throw error;
  }
}
