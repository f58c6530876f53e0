/**
 * The common list parameters and the list envelope: `count` (default 200, 1..1000 unless the
 * endpoint says otherwise), opaque `cursor`, `sort_by` against the endpoint's sortable attributes,
 * `with_deleted`, `with_total_count` (not with `cursor`), and the `q` name prefix filter.
 * Default order is creation order and its cursor is a position in it, so records created or
 * deleted while a client pages do not shift the pages.
 */
import { WireError, invalidParameter } from './errors.js';
import type { ParamReader } from './params.js';
import type { Rec, Row } from './store/row.js';

interface ListSpec {
  countDefault?: number;
  countMax?: number;
  /** Attributes accepted by `sort_by`; empty means the endpoint takes no `sort_by`. */
  sortable?: readonly string[];
  /** Field matched by `q` (case-insensitive prefix), and the longest `q` accepted. */
  q?: { field: string; max: number };
  withDeleted?: boolean;
  withTotalCount?: boolean;
  cursor?: boolean;
}

export interface ListQuery {
  count: number;
  cursor: { kind: 'seq' | 'offset'; value: number } | undefined;
  sort: { field: string; desc: boolean } | undefined;
  withDeleted: boolean;
  withTotalCount: boolean;
  q: string | undefined;
  qField: string | undefined;
}

/** Reads the common list parameters an endpoint supports. */
export function readListParams(p: ParamReader, spec: ListSpec = {}): ListQuery {
  const count = p.int('count', { min: 1, max: spec.countMax ?? 1000, kind: 'Int' }) ?? spec.countDefault ?? 200;
  let cursor: ListQuery['cursor'];
  if (spec.cursor !== false) {
    const raw = p.string('cursor');
    if (typeof raw === 'string') {
      cursor = decodeCursor(raw);
      if (cursor === undefined) p.fail(invalidParameter('cursor', `Invalid cursor ${JSON.stringify(raw)}`));
    }
  }
  let sort: ListQuery['sort'];
  if (spec.sortable !== undefined) {
    const raw = p.string('sort_by');
    if (typeof raw === 'string') {
      const m = /^([a-z_]+)-(asc|desc)$/.exec(raw);
      if (m === null || !spec.sortable.includes(m[1]!)) {
        p.fail(invalidParameter('sort_by', `Expected sort_by as <attribute>-asc or <attribute>-desc with attribute in ${spec.sortable.join(', ')}, got ${JSON.stringify(raw)}`));
      } else sort = { field: m[1]!, desc: m[2] === 'desc' };
    }
  }
  const withDeleted = spec.withDeleted === false ? false : (p.bool('with_deleted') ?? false);
  const withTotalCount = spec.withTotalCount === false ? false : (p.bool('with_total_count') ?? false);
  if (withTotalCount && cursor !== undefined) {
    p.fail(new WireError(400, [{ code: 'EXCLUSIVE_PARAMETERS', message: 'with_total_count and cursor are exclusive parameters', parameter: 'with_total_count' }]));
  }
  let q: string | undefined;
  if (spec.q !== undefined) q = p.string('q', { min: 1, max: spec.q.max }) ?? undefined;
  return { count, cursor, sort, withDeleted, withTotalCount, q, qField: spec.q?.field };
}

function decodeCursor(raw: string): ListQuery['cursor'] {
  const m = /^([so])([0-9a-z]{1,12})$/.exec(raw);
  if (m === null) return undefined;
  const value = parseInt(m[2]!, 36);
  return Number.isSafeInteger(value) ? { kind: m[1] === 's' ? 'seq' : 'offset', value } : undefined;
}

const encodeCursor = (kind: 'seq' | 'offset', value: number): string => `${kind === 'seq' ? 's' : 'o'}${value.toString(36)}`;

/** Whether a row passes the deleted and `q` filters of the query. */
function visible(q: ListQuery, row: Row): boolean {
  if (!q.withDeleted && row.rec['deleted'] === true) return false;
  if (q.q !== undefined && q.qField !== undefined) {
    const name = row.rec[q.qField];
    if (typeof name !== 'string' || !name.toLowerCase().startsWith(q.q.toLowerCase())) return false;
  }
  return true;
}

/** The list envelope: one page of `candidates` (in creation order) that pass `keep`. */
export function listPage(
  p: ParamReader,
  q: ListQuery,
  candidates: readonly Row[],
  keep: (row: Row) => boolean = () => true,
  toWire: (row: Row) => Rec = (row) => ({ ...row.rec }),
): Rec {
  const pass = (row: Row): boolean => visible(q, row) && keep(row);
  const data: Rec[] = [];
  let next: string | null = null;
  if (q.sort === undefined && q.cursor?.kind !== 'offset') {
    let lastSeq = 0;
    for (let i = q.cursor === undefined ? 0 : firstAfter(candidates, q.cursor.value); i < candidates.length; i++) {
      const row = candidates[i]!;
      if (!pass(row)) continue;
      if (data.length === q.count) {
        next = encodeCursor('seq', lastSeq);
        break;
      }
      data.push(toWire(row));
      lastSeq = row.seq;
    }
  } else {
    const all = candidates.filter(pass);
    if (q.sort !== undefined) {
      const { field, desc } = q.sort;
      all.sort((a, b) => compare(a.rec[field], b.rec[field], desc) || a.seq - b.seq);
    }
    const start = q.cursor?.value ?? 0;
    for (const row of all.slice(start, start + q.count)) data.push(toWire(row));
    if (start + q.count < all.length) next = encodeCursor('offset', start + q.count);
  }
  const body: Rec = { request: { params: p.echo }, next_cursor: next, data };
  if (q.withTotalCount) body['total_count'] = countPassing(candidates, pass);
  return body;
}

function countPassing(rows: readonly Row[], pass: (row: Row) => boolean): number {
  let n = 0;
  for (const row of rows) if (pass(row)) n++;
  return n;
}

function firstAfter(rows: readonly Row[], seq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function compare(a: unknown, b: unknown, desc: boolean): number {
  const sign = desc ? -1 : 1;
  if (a === b) return 0;
  if (a === null || a === undefined) return 1; // nulls last either way
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
  return sign * String(a).localeCompare(String(b));
}

/** Merges several creation-ordered row lists (e.g. the line items of many campaigns) into one. */
export function mergeBySeq(lists: ReadonlyArray<readonly Row[]>): Row[] {
  if (lists.length === 1) return [...lists[0]!];
  const out: Row[] = [];
  for (const l of lists) for (const r of l) out.push(r);
  return out.sort((a, b) => a.seq - b.seq);
}

/** Rows for an id filter: each id looked up, unknown ids skipped, in creation order. */
export function rowsByIds(get: (id: string) => Row | undefined, ids: readonly string[], accountId: string): Row[] {
  const seen = new Set<string>();
  const rows: Row[] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const row = get(id);
    if (row !== undefined && row.accountId === accountId) rows.push(row);
  }
  return rows.sort((a, b) => a.seq - b.seq);
}
