/**
 * `POST accounts/:account_id/custom_audiences/:custom_audience_id/users` (Part B, Custom audience
 * users): a JSON array of Update and Delete operations (audience-user-operations.ts) on a CRM
 * audience the account owns or was granted READ_WRITE on (403 `ACTION_NOT_ALLOWED` for READ_ONLY;
 * a flexible audience is 400 `INVALID_TAILORED_AUDIENCE_TYPE`). `effective_at` defaults to now,
 * `expires_at` to 13 months after the request and must be later than `effective_at`; both are
 * checked, then membership holds until Delete (the emulator does not expire members). Any
 * problem fails the whole request (400, nothing kept). The answer's `success_count` and
 * `total_count` are both the number of user entries received.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { WireError, badRequest } from '../errors.js';
import { applyUserOperations, checkOperationArray, checkUsersBodySize, readUserOperations, type UserOperationRules } from './audience-user-operations.js';
import { AUDIENCE_LABEL, audienceMembers, findAudience } from './custom-audience-model.js';

const RULES: UserOperationRules = {
  identifiers: ['email', 'device_id', 'handle', 'service_id', 'twitter_id', 'phone_number', 'partner_user_id'],
  effectiveAt: true,
  checkExpiry: (expires, effective) => (expires.getTime() > effective.getTime() ? undefined : 'expires_at must be later than effective_at'),
};

function uploadUsers(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  checkUsersBodySize(ctx);
  const { row, grant } = findAudience(ctx, 'custom_audience_id');
  if (grant !== undefined && grant.rec['permission_level'] !== 'READ_WRITE') {
    throw new WireError(403, [{ code: 'ACTION_NOT_ALLOWED', message: `${AUDIENCE_LABEL} ${row.id} is shared with Account ${grant.rec['granted_account_id']} READ_ONLY` }]);
  }
  if (row.rec['audience_type'] !== 'CRM') throw badRequest('INVALID_TAILORED_AUDIENCE_TYPE', `Users cannot be added to the ${String(row.rec['audience_type'])} audience ${row.id}`);
  const problem = checkOperationArray(ctx.json);
  if (problem !== undefined) throw new WireError(400, [problem]);
  const { ops, errors } = readUserOperations(ctx.json as unknown[], RULES, ctx.clock.now());
  const flat = errors.flatMap((errs, i) => errs.map((e) => ({ ...e, message: `operation ${i}: ${e.message}` })));
  if (flat.length > 0) throw new WireError(400, flat);

  const records = applyUserOperations(ctx, row, audienceMembers(row.id), ops);
  return { body: { request: { params: ctx.params.echo }, data: { success_count: records, total_count: records } } };
}

/** The custom audience users endpoint: JSON body, its own rate limit family. */
export const routes: RouteDef[] = [
  {
    method: 'POST',
    path: '/12/accounts/:account_id/custom_audiences/:custom_audience_id/users',
    family: 'audience_users',
    access: 'audience',
    jsonBody: true,
    handler: uploadUsers,
  },
];
