/**
 * Which rate-limit budgets a request draws from (docs/service-behaviour.md, "Rate limits"): writes from one per-user
 * category budget; core and other account reads from a per-account, per-endpoint budget (reported
 * in the `x-account-rate-limit-*` headers) plus the high user quota; global reads per endpoint
 * and user; targeting options per user; and `with_total_count` from its own budget.
 */
import type { Principal, RouteDef } from './context.js';
import type { Charge } from './rate-limits.js';

/** The budgets one request of `route` by `principal` is charged to. */
export function charges(route: RouteDef, principal: Principal, accountId: string | undefined, totalCount: boolean): Charge[] {
  const who = principal.kind === 'user' ? `u:${principal.token}` : `a:${principal.consumerKey}`;
  const out: Charge[] = [];
  switch (route.family) {
    case 'write':
      out.push({ key: `write:${who}`, family: 'write' });
      break;
    case 'core_read':
    case 'account_read':
      if (accountId === undefined) out.push({ key: `${route.family}:${route.path}:${who}`, family: route.family });
      else {
        out.push({ key: `quota:${route.path}:${who}`, family: 'user_quota' });
        out.push({ key: `${route.family}:${route.path}:${accountId}`, family: route.family, account: true });
      }
      break;
    case 'global_read':
      out.push({ key: `global:${route.method}:${route.path}:${who}`, family: 'global_read' });
      break;
    case 'targeting_options':
      out.push({ key: `targeting:${who}`, family: 'targeting_options' });
      break;
    case 'audience_users':
      out.push({ key: `audience:${route.path}:${who}`, family: 'audience_users' });
      break;
    case 'insights':
      out.push({ key: `insights:${who}`, family: 'insights' });
      break;
  }
  if (totalCount) out.push({ key: `total_count:${who}`, family: 'total_count' });
  return out;
}
