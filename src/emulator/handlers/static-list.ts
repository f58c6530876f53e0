/**
 * The list envelope over static lookup data (IAB categories, curated categories): records in their
 * fixed order, paged by `count` and an opaque `cursor` in the same form as stored lists use, with
 * `total_count` when asked for (or always, for endpoints whose response always carries it).
 */
import type { ListQuery } from '../list.js';
import type { ParamReader } from '../params.js';
import type { Rec } from '../store/row.js';

/** One page of `records` for the query; `alwaysTotal` adds `total_count` without `with_total_count`. */
export function staticPage(p: ParamReader, q: ListQuery, records: readonly Rec[], alwaysTotal = false): Rec {
  const start = q.cursor?.value ?? 0;
  const end = start + q.count;
  const body: Rec = {
    request: { params: p.echo },
    next_cursor: end < records.length ? `o${end.toString(36)}` : null,
    data: records.slice(start, end).map((r) => ({ ...r })),
  };
  if (alwaysTotal || q.withTotalCount) body['total_count'] = records.length;
  return body;
}

/** The envelope of a lookup that is never paged: every record, `next_cursor` null. */
export function wholeList(p: ParamReader, records: readonly Rec[]): Rec {
  return { request: { params: p.echo }, next_cursor: null, data: records.map((r) => ({ ...r })) };
}
