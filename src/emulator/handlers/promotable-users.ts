/**
 * Promotable users (Part A, Promotable users): the users whose content the account may promote,
 * listed with the common list parameters and a `promotable_user_ids` filter, or looked up by id.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { listPage, readListParams, rowsByIds } from '../list.js';
import { accountIdOf, getOne } from './common.js';

/** Attributes `sort_by` accepts: the ones every collection sorts by (the service lists no others here). */
const SORTABLE = ['created_at', 'updated_at', 'deleted'] as const;

function listPromotableUsers(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  const ids = p.list('promotable_user_ids', { max: 200 });
  p.finish();
  const accountId = accountIdOf(ctx);
  const table = ctx.store.table('promotable_user');
  const candidates = ids === undefined ? table.ofAccount(accountId) : rowsByIds((id) => table.get(id), ids, accountId);
  return { body: listPage(p, q, candidates) };
}

/** Promotable user routes. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/promotable_users', family: 'account_read', access: 'any', handler: listPromotableUsers },
  {
    method: 'GET',
    path: '/12/accounts/:account_id/promotable_users/:promotable_user_id',
    family: 'account_read',
    access: 'any',
    handler: (ctx) => getOne(ctx, 'promotable_user', 'promotable_user_id', 'Promotable user'),
  },
];
