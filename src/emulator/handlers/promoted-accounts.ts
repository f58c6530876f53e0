/**
 * Promoted accounts (Part A, Promoted accounts). Only PROMOTED_ACCOUNT line items take them: POST
 * on another line item is 400 INCOMPATIBLE_LINE_ITEM, and a list filtered to line items none of
 * which is PROMOTED_ACCOUNT is 400 as well. An unknown or ineligible user is 400 and nobody is
 * promoted. Promoting a user the line item already promotes is ignored: the existing record comes
 * back with 200 instead of a new one with 201. No PUT.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { badRequest, invalidParameter } from '../errors.js';
import { recordHistory } from '../history.js';
import { listPage, readListParams } from '../list.js';
import type { Row } from '../store/row.js';
import { accountIdOf, findRow, now } from './common.js';
import { childCandidates, findLineItem, lineItemsAmong } from './line-item-children.js';

const SORTABLE = ['created_at', 'updated_at', 'deleted'] as const;
const LABEL = 'Promoted Account';

const incompatible = (message: string, parameter: string): ReturnType<typeof badRequest> => badRequest('INCOMPATIBLE_LINE_ITEM', message, parameter);

function listPromotedAccounts(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  const lineItemIds = p.list('line_item_ids', { max: 200 });
  const ids = p.list('promoted_account_ids', { max: 200 });
  p.finish();
  if (lineItemIds !== undefined && !lineItemsAmong(ctx, lineItemIds).some((li) => li.rec['product_type'] === 'PROMOTED_ACCOUNT')) {
    throw incompatible(`None of the line items ${lineItemIds.join(', ')} is configured for promoted accounts`, 'line_item_ids');
  }
  const rows = childCandidates(ctx, 'promoted_account', { ...(lineItemIds === undefined ? {} : { lineItemIds }), ...(ids === undefined ? {} : { ids }) });
  return { body: listPage(p, q, rows) };
}

function getPromotedAccount(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const withDeleted = p.bool('with_deleted') ?? false;
  p.finish();
  const row = findRow(ctx, 'promoted_account', ctx.pathParams['promoted_account_id'] ?? '', LABEL, 'promoted_account_id', withDeleted);
  return { body: single(p, { ...row.rec }) };
}

function postPromotedAccount(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const lineItemId = p.string('line_item_id', { required: true });
  const userId = p.string('user_id', { required: true });
  if (typeof userId === 'string' && !/^\d{1,19}$/.test(userId)) p.fail(invalidParameter('user_id', `Expected Long, got ${JSON.stringify(userId)} for user_id`));
  p.finish();
  const lineItem = findLineItem(ctx, lineItemId!);
  if (lineItem.rec['product_type'] !== 'PROMOTED_ACCOUNT') {
    throw incompatible(`Line Item ${lineItem.id} has product_type ${String(lineItem.rec['product_type'])} and is not configured for promoted accounts`, 'line_item_id');
  }
  const user = ctx.store.get('user', userId!);
  if (user === undefined) throw badRequest('INVALID_USER_ID', `User ${userId!} was not found`, 'user_id');
  if (user.ext['eligible'] === false) throw badRequest('INVALID_USER', `User ${userId!} is not eligible for promotion; nobody was promoted`, 'user_id');
  const already = ctx.store
    .table('promoted_account')
    .under('line_item', lineItem.id)
    .find((r) => r.rec['deleted'] !== true && r.rec['user_id'] === user.id);
  if (already !== undefined) return { body: single(p, { ...already.rec }) };
  const id = ctx.store.newId();
  const time = now(ctx);
  const row: Row = ctx.store.insert('promoted_account', id, accountIdOf(ctx), {
    line_item_id: lineItem.id,
    user_id: user.id,
    id,
    entity_status: 'ACTIVE',
    created_at: time,
    updated_at: time,
    approval_status: 'ACCEPTED',
    deleted: false,
  });
  recordHistory(ctx, 'PROMOTED_ACCOUNT', 'CREATE', row);
  return { status: 201, body: single(p, { ...row.rec }) };
}

function deletePromotedAccount(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findRow(ctx, 'promoted_account', ctx.pathParams['promoted_account_id'] ?? '', LABEL, 'promoted_account_id');
  const before = row.rec;
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  recordHistory(ctx, 'PROMOTED_ACCOUNT', 'DELETE', row, before);
  return { body: single(ctx.params, { ...row.rec }) };
}

const COLLECTION = '/12/accounts/:account_id/promoted_accounts';

/** The promoted accounts endpoints (no PUT). */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'core_read', access: 'read', handler: listPromotedAccounts },
  { method: 'GET', path: `${COLLECTION}/:promoted_account_id`, family: 'core_read', access: 'read', handler: getPromotedAccount },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'campaign', handler: postPromotedAccount },
  { method: 'DELETE', path: `${COLLECTION}/:promoted_account_id`, family: 'write', access: 'campaign', handler: deletePromotedAccount },
];
