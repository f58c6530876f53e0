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
import { SERVICE_LIMITS } from '../service/limits.js';

/** Most bytes in one users request body. */
export const USERS_BODY_MAX_BYTES = SERVICE_LIMITS.usersBodyBytes;

/** Where a users body goes. */
export interface UsersTarget {
  path: string;
  /** Operation name for accounting (`custom_audience.users`). */
  endpoint: string;
  accountId: string;
  /** The rate-limit budget of the endpoint. */
  budget: string;
}

/** The verdict on one answer: its counts when complete, else why it is a failure to send again. */
type UsersResponseCheck = { ok: true; successCount: number; totalCount: number } | { ok: false; problem: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The counts of an answer's `data`: an object (custom audiences) or an array of them (do-not-reach list), summed. */
function countsOf(data: unknown): { success: number; total: number } | string {
  const items = Array.isArray(data) ? data : [data];
  if (items.length === 0) return 'the answer holds no counts (data is an empty array)';
  let success = 0;
  let total = 0;
  for (const item of items) {
    const rec = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const s = rec['success_count'];
    const t = rec['total_count'];
    if (!isCount(s) || !isCount(t)) return 'the answer lacks success_count or total_count';
    success += s;
    total += t;
  }
  return { success, total };
}

/**
 * Checks the parsed answer body `response` (`{request, data}`) to a users request of `sent.users`
 * user entries: complete when `success_count` and `total_count` both equal them; anything else
 * (counts that differ, counts missing) is a failure the caller sends again.
 */
export function verifyUsersResponse(sent: { users: number }, response: unknown): UsersResponseCheck {
  const data = typeof response === 'object' && response !== null ? (response as Record<string, unknown>)['data'] : undefined;
  const counts = countsOf(data);
  if (typeof counts === 'string') return { ok: false, problem: counts };
  if (counts.success !== sent.users || counts.total !== sent.users) {
    return { ok: false, problem: `the service answered success_count ${counts.success} and total_count ${counts.total} for ${sent.users} users sent` };
  }
  return { ok: true, successCount: counts.success, totalCount: counts.total };
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
  const check = verifyUsersResponse({ users: expected }, res.body);
  if (!check.ok) {
    throw new ApiError({
      status: res.status,
      items: [{ code: 'USERS_NOT_ALL_TAKEN', message: `${check.problem}; send the same body again` }],
      retryable: true,
      outcome: 'rejected',
      request: `POST ${target.path}`,
    });
  }
  return { success_count: check.successCount, total_count: check.totalCount };
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
