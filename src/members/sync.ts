/**
 * Apply's side of a membership: the member file is read again (it must still be what the plan
 * saw), compared with the members last uploaded (kept beside the state), and only the difference
 * is sent — Delete operations for members gone, then Update operations for members new — in
 * requests at the service's limits, each verified by its counts (`success_count`, `total_count`)
 * and sent again when they disagree. The members uploaded are recorded only once every request succeeded; until then the
 * next run computes the same difference again (the operations are idempotent), so nothing is
 * lost. Removing the membership (a delete) takes every recorded member out. Without the members
 * last uploaded (a store missing, damaged or another membership's) nothing is sent: an upload of
 * the file alone would keep everyone removed from it.
 */
import type { AdsApi } from '../api/ads-api.js';
import { ApiError } from '../api/errors.js';
import { emptyMemberSet, partnerIdsKnown, type MemberSet } from './sets/member-set.js';
import { userRequests, type UsersRequest } from './sets/user-requests.js';
import type { MembersEndpoint, WriteContext, WriteItem } from '../kinds/descriptor.js';
import { LocalWriteError } from '../kinds/write-error.js';
import { projectRootOf } from '../manifest/project-root.js';
import { membershipModule } from './load-membership.js';

/** Times one users request is sent while the service's counts disagree with what was sent. */
const MAX_ATTEMPTS = 5;

/**
 * Sends one request, again while the service answers counts that differ from what was sent (the
 * client's retryable `USERS_NOT_ALL_TAKEN`): the operations only add or remove members, so
 * sending the same body again is harmless.
 */
async function send(endpoint: MembersEndpoint, api: AdsApi, accountId: string, parentId: string, request: UsersRequest): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await (endpoint === 'audience' ? api.sendAudienceUsers(accountId, parentId, request.body, request.users) : api.sendDoNotReachUsers(accountId, parentId, request.body, request.users));
      return;
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !(error instanceof ApiError) || error.code !== 'USERS_NOT_ALL_TAKEN') throw error;
    }
  }
}

const messagesOf = (diagnostics: ReadonlyArray<{ message: string; severity: string }>): string =>
  diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => d.message)
    .join('; ');

/**
 * Makes the members of the audience or list `item.params[parentField]` what the file says, or
 * none when `removeAll` (the membership is deleted); answers the parent's id, which is the
 * membership's id. A create or update without a file is refused: it must never empty the audience.
 * The members descriptors (src/kinds/members.ts) write through it as the `MembersSync` apply gives
 * them in their `WriteContext`.
 */
export async function syncMembers(endpoint: MembersEndpoint, api: AdsApi, accountId: string, item: WriteItem, ctx: WriteContext, parentField: string, removeAll = false): Promise<string> {
  const { forgetUploaded, lastUploaded, membersValue, readMembers, recordUploaded } = await membershipModule();
  const parentId = String(item.params[parentField] ?? item.id ?? '');
  const store = ctx.sidecarPath(item.address, parentId);
  const plan = item.params['members'] as { hash?: unknown; added?: unknown; removed?: unknown; resend?: unknown; restore?: unknown } | undefined;
  // a membership created anew (its audience new, or made again) has no members yet, whatever an
  // old store says
  const previous = item.id === undefined && !removeAll ? { known: true as const, members: emptyMemberSet() } : await lastUploaded(store, typeof plan?.hash === 'string' && plan.restore === true ? plan.hash : undefined);
  const file = removeAll ? undefined : item.params['file'];
  if (!removeAll && typeof file !== 'string') throw new LocalWriteError(`${item.address}: no member file to send (the plan names none)`);
  let next: MemberSet = emptyMemberSet();
  if (typeof file === 'string') {
    // the file is held to the root the plan held it to: that of the manifest's folder
    const read = await readMembers({ path: ctx.filePath(file), shownAs: file, root: projectRootOf(ctx.filePath('.')), type: item.params['type'], defaultRegion: item.params['default_region'] });
    if (read.value === undefined) throw new LocalWriteError(`${item.address}: ${messagesOf(read.diagnostics)}`);
    next = read.value.members;
  }
  // the plan found the file to be what was last uploaded: the store is written again, nothing sent
  const restoring = !previous.known && plan?.restore === true && typeof file === 'string';
  if (!previous.known && !restoring) throw new LocalWriteError(`${item.address}: nothing was sent: the members last uploaded are not known (${previous.problem}); plan again`);
  const { value, diff } = membersValue(previous.known ? previous.members : next, next);
  if (!partnerIdsKnown(diff.removed)) throw new LocalWriteError(`${item.address}: nothing was sent: partner user ids were taken out of the file, and adsctl keeps only their hashes; plan again`);
  const planned = plan?.hash;
  // a new membership window is sent with every member: the Update then holds the whole set
  const update = plan?.resend === true ? next : diff.added;
  if (typeof file === 'string' && typeof planned === 'string' && planned !== value.hash) throw new LocalWriteError(`${item.address}: ${file} changed since the plan was made; plan again`);
  const counted = typeof plan?.added === 'number' && typeof plan.removed === 'number';
  if (typeof file === 'string' && counted && (plan?.added !== (plan?.resend === true ? value.count : value.added) || plan?.removed !== value.removed)) {
    throw new LocalWriteError(`${item.address}: nothing was sent: the members last uploaded changed since the plan was made; plan again`);
  }
  const window = {
    ...(typeof item.params['effective_at'] === 'string' ? { effectiveAt: item.params['effective_at'] } : {}),
    ...(typeof item.params['expires_at'] === 'string' ? { expiresAt: item.params['expires_at'] } : {}),
  };
  const total = (plan?.resend === true ? value.count : value.added) + value.removed;
  let sent = 0;
  for (const [operation, members] of [['Delete', diff.removed], ['Update', update]] as const) {
    for (const request of userRequests(operation, members, operation === 'Update' ? window : {})) {
      await send(endpoint, api, accountId, parentId, request);
      sent += request.identifiers;
      ctx.progress(item.address, `${sent.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} member changes sent`);
    }
  }
  if (typeof file === 'string') {
    const problems = await recordUploaded(store, next);
    if (problems.length > 0) throw new LocalWriteError(`${item.address}: the members were sent, but ${messagesOf(problems)}; the next apply sends them again`);
  } else {
    await forgetUploaded(store);
  }
  return parentId;
}
