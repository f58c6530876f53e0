/**
 * Reading the positioned YAML tree: JSON pointers into it, plain JSON values out of it (for the
 * schema validator and for attributes), and the locator that maps a pointer back to the source.
 */
import type { InstanceLocator } from '../schema/validator.js';
import type { ManifestDocument, YMap, YNode, YScalar, YSeq } from './yaml-tree.js';

/** The JSON pointer of `key` under `pointer`. */
export function childPointer(pointer: string, key: string | number): string {
  const text = String(key);
  return `${pointer}/${text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text}`;
}

/** The node as a map, or undefined. */
export function asMap(node: YNode | undefined): YMap | undefined {
  return node?.kind === 'map' ? node : undefined;
}

/** The node as a sequence, or undefined. */
export function asSeq(node: YNode | undefined): YSeq | undefined {
  return node?.kind === 'seq' ? node : undefined;
}

/** The node as a scalar, or undefined. */
export function asScalar(node: YNode | undefined): YScalar | undefined {
  return node?.kind === 'scalar' ? node : undefined;
}

/** The node's value when it is a string scalar. */
export function stringValue(node: YNode | undefined): string | undefined {
  const scalar = asScalar(node);
  return typeof scalar?.value === 'string' ? scalar.value : undefined;
}

/**
 * An id as written: a string, or an unquoted integer's digits exactly as in the source (so a
 * 19-digit post id is not rounded). `invalid` when the node is a number written otherwise (1e5, 0x1F).
 */
export function idValue(node: YNode | undefined): string | 'invalid' | undefined {
  const scalar = asScalar(node);
  if (typeof scalar?.value === 'string') return scalar.value;
  if (typeof scalar?.value === 'number') return /^[0-9]+$/.test(scalar.raw) ? scalar.raw : 'invalid';
  return undefined;
}

/**
 * The plain JSON value of a node. Aliased subtrees give the same object each time, so alias-heavy
 * documents stay small; a `__proto__` key is an own property like any other.
 */
export function plainValue(node: YNode, memo: Map<YNode, unknown> = new Map()): unknown {
  if (node.kind === 'scalar') return node.value;
  const known = memo.get(node);
  if (known !== undefined) return known;
  let result: unknown;
  if (node.kind === 'seq') {
    const items: unknown[] = [];
    memo.set(node, items);
    for (const item of node.items) items.push(plainValue(item, memo));
    result = items;
  } else {
    const object: Record<string, unknown> = {};
    memo.set(node, object);
    for (const entry of node.entries) {
      const value = plainValue(entry.value, memo);
      if (entry.key === '__proto__') Object.defineProperty(object, entry.key, { value, enumerable: true, writable: true, configurable: true });
      else object[entry.key] = value;
    }
    result = object;
  }
  return result;
}

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function walk(root: YNode | undefined, pointer: string): { node: YNode; keyRange?: [number, number] } | undefined {
  if (root === undefined) return undefined;
  let node: YNode = root;
  let keyRange: [number, number] | undefined;
  if (pointer === '') return { node };
  for (const raw of pointer.slice(1).split('/')) {
    const segment = unescapeSegment(raw);
    if (node.kind === 'map') {
      const entry = node.byKey.get(segment);
      if (entry === undefined) return undefined;
      node = entry.value;
      keyRange = [entry.keyStart, entry.keyEnd];
    } else if (node.kind === 'seq') {
      const item = node.items[Number(segment)];
      if (!/^\d+$/.test(segment) || item === undefined) return undefined;
      node = item;
      keyRange = undefined;
    } else {
      return undefined;
    }
  }
  return keyRange === undefined ? { node } : { node, keyRange };
}

/** Maps JSON pointers of a document's plain value back to its source. */
export function documentLocator(doc: ManifestDocument): InstanceLocator {
  return {
    value(pointer) {
      const found = walk(doc.root, pointer);
      return found === undefined ? undefined : doc.range(found.node.start, found.node.end);
    },
    key(pointer) {
      const found = walk(doc.root, pointer);
      return found?.keyRange === undefined ? undefined : doc.range(found.keyRange[0], found.keyRange[1]);
    },
  };
}
