/**
 * What the resources that hang off a line item (targeting criteria, promoted posts and accounts,
 * media creatives) share: finding their line item, and the candidate rows of a list filtered by
 * line item ids and by their own ids, in creation order.
 */
import type { ApiContext } from '../context.js';
import { mergeBySeq, rowsByIds } from '../list.js';
import type { Kind, Row } from '../store/row.js';
import { accountIdOf, findRow } from './common.js';

/** The line item `id` of the path's account; 404 NOT_FOUND naming `param` when missing or deleted. */
export function findLineItem(ctx: ApiContext, id: string, param = 'line_item_id'): Row {
  return findRow(ctx, 'line_item', id, 'Line Item', param);
}

/** True when the line item a child row belongs to has been deleted. */
export function parentDeleted(ctx: ApiContext, row: Row): boolean {
  const parent = ctx.store.get('line_item', String(row.rec['line_item_id']));
  return parent?.rec['deleted'] === true;
}

/** The line items of the path's account among `ids` (unknown ids skipped), in creation order. */
export function lineItemsAmong(ctx: ApiContext, ids: readonly string[]): Row[] {
  return rowsByIds((id) => ctx.store.get('line_item', id), ids, accountIdOf(ctx));
}

/**
 * Rows of `kind` in the path's account, narrowed to the given line items and to the given ids of
 * their own (each filter optional), in creation order.
 */
export function childCandidates(ctx: ApiContext, kind: Kind, filters: { lineItemIds?: readonly string[]; ids?: readonly string[] }): readonly Row[] {
  const accountId = accountIdOf(ctx);
  const table = ctx.store.table(kind);
  const { lineItemIds, ids } = filters;
  if (ids !== undefined) {
    const rows = rowsByIds((id) => table.get(id), ids, accountId);
    if (lineItemIds === undefined) return rows;
    const wanted = new Set(lineItemIds);
    return rows.filter((r) => wanted.has(String(r.rec['line_item_id'])));
  }
  if (lineItemIds !== undefined) {
    const lists = [...new Set(lineItemIds)].map((id) => table.under('line_item', id).filter((r) => r.accountId === accountId));
    return lists.length === 0 ? [] : mergeBySeq(lists);
  }
  return table.ofAccount(accountId);
}
