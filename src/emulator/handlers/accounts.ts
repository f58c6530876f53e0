/** Accounts: list, lookup, update; sandbox create and delete. */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { accountNotFound } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import type { Row } from '../store/row.js';

const SORTABLE = ['created_at', 'updated_at', 'deleted', 'name'] as const;

/** Accounts the calling user is associated with, in creation order. */
function userAccounts(ctx: ApiContext): Row[] {
  if (ctx.principal.kind !== 'user') return [];
  const userId = ctx.principal.userId;
  const rows: Row[] = [];
  for (const row of ctx.store.table('account').all()) {
    const users = row.ext['users'] as Record<string, string[]> | undefined;
    if (users?.[userId] !== undefined) rows.push(row);
  }
  return rows.sort((a, b) => a.seq - b.seq);
}

function listAccounts(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE, q: { field: 'name', max: 255 } });
  const ids = p.list('account_ids', { max: 200 });
  p.finish();
  const mine = userAccounts(ctx);
  const wanted = ids === undefined ? undefined : new Set(ids);
  return { body: listPage(p, q, wanted === undefined ? mine : mine.filter((r) => wanted.has(r.id))) };
}

function getAccount(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const withDeleted = p.bool('with_deleted') ?? false;
  p.finish();
  const account = ctx.account!;
  if (account.rec['deleted'] === true && !withDeleted) throw accountNotFound(account.id);
  return { body: single(p, { ...account.rec }) };
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts', family: 'account_read', access: 'none', handler: listAccounts },
  { method: 'GET', path: '/12/accounts/:account_id', family: 'account_read', access: 'any', handler: getAccount },
];
