/**
 * Line items: list, lookup, create, update, delete and the batch endpoint (Part A, Line items;
 * docs/service-behaviour.md, "Batches" and "Line items"). Draft line items are left out of lists unless `with_draft=true`; deleted ones
 * unless `with_deleted=true`. The write rules live in line-item-write.ts and line-item-rules.ts.
 */
import { runBatch } from '../batch.js';
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { listPage, mergeBySeq, readListParams, rowsByIds } from '../list.js';
import type { Row } from '../store/row.js';
import { accountIdOf, getOne } from './common.js';
import { createLineItem, deleteLineItem, updateLineItem } from './line-item-write.js';

/** Attributes `sort_by` accepts for line items (docs/service-behaviour.md, "Lists and sorting"). */
const LINE_ITEM_SORTABLE = ['created_at', 'updated_at', 'deleted', 'bid_amount_local_micro'] as const;

/** Largest number of operations in one line item batch. */
const LINE_ITEM_BATCH_MAX = 40;

function listLineItems(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: LINE_ITEM_SORTABLE, q: { field: 'name', max: 255 } });
  const campaignIds = p.list('campaign_ids', { max: 200 });
  const fis = p.list('funding_instrument_ids', { max: 200 });
  const ids = p.list('line_item_ids', { max: 200 });
  const withDraft = p.bool('with_draft') ?? false;
  p.finish();
  const accountId = accountIdOf(ctx);
  const table = ctx.store.table('line_item');
  let candidates: readonly Row[];
  if (ids !== undefined) candidates = rowsByIds((id) => table.get(id), ids, accountId);
  else if (campaignIds !== undefined) candidates = mergeBySeq([...new Set(campaignIds)].map((c) => table.under('campaign', c)));
  else if (fis !== undefined) candidates = mergeBySeq([...new Set(fis)].map((fi) => table.under('funding_instrument', fi)));
  else candidates = table.ofAccount(accountId);
  const campaignSet = campaignIds === undefined ? undefined : new Set(campaignIds);
  const fiSet = fis === undefined ? undefined : new Set(fis);
  const keep = (row: Row): boolean =>
    row.accountId === accountId &&
    (withDraft || row.rec['entity_status'] !== 'DRAFT') &&
    (campaignSet === undefined || campaignSet.has(String(row.rec['campaign_id']))) &&
    (fiSet === undefined || fiSet.has(String(row.rec['funding_instrument_id'])));
  return { body: listPage(p, q, candidates, keep) };
}

function postLineItem(ctx: ApiContext): HandlerResult {
  const row = createLineItem(ctx, ctx.params);
  return { status: 201, body: single(ctx.params, { ...row.rec }) };
}

function putLineItem(ctx: ApiContext): HandlerResult {
  const row = updateLineItem(ctx, ctx.params, ctx.pathParams['line_item_id'] ?? '');
  return { body: single(ctx.params, { ...row.rec }) };
}

function removeLineItem(ctx: ApiContext): HandlerResult {
  const row = deleteLineItem(ctx, ctx.params, ctx.pathParams['line_item_id'] ?? '');
  return { body: single(ctx.params, { ...row.rec }) };
}

function batchLineItems(ctx: ApiContext): HandlerResult {
  return runBatch(ctx, {
    max: LINE_ITEM_BATCH_MAX,
    operations: {
      Create: (p) => ({ ...createLineItem(ctx, p).rec }),
      Update: (p) => ({ ...updateLineItem(ctx, p, p.string('line_item_id', { required: true }) ?? '').rec }),
      Delete: (p) => ({ ...deleteLineItem(ctx, p, p.string('line_item_id', { required: true }) ?? '').rec }),
    },
  });
}

/** The line item endpoints, registered in routes.ts. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/line_items', family: 'core_read', access: 'read', handler: listLineItems },
  {
    method: 'GET',
    path: '/12/accounts/:account_id/line_items/:line_item_id',
    family: 'core_read',
    access: 'read',
    handler: (ctx) => getOne(ctx, 'line_item', 'line_item_id', 'Line Item'),
  },
  { method: 'POST', path: '/12/accounts/:account_id/line_items', family: 'write', access: 'campaign', handler: postLineItem },
  { method: 'PUT', path: '/12/accounts/:account_id/line_items/:line_item_id', family: 'write', access: 'campaign', handler: putLineItem },
  { method: 'DELETE', path: '/12/accounts/:account_id/line_items/:line_item_id', family: 'write', access: 'campaign', handler: removeLineItem },
  { method: 'POST', path: '/12/batch/accounts/:account_id/line_items', family: 'write', access: 'campaign', jsonBody: true, handler: batchLineItems },
];
