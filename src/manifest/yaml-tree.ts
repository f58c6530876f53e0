/**
 * YAML text → a small tree of maps, sequences and scalars that remembers where every key and
 * value was written. Anchors, aliases and `<<` merge keys are expanded here (an alias shares the
 * anchored subtree, so its positions point at the anchor); duplicate keys, unknown anchors,
 * alias cycles, alias bombs and nesting beyond the limit become diagnostics; `${env:NAME}` is
 * interpolated in string values. Manifests written in the common subset of YAML are read by
 * yaml-fast.ts, without yaml, into the same tree; everything else by yaml.
 */
import type { Document, Node as YamlNode } from 'yaml';
import { yaml } from '../yaml/yaml.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { clipText, quoteValue } from '../diag/quote.js';
import type { SourcePosition, SourceRange } from '../diag/source-range.js';
import { LineIndex } from './line-index.js';
import { interpolateEnv, isWholeInterpolation, type EnvLookup } from './env.js';
import { NESTING_LIMIT, parseBoundedDocument, TOO_DEEP_MESSAGE, tooDeepAliasMessage } from './yaml-depth.js';
import { readSimpleYaml } from './yaml-fast.js';
import type { YEntry, YMap, YNode, YScalar, YSeq } from './yaml-nodes.js';

export type { YMap, YNode } from './yaml-nodes.js';

/** One parsed manifest file: its text, its tree (absent when the file is empty or unreadable YAML) and a position finder. */
export interface ManifestDocument {
  file: string;
  text: string;
  root: YNode | undefined;
  /** True when the YAML could not be read as a whole (malformed, an alias bomb, nested too deep); such a file is not checked any further. */
  unreadable: boolean;
  position(offset: number): SourcePosition;
  range(start: number, end: number): SourceRange;
  /** The same range as `range`, in the compact form the desired state keeps for the whole run (line-index.ts). */
  compactRange(start: number, end: number): SourceRange;
}

const MIN_EXPANSION_BUDGET = 50_000;
const EXPANSION_FACTOR = 20;

interface Walk {
  anchors: Map<string, YamlNode>;
  converted: Map<YamlNode, YNode>;
  active: Set<YamlNode>;
  sourceNodes: number;
  expanded: number;
  /** Set once the expansion budget is spent: later aliases are dropped without another report. */
  exhausted: boolean;
  /** Placeholders left where an alias could not be resolved, already reported. */
  broken: WeakSet<YNode>;
  /** How many maps and lists deep each converted map and list is, itself included, aliases expanded. */
  heights: WeakMap<YNode, number>;
  /** Set once a node beyond the nesting limit was reported: later ones are dropped without another report. */
  tooDeep: boolean;
  env: EnvLookup;
  diagnostics: Diagnostic[];
  range: (start: number, end: number) => SourceRange;
}

const nullAt = (start: number, end: number): YScalar => ({ kind: 'scalar', start, end, value: null, raw: '' });

function sizeOf(node: YNode): number {
  return node.kind === 'scalar' ? 1 : node.size;
}

function heightOf(walk: Walk, node: YNode): number {
  return node.kind === 'scalar' ? 0 : (walk.heights.get(node) ?? 1);
}

function convertScalar(walk: Walk, node: YamlNode & { value: unknown; source?: string; type?: string }, start: number, end: number): YScalar {
  return scalarNode(walk, node.value, typeof node.source === 'string' ? node.source : String(node.value), node.type === 'PLAIN', start, end);
}

/** A scalar of the tree from its YAML value and source text (`plain` when unquoted), interpolated. */
function scalarNode(walk: Walk, value: unknown, raw: string, plain: boolean, start: number, end: number): YScalar {
  if (typeof value === 'string') {
    if (!value.includes('${')) return { kind: 'scalar', start, end, value, raw: value };
    const interpolated = interpolateEnv(value, walk.env);
    for (const problem of interpolated.problems) walk.diagnostics.push(errorAt(problem.code, problem.message, walk.range(start, end)));
    if (interpolated.problems.length > 0) return { kind: 'scalar', start, end, value: '', raw: '' };
    if (plain && isWholeInterpolation(value)) return { kind: 'scalar', start, end, value: typedPlain(interpolated.text), raw: interpolated.text };
    return { kind: 'scalar', start, end, value: interpolated.text, raw: interpolated.text };
  }
  if (value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
    return { kind: 'scalar', start, end, value, raw };
  }
  walk.diagnostics.push(errorAt('yaml-tag', `unsupported value ${quoteValue(raw)}: only strings, finite numbers, true/false and null are allowed`, walk.range(start, end)));
  return nullAt(start, end);
}

/** Adds an entry to a map, or reports its key as a duplicate; true when added. */
function addEntry(walk: Walk, map: YMap, key: string, keyStart: number, keyEnd: number, value: YNode): boolean {
  const first = map.byKey.get(key);
  if (first !== undefined) {
    walk.diagnostics.push(
      errorAt('duplicate-key', `duplicate key ${quoteValue(key)}; each key may appear once in a map`, walk.range(keyStart, keyEnd), [
        { message: 'first defined here', range: walk.range(first.keyStart, first.keyEnd) },
      ]),
    );
    return false;
  }
  const entry: YEntry = { key, keyStart, keyEnd, value };
  map.entries.push(entry);
  map.byKey.set(key, entry);
  map.size += sizeOf(value);
  return true;
}

/** The value an unquoted scalar with this text has in YAML 1.2's core schema (numbers, booleans, null, else the text). */
function typedPlain(text: string): string | number | boolean | null {
  if (/^(~|null|Null|NULL)?$/.test(text)) return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text) || /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  return text;
}

function keyText(walk: Walk, key: unknown): { text: string; start: number; end: number } | undefined {
  if (!yaml().isScalar(key)) {
    const range = (key as YamlNode | null)?.range;
    walk.diagnostics.push(errorAt('yaml-key', 'keys must be plain scalars (names), not lists, maps or aliases', walk.range(range?.[0] ?? 0, range?.[1] ?? 0)));
    return undefined;
  }
  const value: unknown = key.value;
  const text = typeof value === 'string' ? value : typeof key.source === 'string' ? key.source : String(value);
  return { text, start: key.range?.[0] ?? 0, end: key.range?.[1] ?? 0 };
}

function mergeSources(walk: Walk, value: YNode): YMap[] {
  if (value.kind === 'map') return [value];
  if (value.kind === 'seq' && value.items.every((item) => item.kind === 'map' || walk.broken.has(item))) return value.items.filter((item): item is YMap => item.kind === 'map');
  if (walk.broken.has(value)) return [];
  walk.diagnostics.push(errorAt('yaml-merge', 'a merge key (<<) takes a map or a list of maps, usually aliases like *defaults', walk.range(value.start, value.end)));
  return [];
}

function convertMap(walk: Walk, node: YamlNode & { items: unknown[] }, start: number, end: number, depth: number): YMap {
  const map: YMap = { kind: 'map', start, end, entries: [], byKey: new Map(), size: 1 };
  let height = 1;
  const isMerge = (pair: { key: unknown }): boolean => yaml().isScalar(pair.key) && typeof pair.key.value === 'symbol';
  const explicit = node.items.some((pair) => yaml().isPair(pair) && isMerge(pair))
    ? new Set(node.items.flatMap((pair) => (yaml().isPair(pair) && yaml().isScalar(pair.key) && !isMerge(pair) ? [keyText(walk, pair.key)?.text ?? ''] : [])))
    : undefined;
  for (const pair of node.items) {
    if (!yaml().isPair(pair)) continue;
    const valueNode = pair.value as YamlNode | null;
    if (explicit !== undefined && isMerge(pair)) {
      if (valueNode === null) continue;
      const merged = convert(walk, valueNode, yaml().isScalar(pair.key) ? (pair.key.range?.[1] ?? start) : start, depth);
      for (const source of mergeSources(walk, merged)) {
        for (const entry of source.entries) {
          if (explicit.has(entry.key) || map.byKey.has(entry.key)) continue;
          map.entries.push(entry);
          map.byKey.set(entry.key, entry);
          map.size += sizeOf(entry.value);
          height = Math.max(height, 1 + heightOf(walk, entry.value));
        }
      }
      continue;
    }
    const key = keyText(walk, pair.key);
    if (!key) continue;
    const value = valueNode === null ? nullAt(key.end, key.end) : convert(walk, valueNode, key.end, depth + 1);
    if (addEntry(walk, map, key.text, key.start, key.end, value)) height = Math.max(height, 1 + heightOf(walk, value));
  }
  walk.heights.set(map, height);
  return map;
}

function convertSeq(walk: Walk, node: YamlNode & { items: unknown[] }, start: number, end: number, depth: number): YSeq {
  const items = node.items.map((item) => (item === null ? nullAt(start, start) : convert(walk, item as YamlNode, start, depth + 1)));
  const seq: YSeq = { kind: 'seq', start, end, items, size: items.reduce((sum, item) => sum + sizeOf(item), 1) };
  walk.heights.set(seq, items.reduce((height, item) => Math.max(height, 1 + heightOf(walk, item)), 1));
  return seq;
}

function brokenAlias(walk: Walk, start: number, end: number, code: string, message: string): YScalar {
  if (code !== '') walk.diagnostics.push(errorAt(code, message, walk.range(start, end)));
  const placeholder = nullAt(start, end);
  walk.broken.add(placeholder);
  return placeholder;
}

function tooDeep(walk: Walk, start: number, end: number, message: string): YScalar {
  const first = !walk.tooDeep;
  walk.tooDeep = true;
  return brokenAlias(walk, start, end, first ? 'yaml-too-deep' : '', message);
}

function convertAlias(walk: Walk, node: YamlNode & { source: string }, start: number, end: number, depth: number): YNode {
  if (walk.exhausted || walk.tooDeep) return brokenAlias(walk, start, end, '', '');
  const target = walk.anchors.get(node.source);
  if (target === undefined) {
    return brokenAlias(walk, start, end, 'yaml-alias', `unknown anchor *${node.source}; define &${node.source} before using it`);
  }
  const converted = walk.converted.get(target);
  if (walk.active.has(target) || converted === undefined) {
    return brokenAlias(walk, start, end, 'yaml-alias-cycle', `alias *${node.source} refers to a node that contains it`);
  }
  walk.expanded += sizeOf(converted);
  if (walk.expanded > Math.max(MIN_EXPANSION_BUDGET, EXPANSION_FACTOR * walk.sourceNodes)) {
    walk.exhausted = true;
    return brokenAlias(walk, start, end, 'yaml-alias-expansion', `alias *${node.source} expands the document beyond ${EXPANSION_FACTOR} times its size; aliases nested this deeply are refused`);
  }
  if (depth - 1 + heightOf(walk, converted) > NESTING_LIMIT) return tooDeep(walk, start, end, tooDeepAliasMessage(node.source));
  return converted;
}

/** Converts a node that sits `depth` maps and lists deep when it is one (the root is at depth 1). */
function convert(walk: Walk, node: YamlNode, fallback: number, depth: number): YNode {
  const range = node.range;
  const start = range ? range[0] : fallback;
  const end = range ? range[1] : fallback;
  if (yaml().isAlias(node)) return convertAlias(walk, node, start, end, depth);
  if ((yaml().isMap(node) || yaml().isSeq(node)) && (depth > NESTING_LIMIT || walk.tooDeep)) return tooDeep(walk, start, end, TOO_DEEP_MESSAGE);
  walk.sourceNodes += 1;
  const anchor = (node as { anchor?: string }).anchor;
  if (anchor !== undefined) {
    walk.anchors.set(anchor, node);
    walk.active.add(node);
  }
  let result: YNode;
  if (yaml().isScalar(node)) result = convertScalar(walk, node, start, end);
  else if (yaml().isMap(node)) result = convertMap(walk, node, start, end, depth);
  else if (yaml().isSeq(node)) result = convertSeq(walk, node, start, end, depth);
  else result = nullAt(start, end);
  if (anchor !== undefined) {
    walk.active.delete(node);
    walk.converted.set(node, result);
  }
  return result;
}

const YAML_MESSAGE = / at line \d+, column \d+:?[\s\S]*$/;
const YAML_MESSAGE_LIMIT = 200;

/**
 * Where a YAML error is best shown: yaml reports an unclosed quote at the end of the file and a
 * bad indentation at the start of the line, so these point at the opening quote and at the key.
 */
function errorSpan(code: string, message: string, text: string, start: number, end: number): [number, number] {
  if (code === 'MISSING_CHAR' && /closing ["']quote/.test(message)) {
    const quote = message.includes('"quote') ? '"' : "'";
    const open = text.lastIndexOf(quote, start - 1);
    if (open >= 0) return [open, open + 1];
  }
  if (code === 'BAD_INDENT') {
    const indent = /^[ \t]*/.exec(text.slice(start))?.[0].length ?? 0;
    return [start + indent, Math.max(end, start + indent + 1)];
  }
  return [start, end];
}

/** Parses one manifest file's text into a positioned tree, with every YAML-level problem as a diagnostic. */
export function parseManifestText(file: string, text: string, env: EnvLookup): { document: ManifestDocument; diagnostics: Diagnostic[] } {
  return parseSimpleManifest(file, text, env) ?? parseManifestTextWithYaml(file, text, env);
}

/**
 * `parseManifestText` by yaml alone: the reference the fast reader must agree with, node for
 * node and offset for offset (test/manifest/yaml-fast.test.ts).
 */
export function parseManifestTextWithYaml(file: string, text: string, env: EnvLookup): { document: ManifestDocument; diagnostics: Diagnostic[] } {
  const lineCounter = new (yaml().LineCounter)();
  const bounded = parseBoundedDocument(text, lineCounter, { merge: true, uniqueKeys: false });
  return withPositions(file, text, lineCounter.lineStarts, (document, range) => {
    const diagnostics: Diagnostic[] = [];
    const doc = bounded.doc;
    if (doc === undefined) {
      diagnostics.push(errorAt('yaml-too-deep', TOO_DEEP_MESSAGE, range(bounded.tooDeep[0], bounded.tooDeep[1])));
      document.unreadable = true;
      return diagnostics;
    }
    return composedTree(document, doc, env, diagnostics);
  });
}

/** Offsets where each line of `text` starts (after each newline), as yaml's LineCounter has them. */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function walkOf(env: EnvLookup, diagnostics: Diagnostic[], range: (start: number, end: number) => SourceRange): Walk {
  return {
    anchors: new Map(),
    converted: new Map(),
    active: new Set(),
    sourceNodes: 0,
    expanded: 0,
    exhausted: false,
    broken: new WeakSet(),
    heights: new WeakMap(),
    tooDeep: false,
    env,
    diagnostics,
    range,
  };
}

/**
 * The tree of a manifest written in the subset yaml-fast.ts reads, without yaml; undefined when
 * the text is written otherwise. Its diagnostics (duplicate keys, interpolation) are kept only
 * when the whole text was read.
 */
function parseSimpleManifest(file: string, text: string, env: EnvLookup): { document: ManifestDocument; diagnostics: Diagnostic[] } | undefined {
  let read = false;
  const parsed = withPositions(file, text, lineStartsOf(text), (document, range) => {
    const diagnostics: Diagnostic[] = [];
    const walk = walkOf(env, diagnostics, range);
    const root = readSimpleYaml(text, {
      scalar: (value, raw, plain, start, end) => scalarNode(walk, value, raw, plain, start, end),
      addEntry: (map, key, keyStart, keyEnd, value) => void addEntry(walk, map, key, keyStart, keyEnd, value),
    });
    if (root === undefined) return [];
    read = true;
    document.root = root;
    return diagnostics;
  });
  return read ? parsed : undefined;
}

/** A document of `text` with its position finder; `fill` sets its tree and returns the diagnostics. */
function withPositions(
  file: string,
  text: string,
  starts: readonly number[],
  fill: (document: ManifestDocument, range: (start: number, end: number) => SourceRange) => Diagnostic[],
): { document: ManifestDocument; diagnostics: Diagnostic[] } {
  const lines = new LineIndex(file, text, starts);
  const position = (offset: number): SourcePosition => lines.position(offset);
  const range = (start: number, end: number): SourceRange => lines.range(start, end);
  const compactRange = (start: number, end: number): SourceRange => lines.compactRange(start, end);
  const document: ManifestDocument = { file, text, root: undefined, unreadable: false, position, range, compactRange };
  return { document, diagnostics: fill(document, range) };
}

/** Fills `document` from yaml's composed document: its errors, or its tree. */
function composedTree(document: ManifestDocument, doc: Document.Parsed, env: EnvLookup, diagnostics: Diagnostic[]): Diagnostic[] {
  const { text, range } = document;
  for (const error of doc.errors) {
    const [start, end] = errorSpan(error.code, error.message, text, error.pos[0], error.pos[1]);
    const message = clipText(error.message.replace(YAML_MESSAGE, '').trim(), YAML_MESSAGE_LIMIT);
    if (error.code === 'MULTIPLE_DOCS') {
      diagnostics.push(errorAt('multiple-documents', 'a manifest file holds one YAML document (one account); move the next document into its own file', range(start, end)));
    } else {
      diagnostics.push(errorAt('yaml-syntax', message.length > 0 ? message : 'malformed YAML', range(start, end)));
    }
    document.unreadable = true;
  }
  for (const warning of doc.warnings) {
    if (warning.code === 'TAG_RESOLVE_FAILED') {
      diagnostics.push(errorAt('yaml-tag', clipText(warning.message.replace(YAML_MESSAGE, '').trim(), YAML_MESSAGE_LIMIT), range(warning.pos[0], warning.pos[1])));
      document.unreadable = true;
    }
  }
  if (document.unreadable) return diagnostics;
  if (doc.contents === null) {
    diagnostics.push(errorAt('empty-manifest', 'the manifest is empty; it needs at least "version: 1"', range(0, 0)));
    return diagnostics;
  }
  const walk = walkOf(env, diagnostics, range);
  document.root = convert(walk, doc.contents as YamlNode, 0, 1);
  document.unreadable = walk.exhausted || walk.tooDeep;
  return diagnostics;
}
