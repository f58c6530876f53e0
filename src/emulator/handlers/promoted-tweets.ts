/**
 * Promoted posts (Part A, Promoted tweets). POST promotes up to 50 posts on a line item and answers
 * 201 with `data` as an array plus `total_count`; a (line item, post) pair already promoted is
 * returned as it is, not duplicated. A post is promotable when its author is the account's FULL
 * promotable user; a post of a RETWEETS_ONLY promotable user is promoted through a new nullcast
 * repost by the FULL promotable user, whose id becomes the `tweet_id` (Promotable user), and making
 * that promoted-only post needs the caller to be the FULL promotable user or hold TWEET_COMPOSER.
 *
 * "Not every post suits every campaign objective": the emulator refuses posts on MEDIA line items
 * (they carry media creatives) with INCOMPATIBLE_LINE_ITEM and accepts them on PROMOTED_TWEETS and
 * PROMOTED_ACCOUNT line items; on the latter a post adds the timeline placement (Line items rule).
 * No PUT. When the line item is deleted its promoted posts keep `deleted: false` but appear in
 * lists and lookups only with `with_deleted=true`. The echo keeps `tweet_ids` as strings: 19-digit
 * post ids exceed what JSON numbers hold exactly.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { WireError, actionNotAllowed, badRequest, combine, notFound } from '../errors.js';
import { recordHistory } from '../history.js';
import { listPage, readListParams } from '../list.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf, findRow, now } from './common.js';
import { childCandidates, findLineItem, parentDeleted } from './line-item-children.js';

const SORTABLE = ['created_at', 'updated_at', 'deleted'] as const;
const LABEL = 'Promoted Tweet';
const POST_ID = /^\d{1,19}$/;

function listPromotedTweets(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  const lineItemIds = p.list('line_item_ids', { max: 200 });
  const ids = p.list('promoted_tweet_ids', { max: 200 });
  p.finish();
  const rows = childCandidates(ctx, 'promoted_tweet', { ...(lineItemIds === undefined ? {} : { lineItemIds }), ...(ids === undefined ? {} : { ids }) });
  return { body: listPage(p, q, rows, (row) => q.withDeleted || !parentDeleted(ctx, row)) };
}

/** The promoted post of the path; one under a deleted line item counts as deleted. */
function findPromotedTweet(ctx: ApiContext, withDeleted: boolean): Row {
  const id = ctx.pathParams['promoted_tweet_id'] ?? '';
  const row = findRow(ctx, 'promoted_tweet', id, LABEL, 'promoted_tweet_id', withDeleted);
  if (!withDeleted && parentDeleted(ctx, row)) throw notFound(LABEL, id, accountIdOf(ctx), 'promoted_tweet_id');
  return row;
}

function getPromotedTweet(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const withDeleted = p.bool('with_deleted') ?? false;
  p.finish();
  return { body: single(p, { ...findPromotedTweet(ctx, withDeleted).rec }) };
}

interface Promotable {
  full: string | undefined;
  retweetsOnly: ReadonlySet<string>;
}

function promotableUsers(ctx: ApiContext): Promotable {
  let full: string | undefined;
  const retweetsOnly = new Set<string>();
  for (const row of ctx.store.table('promotable_user').ofAccount(accountIdOf(ctx))) {
    if (row.rec['deleted'] === true) continue;
    const userId = String(row.rec['user_id']);
    if (row.rec['promotable_user_type'] === 'FULL') full ??= userId;
    else retweetsOnly.add(userId);
  }
  return { full, retweetsOnly };
}

/** How each requested post gets promoted: as itself, or through a promoted-only repost. */
type Plan = { post: Row; repost: boolean };

function planPromotions(ctx: ApiContext, tweetIds: readonly string[], who: Promotable): Plan[] {
  const errors: WireError[] = [];
  const plans: Plan[] = [];
  const accountId = accountIdOf(ctx);
  for (const id of new Set(tweetIds)) {
    const post = ctx.store.get('post', id);
    if (post === undefined || post.rec['deleted'] === true) {
      errors.push(notFound('Tweet', id, undefined, 'tweet_ids'));
      continue;
    }
    const author = String(post.ext['user_id']);
    if (who.full !== undefined && author === who.full) plans.push({ post, repost: false });
    else if (who.full !== undefined && who.retweetsOnly.has(author)) plans.push({ post, repost: true });
    else errors.push(badRequest('INVALID_TWEET', `Tweet ${id} cannot be promoted by Account ${accountId}: its author is not a promotable user of the account`, 'tweet_ids'));
  }
  if (errors.length > 0) throw combine(errors);
  return plans;
}

/** Makes the nullcast repost of `post` by the FULL promotable user `fullUserId`. */
function createRepost(ctx: ApiContext, post: Row, fullUserId: string): string {
  const caller = ctx.principal.kind === 'user' ? ctx.principal.userId : undefined;
  if (caller !== fullUserId && !ctx.permissions.includes('TWEET_COMPOSER')) {
    throw actionNotAllowed(`Promoting Tweet ${post.id} creates a promoted-only Tweet for the advertiser, which needs the TWEET_COMPOSER permission`);
  }
  const id = ctx.store.newSnowflake();
  const author = ctx.store.get('user', String(post.ext['user_id']));
  ctx.store.insert(
    'post',
    id,
    '',
    { id, id_str: id, text: `RT @${String(author?.rec['screen_name'])}: ${String(post.rec['text'])}`, tweet_type: 'PUBLISHED', nullcast: true, created_at: now(ctx) },
    { user_id: fullUserId, retweeted_tweet_id: post.id, account_id: accountIdOf(ctx) },
  );
  return id;
}

/** A PROMOTED_ACCOUNT line item that gets a post also serves in the timeline. */
function addTimelinePlacement(ctx: ApiContext, lineItem: Row): void {
  const placements = Array.isArray(lineItem.rec['placements']) ? (lineItem.rec['placements'] as string[]) : [];
  if (placements.includes('ALL_ON_SERVICE') || placements.includes('SERVICE_TIMELINE')) return;
  const before = lineItem.rec;
  ctx.store.update(lineItem, { placements: [...placements, 'SERVICE_TIMELINE'], updated_at: now(ctx) });
  recordHistory(ctx, 'LINE_ITEM', 'UPDATE', lineItem, before);
}

function postPromotedTweets(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const lineItemId = p.string('line_item_id', { required: true });
  const tweetIds = p.list('tweet_ids', { required: true, max: 50, pattern: POST_ID, typeName: 'Long' });
  p.finish();
  const lineItem = findLineItem(ctx, lineItemId!);
  const productType = lineItem.rec['product_type'];
  if (productType !== 'PROMOTED_TWEETS' && productType !== 'PROMOTED_ACCOUNT') {
    throw badRequest('INCOMPATIBLE_LINE_ITEM', `Line Item ${lineItem.id} has product_type ${String(productType)} and cannot promote Tweets`, 'line_item_id');
  }
  const who = promotableUsers(ctx);
  const plans = planPromotions(ctx, tweetIds!, who);
  const existing = ctx.store.table('promoted_tweet').under('line_item', lineItem.id).filter((r) => r.rec['deleted'] !== true);
  const data: Rec[] = [];
  let created = false;
  for (const { post, repost } of plans) {
    const already = existing.find((r) => (r.ext['source_tweet_id'] ?? r.rec['tweet_id']) === post.id);
    if (already !== undefined) {
      data.push({ ...already.rec });
      continue;
    }
    const tweetId = repost ? createRepost(ctx, post, who.full!) : post.id;
    const id = ctx.store.newId();
    const time = now(ctx);
    const rec: Rec = { line_item_id: lineItem.id, id, entity_status: 'ACTIVE', created_at: time, updated_at: time, approval_status: 'ACCEPTED', tweet_id: tweetId, deleted: false };
    const row = ctx.store.insert('promoted_tweet', id, accountIdOf(ctx), rec, { source_tweet_id: post.id });
    recordHistory(ctx, 'PROMOTED_TWEET', 'CREATE', row);
    data.push({ ...row.rec });
    created = true;
  }
  if (created && productType === 'PROMOTED_ACCOUNT') addTimelinePlacement(ctx, lineItem);
  return { status: 201, body: { data, request: { params: p.echo }, total_count: data.length } };
}

function deletePromotedTweet(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findPromotedTweet(ctx, false);
  const before = row.rec;
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  recordHistory(ctx, 'PROMOTED_TWEET', 'DELETE', row, before);
  return { body: single(ctx.params, { ...row.rec }) };
}

const COLLECTION = '/12/accounts/:account_id/promoted_tweets';

/** The promoted posts endpoints (no PUT). */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'core_read', access: 'read', handler: listPromotedTweets },
  { method: 'GET', path: `${COLLECTION}/:promoted_tweet_id`, family: 'core_read', access: 'read', handler: getPromotedTweet },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'campaign', handler: postPromotedTweets },
  { method: 'DELETE', path: `${COLLECTION}/:promoted_tweet_id`, family: 'write', access: 'campaign', handler: deletePromotedTweet },
];
