/**
 * Posts (Part B, Posts): reading posts of one type by id, creating a promoted-only post
 * (`POST accounts/:id/tweet`) and naming one (`PUT tweets/:id/name`). Post ids are longs beyond
 * what a JSON number holds, so records always answer `id` as the string the service also sends
 * as `id_str`.
 */
import type { ApiClient, ParamValue, Params } from './client.js';
import type * as W from './generated/wire.js';
import { listAll, listByIds } from './pagination.js';
import type { Fields } from './resources.js';

const V = '/12';

/** A post as the posts endpoints show it, with `id` a string. */
export type PostRecord = Fields<W.Tweet>;

/** Which posts `listPosts` reads: their type, and whose (default: the account's FULL promotable user). */
export interface PostQuery {
  tweetType: 'DRAFT' | 'PUBLISHED' | 'SCHEDULED';
  userId?: string;
}

const accountPath = (accountId: string): string => `${V}/accounts/${encodeURIComponent(accountId)}`;

/** `id` as a string: `id_str` when the record has it. */
function withStringId(record: PostRecord): PostRecord {
  return { ...record, id: String(record['id_str'] ?? record.id) };
}

/**
 * The posts among `ids` of `query.tweetType` by the user, promoted-only and organic, replies and
 * mentions included, 200 ids a request (`GET tweets`). Ids of another type or user are left out.
 */
export async function listPosts(client: ApiClient, accountId: string, ids: readonly string[], query: PostQuery): Promise<PostRecord[]> {
  const params: Params = {
    tweet_type: query.tweetType,
    timeline_type: 'ALL',
    include_mentions_and_replies: true,
    trim_user: true,
    ...(query.userId === undefined ? {} : { user_id: query.userId }),
  };
  const found = await listByIds<PostRecord>(client, { path: `${accountPath(accountId)}/tweets`, params, endpoint: 'tweet.list', accountId, countMax: 1000 }, 'tweet_ids', ids);
  return found.map(withStringId);
}

/**
 * Every promoted-only (nullcast) post of `query.tweetType` by the user, replies and mentions
 * included, at the largest page (`GET tweets` without ids: what `adsctl generate` reads).
 */
export async function listPromotedOnlyPosts(client: ApiClient, accountId: string, query: PostQuery): Promise<PostRecord[]> {
  const params: Params = {
    tweet_type: query.tweetType,
    timeline_type: 'NULLCAST',
    include_mentions_and_replies: true,
    trim_user: true,
    ...(query.userId === undefined ? {} : { user_id: query.userId }),
  };
  const found = await listAll<PostRecord>(client, { path: `${accountPath(accountId)}/tweets`, params, endpoint: 'tweet.list', accountId, countMax: 1000 });
  return found.map(withStringId);
}

/**
 * Form parameters from a record of values: strings, numbers, booleans, null (an empty value) and
 * lists of strings or numbers (comma lists); undefined values are left out. Any other value is a
 * bug of the caller and throws.
 */
function formParams(values: Readonly<Record<string, unknown>>): Params {
  const out: Record<string, ParamValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const scalar = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';
    if (value === null || scalar(value) || typeof value === 'boolean') out[key] = value;
    else if (Array.isArray(value) && value.every(scalar)) out[key] = value;
    else throw new TypeError(`parameter ${key} of a post must be a string, number, boolean or list, got ${typeof value}`);
  }
  return out;
}

/**
 * Publishes a post as `as_user_id` (`POST accounts/:id/tweet`, form parameters: text, card_uri,
 * media_keys, name, nullcast, conversation_settings, the video fields...). Answers the post with
 * its id as a string. Not idempotent: a create whose answer is lost is reported `unknown`.
 */
export async function createPost(client: ApiClient, accountId: string, params: W.TweetCreateParams | Readonly<Record<string, unknown>>): Promise<PostRecord> {
  const res = await client.send<{ data: PostRecord }>({ method: 'POST', path: `${accountPath(accountId)}/tweet`, params: formParams(params as Readonly<Record<string, unknown>>), endpoint: 'tweet.create', accountId });
  return withStringId(res.body.data);
}

/** Names a published post (`PUT tweets/:id/name`; an empty name unsets it); answers the post. */
export async function renamePost(client: ApiClient, accountId: string, tweetId: string, name: string): Promise<PostRecord> {
  const res = await client.send<{ data: PostRecord }>({ method: 'PUT', path: `${accountPath(accountId)}/tweets/${encodeURIComponent(tweetId)}/name`, params: { name }, endpoint: 'tweet.rename', accountId });
  return withStringId(res.body.data);
}
