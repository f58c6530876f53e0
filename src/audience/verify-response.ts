/**
 * `verifyUsersResponse`: whether the service took a whole users request. Both users endpoints
 * answer `success_count` and `total_count`, the user entries received; the specification asks a
 * client to treat an answer whose counts differ from the records sent as a failure and send the
 * request again. The custom audience endpoint answers `data` as an object, the do-not-reach list
 * endpoint as an array of such objects (their counts are summed).
 */
import type { UsersRequest } from './user-requests.js';

/** The verdict on one answer: its counts when complete, else why it is a failure to retry. */
export type UsersResponseCheck = { ok: true; successCount: number; totalCount: number } | { ok: false; problem: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

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
 * Checks the parsed answer body `response` (`{request, data}`) to the request `sent`: complete
 * when `success_count` and `total_count` both equal the user entries sent; anything else
 * (counts that differ, counts missing) is a failure the caller retries.
 */
export function verifyUsersResponse(sent: Pick<UsersRequest, 'users'>, response: unknown): UsersResponseCheck {
  const data = typeof response === 'object' && response !== null ? (response as Record<string, unknown>)['data'] : undefined;
  const counts = countsOf(data);
  if (typeof counts === 'string') return { ok: false, problem: counts };
  if (counts.success !== sent.users || counts.total !== sent.users) {
    return { ok: false, problem: `the service counted success_count ${counts.success} and total_count ${counts.total} for ${sent.users} user entries sent` };
  }
  return { ok: true, successCount: counts.success, totalCount: counts.total };
}
