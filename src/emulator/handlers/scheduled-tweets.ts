/**
 * Scheduled posts (Part B, Scheduled posts; list, lookup and create as the service has them): a
 * post to be published at `scheduled_at` (ISO 8601, in the future), written as `as_user_id` (see
 * post-author.ts) with the content of post-content.ts. The record holds `id`, `name`, `text`,
 * `user_id`, `nullcast` (true by default), `card_uri`, `media_keys`, `scheduled_at`,
 * `scheduled_status` (SCHEDULED, then SUCCESS once published), `completed_at` and `tweet_id` (the
 * published post, null until then), `created_at`, `updated_at` and `deleted`. PUT changes
 * `nullcast`, `scheduled_at`, `text`, `name`, `card_uri` and `media_keys` (empty values remove
 * the last three) until the post is published; DELETE removes it until then (400
 * `INVALID_PARAMETER` afterwards). The list pages by 100 (at most 200) for `user_id` (default: the
 * FULL promotable user) and holds published ones too.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { badRequest, invalidParameter } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import type { ParamReader } from '../params.js';
import type { Row } from '../store/row.js';
import { accountIdOf, findRow, now, peekRow } from './common.js';
import { checkAuthor, listedUser, readUserId } from './post-author.js';
import { changedFields, checkContent, contentFields, readContent } from './post-content.js';
import { authorOf } from './post-wire.js';
import { publishDue } from './published-posts.js';

const LABEL = 'Scheduled Tweet';

/** `scheduled_at`, refused unless it is after the current time. */
function readScheduledAt(ctx: ApiContext, p: ParamReader, required: boolean): string | undefined {
  const at = p.time('scheduled_at', { required });
  if (typeof at !== 'string') return undefined;
  if (at <= now(ctx)) p.fail(invalidParameter('scheduled_at', `scheduled_at must be in the future, got ${at}`));
  return at;
}

function listScheduled(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { countDefault: 100, countMax: 200, withDeleted: false, withTotalCount: false });
  const userId = readUserId(p, 'user_id');
  p.finish();
  const user = listedUser(ctx, userId);
  publishDue(ctx);
  return { body: listPage(p, q, ctx.store.table('scheduled_post').ofAccount(accountIdOf(ctx)), (row) => authorOf(row) === user) };
}

function findScheduled(ctx: ApiContext): Row {
  publishDue(ctx);
  return findRow(ctx, 'scheduled_post', ctx.pathParams['scheduled_tweet_id'] ?? '', LABEL, 'scheduled_tweet_id');
}

/** The path's scheduled post, refused once it has been published. */
function findChangeable(ctx: ApiContext): Row {
  const row = findScheduled(ctx);
  if (row.rec['scheduled_status'] !== 'SCHEDULED') {
    throw badRequest('INVALID_PARAMETER', `Scheduled Tweet ${row.id} was published as Tweet ${String(row.rec['tweet_id'])} and can no longer change`, 'scheduled_tweet_id');
  }
  return row;
}

function getScheduled(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  return { body: single(ctx.params, { ...findScheduled(ctx).rec }) };
}

function postScheduled(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const at = readScheduledAt(ctx, p, true);
  const asUser = readUserId(p, 'as_user_id', true);
  const content = readContent(p, false);
  p.finish();
  checkAuthor(ctx, asUser!, content.nullcast ?? true);
  checkContent(ctx, {}, content);
  publishDue(ctx);
  const id = ctx.store.newSnowflake();
  const time = now(ctx);
  const { name, text, card_uri, media_keys, nullcast } = contentFields(content);
  const rec = {
    id, name, text, user_id: asUser, nullcast, card_uri, media_keys,
    scheduled_at: at, scheduled_status: 'SCHEDULED', completed_at: null, tweet_id: null,
    created_at: time, updated_at: time, deleted: false,
  };
  const row = ctx.store.insert('scheduled_post', id, accountIdOf(ctx), rec);
  return { status: 201, body: single(p, { ...row.rec }) };
}

/** Scheduled post attributes a PUT ignores when sent back unchanged and refuses when changed. */
const READ_ONLY = ['id', 'user_id', 'scheduled_status', 'completed_at', 'tweet_id', 'created_at', 'updated_at', 'deleted'] as const;

function putScheduled(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.readOnly(READ_ONLY, peekRow(ctx, 'scheduled_post', ctx.pathParams['scheduled_tweet_id'] ?? '')?.rec);
  const at = readScheduledAt(ctx, p, false);
  const change = readContent(p, true);
  p.finish();
  const row = findChangeable(ctx);
  checkAuthor(ctx, String(row.rec['user_id']), change.nullcast ?? row.rec['nullcast'] === true, 'scheduled_tweet_id');
  checkContent(ctx, row.rec, change);
  ctx.store.update(row, { ...changedFields(change), ...(at === undefined ? {} : { scheduled_at: at }), updated_at: now(ctx) });
  return { body: single(p, { ...row.rec }) };
}

function deleteScheduled(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findChangeable(ctx);
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  return { body: single(ctx.params, { ...row.rec }) };
}

const COLLECTION = '/12/accounts/:account_id/scheduled_tweets';

/** The scheduled posts endpoints. */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'account_read', access: 'read', handler: listScheduled },
  { method: 'GET', path: `${COLLECTION}/:scheduled_tweet_id`, family: 'account_read', access: 'read', handler: getScheduled },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'creative', handler: postScheduled },
  { method: 'PUT', path: `${COLLECTION}/:scheduled_tweet_id`, family: 'write', access: 'creative', handler: putScheduled },
  { method: 'DELETE', path: `${COLLECTION}/:scheduled_tweet_id`, family: 'write', access: 'creative', handler: deleteScheduled },
];
