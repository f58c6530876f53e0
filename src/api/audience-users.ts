/**
 * The users endpoints of custom audiences and the do-not-reach list (Part B, Custom audience
 * users, Do-not-reach list): a JSON array of Update and Delete operations, serialised by the
 * caller (at most 2,500 operations in 5,000,000 bytes) and sent as it is. The service reports
 * `success_count` and `total_count`; unless both equal the number of user entries sent, the
 * request counts as failed and must be sent again, which a retryable `ApiError` says. The
 * operations add or remove set members, so sending a body twice is harmless: the client retries
 * it on 5xx and dropped connections like any idempotent request. Both endpoints have their own
 * rate limit (1,500 requests a minute) apart from the write category's. The body holds private
 * identifiers: a trace shows its size and user count only.
 */
import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';
import type * as W from './generated/wire.js';

/** Most bytes in one users request body. */
export const USERS_BODY_MAX_BYTES = 5_000_000;

/** Most operation objects in one users request body. */
export const USERS_OPERATIONS_MAX = 2_500;

/** Where a users body goes. */
export interface UsersTarget {
  path: string;
  /** Operation name for accounting (`custom_audience.users`). */
  endpoint: string;
  accountId: string;
  /** The rate-limit budget of the endpoint. */
  budget: string;
}

/** The counts of an answer: `data` an object (custom audiences) or an array of them (do-not-reach list), summed. */
function countsOf(data: unknown): W.AudienceUsersResult | undefined {
  const items = Array.isArray(data) ? data : [data];
  let success = 0;
  let total = 0;
  for (const item of items) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { success_count: s, total_count: t } = item as Record<string, unknown>;
    if (typeof s !== 'number' || typeof t !== 'number') return undefined;
    success += s;
    total += t;
  }
  return items.length === 0 ? undefined : { success_count: success, total_count: total };
}

/**
 * Sends one users body holding `expected` user entries; answers the counts when the service took
 * them all, and throws a retryable `ApiError` (code `USERS_NOT_ALL_TAKEN`) when either count
 * differs. A body over 5,000,000 bytes is the caller's bug and throws before sending.
 */
export async function sendUsers(client: ApiClient, target: UsersTarget, body: string, expected: number): Promise<W.AudienceUsersResult> {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > USERS_BODY_MAX_BYTES) throw new Error(`a users body of ${bytes} bytes is over the limit of ${USERS_BODY_MAX_BYTES}`);
  const res = await client.send<{ data?: unknown }>({
    method: 'POST',
    path: target.path,
    jsonText: body,
    bodyNote: `${expected} users`,
    endpoint: target.endpoint,
    accountId: target.accountId,
    budget: target.budget,
    idempotent: true,
  });
  const counts = countsOf(res.body.data);
  if (counts === undefined || counts.success_count !== expected || counts.total_count !== expected) {
    const got = counts === undefined ? 'no counts' : `success_count ${counts.success_count} and total_count ${counts.total_count}`;
    throw new ApiError({
      status: res.status,
      items: [{ code: 'USERS_NOT_ALL_TAKEN', message: `the service answered ${got} for ${expected} users sent; send the same body again` }],
      retryable: true,
      outcome: 'rejected',
      request: `POST ${target.path}`,
    });
  }
  return counts;
}

/** The users endpoint of a custom audience. */
export function audienceUsersTarget(accountId: string, audienceId: string): UsersTarget {
  return {
    path: `/12/accounts/${encodeURIComponent(accountId)}/custom_audiences/${encodeURIComponent(audienceId)}/users`,
    endpoint: 'custom_audience.users',
    accountId,
    budget: 'audience_users:custom_audiences',
  };
}

/** The users batch of the do-not-reach list. */
export function doNotReachUsersTarget(accountId: string, listId: string): UsersTarget {
  return {
    path: `/12/batch/accounts/${encodeURIComponent(accountId)}/do_not_reach_lists/${encodeURIComponent(listId)}/users`,
    endpoint: 'do_not_reach_list.users',
    accountId,
    budget: 'audience_users:do_not_reach_lists',
  };
}
