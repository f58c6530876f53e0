/**
 * Draft posts (Part B, Draft posts): posts kept for later, written as `as_user_id` (see
 * post-author.ts) with the content of post-content.ts. A draft record holds `id`, `name`, `text`,
 * `user_id`, `nullcast` (true by default), `card_uri`, `media_keys`, `created_at`, `updated_at`
 * and `deleted`. PUT changes what it is given (an empty `card_uri` or `media_keys` removes it, an
 * empty `name` unsets it) and the result must still have text or media. DELETE removes a draft
 * (then 404). The list pages by 100 (at most 200) for `user_id` (default: the FULL promotable
 * user). The preview sends the draft to the authenticated user's devices; the emulator knows no
 * devices, so it answers with none.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { listPage, readListParams } from '../list.js';
import type { Row } from '../store/row.js';
import { accountIdOf, findRow, now, peekRow, softDelete } from './common.js';
import { checkAuthor, listedUser, readUserId } from './post-author.js';
import { changedFields, checkContent, contentFields, readContent } from './post-content.js';
import { postsOf } from './tweets.js';

const LABEL = 'Draft Tweet';

function listDrafts(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { countDefault: 100, countMax: 200, withDeleted: false, withTotalCount: false });
  const userId = readUserId(p, 'user_id');
  p.finish();
  return { body: listPage(p, q, postsOf(ctx, 'DRAFT', listedUser(ctx, userId))) };
}

function findDraft(ctx: ApiContext): Row {
  return findRow(ctx, 'draft_post', ctx.pathParams['draft_tweet_id'] ?? '', LABEL, 'draft_tweet_id');
}

function getDraft(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  return { body: single(ctx.params, { ...findDraft(ctx).rec }) };
}

function postDraft(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const asUser = readUserId(p, 'as_user_id', true);
  const content = readContent(p, false);
  p.finish();
  checkAuthor(ctx, asUser!, content.nullcast ?? true);
  checkContent(ctx, {}, content);
  const id = ctx.store.newSnowflake();
  const time = now(ctx);
  const { name, text, card_uri, media_keys, nullcast } = contentFields(content);
  const rec = { id, name, text, user_id: asUser, nullcast, card_uri, media_keys, created_at: time, updated_at: time, deleted: false };
  const row = ctx.store.insert('draft_post', id, accountIdOf(ctx), rec);
  return { status: 201, body: single(p, { ...row.rec }) };
}

/** Draft attributes a PUT ignores when sent back unchanged and refuses when changed. */
const READ_ONLY = ['id', 'user_id', 'created_at', 'updated_at', 'deleted'] as const;

function putDraft(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.readOnly(READ_ONLY, peekRow(ctx, 'draft_post', ctx.pathParams['draft_tweet_id'] ?? '')?.rec);
  const change = readContent(p, true);
  p.finish();
  const row = findDraft(ctx);
  checkAuthor(ctx, String(row.rec['user_id']), change.nullcast ?? row.rec['nullcast'] === true, 'draft_tweet_id');
  checkContent(ctx, row.rec, change);
  ctx.store.update(row, { ...changedFields(change), updated_at: now(ctx) });
  return { body: single(p, { ...row.rec }) };
}

function previewDraft(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findDraft(ctx);
  return { body: single(ctx.params, { external_id: row.id, device_ids: [], preview_target: 'TWITTER_MOBILE_APP' }) };
}

const COLLECTION = '/12/accounts/:account_id/draft_tweets';

/** The draft posts endpoints. */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'account_read', access: 'read', handler: listDrafts },
  { method: 'GET', path: `${COLLECTION}/:draft_tweet_id`, family: 'account_read', access: 'read', handler: getDraft },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'creative', handler: postDraft },
  { method: 'PUT', path: `${COLLECTION}/:draft_tweet_id`, family: 'write', access: 'creative', handler: putDraft },
  { method: 'DELETE', path: `${COLLECTION}/:draft_tweet_id`, family: 'write', access: 'creative', handler: (ctx) => softDelete(ctx, 'draft_post', 'draft_tweet_id', LABEL) },
  { method: 'POST', path: `${COLLECTION}/preview/:draft_tweet_id`, family: 'write', access: 'creative', handler: previewDraft },
];
