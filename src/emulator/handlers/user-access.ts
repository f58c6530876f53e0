/**
 * Authenticated user access (Part A): the caller's own permissions on the path's account, exactly
 * as the account grants them (the server has already resolved them for the access check).
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';

function getUserAccess(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.finish();
  const userId = ctx.principal.kind === 'user' ? ctx.principal.userId : null;
  return { body: single(p, { user_id: userId, permissions: [...ctx.permissions] }) };
}

/** The authenticated user access route. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/authenticated_user_access', family: 'account_read', access: 'any', handler: getUserAccess },
];
