/**
 * A generated manifest as YAML text, through the `yaml` library's document API so that every
 * name YAML must quote is quoted: block maps for entries, one-line flow maps for list items,
 * comments before the keys they are about, and no folding of long values. Every `${` of a value
 * is written `$${`, so that the loader's `${env:NAME}` interpolation (docs/manifest.md) reads the
 * value back as it was.
 */
import { Document, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { WrittenEntry as Entry, WrittenNode as Node } from '../kinds/write-back.js';

/** `value` with every `${` in its strings written `$${` (the loader's escape for a literal `${`). */
function literal(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('${', () => '$${');
  if (Array.isArray(value)) return value.map(literal);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literal(v)]));
  return value;
}

function build(doc: Document, node: Node): unknown {
  if ('scalar' in node) {
    const created = doc.createNode(literal(node.scalar));
    // a list of values on one line, as a person writes placements: [ALL_ON_SERVICE]
    if (created instanceof YAMLSeq) created.flow = true;
    return created;
  }
  if ('flow' in node) {
    const map = new YAMLMap();
    map.flow = true;
    for (const [k, v] of node.flow) map.items.push(new Pair(new Scalar(k), doc.createNode(literal(v))));
    return map;
  }
  if ('list' in node) {
    const seq = new YAMLSeq();
    for (const item of node.list) seq.items.push(build(doc, item));
    if (node.list.every((n) => 'scalar' in n)) seq.flow = true;
    return seq;
  }
  const map = new YAMLMap();
  for (const e of node.map) {
    const key = new Scalar(e.key);
    if (e.comment !== undefined) key.commentBefore = e.comment.split('\n').map((l) => ` ${l}`).join('\n');
    map.items.push(new Pair(key, build(doc, e.value)));
  }
  return map;
}

/** The text of a manifest made of `entries`, with `header` lines as comments above it. */
export function manifestText(header: readonly string[], entries: Entry[], footer: readonly string[]): string {
  const doc = new Document();
  doc.contents = build(doc, { map: entries }) as YAMLMap;
  doc.commentBefore = header.map((l) => (l === '' ? '' : ` ${l}`)).join('\n');
  if (footer.length > 0) doc.comment = footer.map((l) => (l === '' ? '' : ` ${l}`)).join('\n');
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true });
}
