/**
 * Account apps (Part A, Account apps): the mobile apps associated with the account, as a list
 * with the common list parameters. Apps come with the account (seeded); the API only reads them.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { listPage, readListParams } from '../list.js';
import { accountIdOf } from './common.js';

/** Attributes `sort_by` accepts: the ones every collection sorts by (the service lists no others for apps). */
const SORTABLE = ['created_at', 'updated_at', 'deleted'] as const;

function listAccountApps(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  p.finish();
  return { body: listPage(p, q, ctx.store.table('account_app').ofAccount(accountIdOf(ctx))) };
}

/** Account app routes. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/account_apps', family: 'account_read', access: 'any', handler: listAccountApps },
];
