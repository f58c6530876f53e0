/**
 * Posts (Part B, Posts). GET tweets lists one user's posts of one `tweet_type` (required): the
 * user is `user_id` or the FULL promotable user, and must be a promotable user of the account.
 * `timeline_type` NULLCAST (default) keeps promoted-only posts, ORGANIC the others, ALL both;
 * replies and mentions (text starting with `@`) only with `include_mentions_and_replies`; `name`
 * is a case-insensitive prefix (80); `tweet_ids` (200) keeps those ids, and ids of another type
 * are left out. `count` 200 (1..1000), `cursor`, `trim_user`. Seeded posts are organic.
 *
 * POST tweet publishes a post as `as_user_id` (see post-author.ts) with the content of
 * post-content.ts, `conversation_settings` (EVERYONE by default; shown by GET only), `tweet_mode`,
 * `trim_user`, and for a video `video_title` (70), `video_description` (200), `video_cta` with
 * `video_cta_value` (each needs the other: 400 `INCLUSIVE_PARAMETERS`). It is nullcast unless
 * `nullcast=false`, and promoted_tweets can promote it; the post keeps the calling app as its
 * `source`. PUT tweets/:tweet_id/name names a post.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { badRequest, invalidParameter } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import type { ParamReader } from '../params.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf } from './common.js';
import { LONG_ID, checkAuthor, listedUser, readUserId } from './post-author.js';
import { NAME_MAX, checkContent, contentFields, readContent } from './post-content.js';
import { authorship } from './post-fields.js';
import { GET_VIEW, TWEET_TYPES, authorOf, isMentionOrReply, tweetWire, type TweetType } from './post-wire.js';
import { findPost, insertPublished, publishDue } from './published-posts.js';

const TIMELINE_TYPES = ['ALL', 'NULLCAST', 'ORGANIC'] as const;
const CONVERSATION_SETTINGS = ['EVERYONE', 'FOLLOWING', 'MENTIONED_USERS'] as const;
const VIDEO_CTAS = ['VISIT_SITE', 'WATCH_NOW'] as const;

/** Every post of `type` by `userId` visible to the path's account, in creation order. */
export function postsOf(ctx: ApiContext, type: TweetType, userId: string): readonly Row[] {
  if (type === 'PUBLISHED') return ctx.store.table('post').under('user', userId);
  const kind = type === 'DRAFT' ? 'draft_post' : 'scheduled_post';
  return ctx.store.table(kind).ofAccount(accountIdOf(ctx)).filter((row) => authorOf(row) === userId && (type === 'DRAFT' || row.rec['scheduled_status'] === 'SCHEDULED'));
}

function listTweets(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { withDeleted: false, withTotalCount: false });
  const type = p.oneOf('tweet_type', TWEET_TYPES, { required: true });
  const mentions = p.bool('include_mentions_and_replies') ?? false;
  const name = p.string('name', { min: 1, max: NAME_MAX });
  const timeline = p.oneOf('timeline_type', TIMELINE_TYPES) ?? 'NULLCAST';
  const trimUser = p.bool('trim_user') ?? false;
  const ids = p.list('tweet_ids', { max: 200, pattern: LONG_ID, typeName: 'Long' });
  const userId = readUserId(p, 'user_id');
  p.finish();
  const user = listedUser(ctx, userId);
  publishDue(ctx);
  const idSet = ids === undefined ? undefined : new Set(ids);
  const prefix = typeof name === 'string' ? name.toLowerCase() : undefined;
  const keep = (row: Row): boolean => {
    const nullcast = row.rec['nullcast'] === true;
    if (timeline !== 'ALL' && nullcast !== (timeline === 'NULLCAST')) return false;
    if (!mentions && isMentionOrReply(row)) return false;
    if (idSet !== undefined && !idSet.has(row.id)) return false;
    const postName = row.rec['name'];
    return prefix === undefined || (typeof postName === 'string' && postName.toLowerCase().startsWith(prefix));
  };
  return { body: listPage(p, q, postsOf(ctx, type!, user), keep, (row) => tweetWire(ctx, row, type!, { ...GET_VIEW, trimUser })) };
}

/** The video fields of POST tweet, as the post's `additional_media_info` (undefined when none is sent). */
function readVideoFields(p: ParamReader): Rec | undefined {
  const title = p.string('video_title', { max: 70 });
  const description = p.string('video_description', { max: 200 });
  const cta = p.oneOf('video_cta', VIDEO_CTAS);
  const ctaValue = p.string('video_cta_value', { min: 1 });
  if (p.has('video_cta') !== p.has('video_cta_value')) {
    const [given, missing] = p.has('video_cta') ? ['video_cta', 'video_cta_value'] : ['video_cta_value', 'video_cta'];
    p.fail(badRequest('INCLUSIVE_PARAMETERS', `${given} needs ${missing}`, missing));
  }
  if (title === undefined && description === undefined && !p.has('video_cta') && !p.has('video_cta_value')) return undefined;
  const callToActions = typeof cta === 'string' && typeof ctaValue === 'string' ? { [cta.toLowerCase()]: { url: ctaValue } } : null;
  return { title: title ?? null, description: description ?? null, call_to_actions: callToActions };
}

function postTweet(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const asUser = readUserId(p, 'as_user_id', true);
  const content = readContent(p, false);
  const settings = p.oneOf('conversation_settings', CONVERSATION_SETTINGS) ?? 'EVERYONE';
  const trimUser = p.bool('trim_user') ?? false;
  const mode = p.oneOf('tweet_mode', ['compat', 'extended'] as const) ?? 'compat';
  const video = readVideoFields(p);
  p.finish();
  checkAuthor(ctx, asUser!, content.nullcast ?? true);
  const mediaType = checkContent(ctx, {}, content);
  if (video !== undefined && mediaType !== 'VIDEO') {
    const sent = ['video_title', 'video_description', 'video_cta', 'video_cta_value'].find((f) => p.has(f))!;
    throw invalidParameter(sent, `${sent} is only for a post with a video in media_keys`);
  }
  const fields: Rec = { ...contentFields(content), conversation_settings: settings, additional_media_info: video ?? null, ...authorship(ctx, asUser!) };
  const row = insertPublished(ctx, asUser!, fields);
  return { status: 201, body: single(p, tweetWire(ctx, row, 'PUBLISHED', { trimUser, mode: mode!, conversationSettings: false })) };
}

function putTweetName(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const name = p.string('name', { required: true, max: NAME_MAX, nullable: true });
  p.finish();
  const row = findPost(ctx, ctx.pathParams['tweet_id'] ?? '', 'tweet_id');
  ctx.store.update(row, { name: name ?? null });
  return { body: single(p, tweetWire(ctx, row, 'PUBLISHED', GET_VIEW)) };
}

const ACCOUNT = '/12/accounts/:account_id';

/** The posts endpoints. */
export const routes: RouteDef[] = [
  { method: 'GET', path: `${ACCOUNT}/tweets`, family: 'account_read', access: 'read', handler: listTweets },
  { method: 'POST', path: `${ACCOUNT}/tweet`, family: 'write', access: 'creative', handler: postTweet },
  { method: 'PUT', path: `${ACCOUNT}/tweets/:tweet_id/name`, family: 'write', access: 'creative', handler: putTweetName },
];
