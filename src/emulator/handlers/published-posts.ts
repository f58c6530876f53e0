/**
 * Published posts (Part B, Posts; Scheduled posts): how one is made (POST tweet, or a scheduled
 * post whose time has come), and which ones an account sees (those by its promotable users). A
 * published post is a `post` record like the seeded ones, so promoted_tweets can promote it.
 * The emulator runs no timers: a scheduled post is published the next time the account's posts
 * are read or written after its `scheduled_at`, as of that time (`completed_at` = `scheduled_at`),
 * and then shows `scheduled_status` SUCCESS and the published post's id as `tweet_id`.
 */
import type { ApiContext } from '../context.js';
import { notFound } from '../errors.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf, now } from './common.js';
import { promotableUserIds } from './post-author.js';

/** Stores a new published post by `userId` with `fields` (text, name, nullcast, card, media...). */
export function insertPublished(ctx: ApiContext, userId: string, fields: Rec, createdAt: string = now(ctx)): Row {
  const id = ctx.store.newSnowflake();
  const rec: Rec = { id, id_str: id, tweet_type: 'PUBLISHED', ...fields, created_at: createdAt };
  return ctx.store.insert('post', id, '', rec, { user_id: userId, account_id: accountIdOf(ctx) });
}

/** The published post `id` if its author is a promotable user of the path's account, else undefined. */
export function visiblePost(ctx: ApiContext, id: string): Row | undefined {
  const row = ctx.store.get('post', id);
  if (row === undefined || row.rec['deleted'] === true) return undefined;
  return promotableUserIds(ctx).all.has(String(row.ext['user_id'])) ? row : undefined;
}

/** `visiblePost`, or 404 NOT_FOUND naming `parameter`. */
export function findPost(ctx: ApiContext, id: string, parameter: string): Row {
  const row = visiblePost(ctx, id);
  if (row === undefined) throw notFound('Tweet', id, accountIdOf(ctx), parameter);
  return row;
}

/** Publishes every scheduled post of the path's account whose `scheduled_at` has passed. */
export function publishDue(ctx: ApiContext): void {
  const time = now(ctx);
  for (const row of ctx.store.table('scheduled_post').ofAccount(accountIdOf(ctx))) {
    const rec = row.rec;
    if (rec['deleted'] === true || rec['scheduled_status'] !== 'SCHEDULED' || String(rec['scheduled_at']) > time) continue;
    const at = String(rec['scheduled_at']);
    const fields: Rec = { name: rec['name'], text: rec['text'], nullcast: rec['nullcast'], card_uri: rec['card_uri'], media_keys: rec['media_keys'] };
    const post = insertPublished(ctx, String(rec['user_id']), fields, at);
    ctx.store.update(row, { scheduled_status: 'SUCCESS', completed_at: at, tweet_id: post.id, updated_at: at });
  }
}
