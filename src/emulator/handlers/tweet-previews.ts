/**
 * Post previews (Part B, Post previews): GET tweet_previews renders each of `tweet_ids`
 * (required, at most 200) that is a post of `tweet_type` (required) visible to the account as an
 * embeddable frame: `{tweet_id, preview}`, `preview` being an `<iframe>` whose address carries
 * the post's content, in the order of `tweet_ids`. Ids of another type, or unknown ones, get no preview. Published posts are
 * those by the account's promotable users; drafts and scheduled posts the account's own (a
 * scheduled post that has been published is a published post).
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf } from './common.js';
import { LONG_ID } from './post-author.js';
import { GET_VIEW, KIND_OF, TWEET_TYPES, tweetWire, type TweetType } from './post-wire.js';
import { publishDue, visiblePost } from './published-posts.js';

/** Where the emulator's preview frames point (nothing is served there). */
const PREVIEW_BASE = 'https://preview.example.invalid/ads-manager/tweet-preview/index.html';

function previewOf(ctx: ApiContext, row: Row, type: TweetType): Rec {
  const post = tweetWire(ctx, row, type, GET_VIEW);
  const data = Buffer.from(JSON.stringify({ id: row.id, tweet_type: type, text: post['full_text'], user: post['user'], card_uri: post['card_uri'], media_keys: post['media_keys'] })).toString('base64url');
  return { tweet_id: row.id, preview: `<iframe class='tweet-preview' src='${PREVIEW_BASE}?data=${data}'></iframe>` };
}

function find(ctx: ApiContext, type: TweetType, id: string): Row | undefined {
  if (type === 'PUBLISHED') return visiblePost(ctx, id);
  const row = ctx.store.get(KIND_OF[type], id);
  if (row === undefined || row.accountId !== accountIdOf(ctx) || row.rec['deleted'] === true) return undefined;
  return type === 'SCHEDULED' && row.rec['scheduled_status'] !== 'SCHEDULED' ? undefined : row;
}

function getPreviews(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const ids = p.list('tweet_ids', { required: true, max: 200, pattern: LONG_ID, typeName: 'Long' });
  const type = p.oneOf('tweet_type', TWEET_TYPES, { required: true });
  p.finish();
  publishDue(ctx);
  const data: Rec[] = [];
  for (const id of new Set(ids)) {
    const row = find(ctx, type!, id);
    if (row !== undefined) data.push(previewOf(ctx, row, type!));
  }
  return { body: { request: { params: p.echo }, data } };
}

/** The post previews endpoint. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/tweet_previews', family: 'account_read', access: 'read', handler: getPreviews },
];
