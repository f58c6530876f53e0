/**
 * A table of one kind of record with the indexes lists need: by id, by account and by any number
 * of secondary keys (a line item's campaign, a promoted post's line item). Every index keeps rows
 * in creation order, so a list is a walk over one array and a cursor is a position in it.
 */
import type { Kind, Row } from './row.js';

/** A secondary index: the key of a row under it, or undefined to leave the row out. */
export type IndexKey = (row: Row) => string | undefined;

export class Table {
  readonly kind: Kind;
  readonly byId = new Map<string, Row>();
  private readonly byAccountRows = new Map<string, Row[]>();
  private readonly indexes = new Map<string, { key: IndexKey; rows: Map<string, Row[]> }>();

  constructor(kind: Kind, indexes: Record<string, IndexKey> = {}) {
    this.kind = kind;
    for (const [name, key] of Object.entries(indexes)) this.indexes.set(name, { key, rows: new Map() });
  }

  get(id: string): Row | undefined {
    return this.byId.get(id);
  }

  /** Rows of an account in creation order (shared array: do not mutate). */
  ofAccount(accountId: string): readonly Row[] {
    return this.byAccountRows.get(accountId) ?? [];
  }

  /** Rows under `key` of the secondary index `index`, in creation order. */
  under(index: string, key: string): readonly Row[] {
    const ix = this.indexes.get(index);
    if (ix === undefined) throw new Error(`table ${this.kind} has no index ${index}`);
    return ix.rows.get(key) ?? [];
  }

  all(): IterableIterator<Row> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  /** Adds a new row (its seq must be larger than every row's before it). */
  add(row: Row): void {
    this.byId.set(row.id, row);
    push(this.byAccountRows, row.accountId, row);
    for (const ix of this.indexes.values()) {
      const key = ix.key(row);
      if (key !== undefined) push(ix.rows, key, row);
    }
  }

  /** Removes the most recently added row again (rollback of `add`). */
  removeLast(row: Row): void {
    this.byId.delete(row.id);
    pop(this.byAccountRows, row.accountId, row);
    for (const ix of this.indexes.values()) {
      const key = ix.key(row);
      if (key !== undefined) pop(ix.rows, key, row);
    }
  }

  /** Moves a row between secondary index entries after a change of its keys. */
  reindex(row: Row, before: Row): void {
    for (const ix of this.indexes.values()) {
      const oldKey = ix.key(before);
      const newKey = ix.key(row);
      if (oldKey === newKey) continue;
      if (oldKey !== undefined) {
        const list = ix.rows.get(oldKey);
        if (list !== undefined) {
          const at = list.indexOf(row);
          if (at >= 0) list.splice(at, 1);
        }
      }
      if (newKey !== undefined) insertBySeq(ix.rows, newKey, row);
    }
  }
}

function push(map: Map<string, Row[]>, key: string, row: Row): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [row]);
  else list.push(row);
}

function pop(map: Map<string, Row[]>, key: string, row: Row): void {
  const list = map.get(key);
  if (list === undefined) return;
  if (list[list.length - 1] === row) list.pop();
  else {
    const at = list.indexOf(row);
    if (at >= 0) list.splice(at, 1);
  }
  if (list.length === 0) map.delete(key);
}

function insertBySeq(map: Map<string, Row[]>, key: string, row: Row): void {
  const list = map.get(key);
  if (list === undefined) {
    map.set(key, [row]);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.seq < row.seq) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, row);
}
