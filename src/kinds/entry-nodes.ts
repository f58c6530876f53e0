/**
 * The positioned tree a manifest entry is read from, as the manifest stage builds it
 * (src/manifest/yaml-tree.ts with yaml, yaml-fast.ts without): maps, sequences and scalars that
 * remember where every key and value was written, and the accessors every reader of it shares.
 * It sits here, below the manifest stage, because the kinds' own manifest readers
 * (`ManifestFields.read`, `identity`) read entries of it; src/manifest/ re-exports it.
 */

/** A scalar value with its source text (`raw`, after interpolation), used for exact ids and money. */
export interface YScalar {
  kind: 'scalar';
  start: number;
  end: number;
  value: string | number | boolean | null;
  raw: string;
}

/** One key of a map: its text and where it was written, and its value. */
export interface YEntry {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: YNode;
}

/**
 * A map with its entries in source order (merged entries where their `<<` was) and an index by
 * key. `size` counts the nodes it stands for once aliases are expanded.
 */
export interface YMap {
  kind: 'map';
  start: number;
  end: number;
  entries: YEntry[];
  byKey: Map<string, YEntry>;
  size: number;
}

/** A sequence; `size` as for maps. */
export interface YSeq {
  kind: 'seq';
  start: number;
  end: number;
  items: YNode[];
  size: number;
}

/** A node of the positioned tree; alias expansion may make one node appear at several places. */
export type YNode = YMap | YSeq | YScalar;

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
