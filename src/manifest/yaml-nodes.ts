/**
 * The positioned tree a manifest is read into (yaml-tree.ts with yaml, yaml-fast.ts without):
 * maps, sequences and scalars that remember where every key and value was written. Its own file,
 * so the two readers share it without importing each other.
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
