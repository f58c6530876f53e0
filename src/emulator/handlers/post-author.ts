/**
 * Who posts and whose posts are listed (Part A, Authenticated user access and Promotable users;
 * Part B, Posts). Posts are written as a promotable user of the account (`as_user_id`) and listed
 * for one (`user_id`, by default the FULL promotable user); any other user is 400
 * `INVALID_USER_ID`. Only the FULL promotable user, posting as itself, needs no further right:
 * everyone else (a manager posting as the advertiser, or anyone posting as another promotable
 * user) needs the TWEET_COMPOSER permission, and organic posts (`nullcast=false`) are only for the
 * FULL promotable user as itself (403 `ACTION_NOT_ALLOWED` otherwise).
 */
import type { ApiContext } from '../context.js';
import { actionNotAllowed, badRequest, invalidParameter } from '../errors.js';
import type { ParamReader } from '../params.js';
import { accountIdOf } from './common.js';

/** A user or post id (a long); 19 digits exceed JSON numbers, so they are kept as strings. */
export const LONG_ID = /^\d{1,19}$/;

/** The account's promotable users: the FULL one (null when none) and every user id. */
export function promotableUserIds(ctx: ApiContext): { full: string | null; all: ReadonlySet<string> } {
  let full: string | null = null;
  const all = new Set<string>();
  for (const row of ctx.store.table('promotable_user').ofAccount(accountIdOf(ctx))) {
    if (row.rec['deleted'] === true) continue;
    const userId = String(row.rec['user_id']);
    all.add(userId);
    if (row.rec['promotable_user_type'] === 'FULL') full ??= userId;
  }
  return { full, all };
}

/** Reads a user id parameter (a long), echoed as a string. */
export function readUserId(p: ParamReader, name: string, required = false): string | undefined {
  const v = p.string(name, { required });
  if (typeof v !== 'string') return undefined;
  if (!LONG_ID.test(v)) {
    p.fail(invalidParameter(name, `Expected Long, got ${JSON.stringify(v)} for ${name}`));
    return undefined;
  }
  return v;
}

function notPromotable(ctx: ApiContext, userId: string | null, parameter: string): Error {
  return badRequest('INVALID_USER_ID', `User ${String(userId)} is not a promotable user of Account ${accountIdOf(ctx)}`, parameter);
}

/** The user a list shows posts of: `userId`, or the FULL promotable user; must be a promotable user. */
export function listedUser(ctx: ApiContext, userId: string | undefined): string {
  const { full, all } = promotableUserIds(ctx);
  const id = userId ?? full;
  if (id === null || !all.has(id)) throw notPromotable(ctx, id, 'user_id');
  return id;
}

/**
 * Checks that the caller may write a post as `asUserId` (a promotable user of the account), with
 * the given nullcast. `parameter` names the parameter that carried the user.
 */
export function checkAuthor(ctx: ApiContext, asUserId: string, nullcast: boolean, parameter = 'as_user_id'): void {
  const { full, all } = promotableUserIds(ctx);
  if (!all.has(asUserId)) throw notPromotable(ctx, asUserId, parameter);
  const caller = ctx.principal.kind === 'user' ? ctx.principal.userId : undefined;
  const own = caller === asUserId && asUserId === full;
  if (!nullcast && !own) {
    throw actionNotAllowed(`Organic posts (nullcast=false) can only be written by the FULL promotable user ${String(full)} as itself`);
  }
  if (!own && !ctx.permissions.includes('TWEET_COMPOSER')) {
    throw actionNotAllowed(`Writing a promoted-only post as user ${asUserId} needs the TWEET_COMPOSER permission`);
  }
}
