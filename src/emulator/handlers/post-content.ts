/**
 * What a post carries, read the same way by POST tweet and the draft and scheduled post endpoints
 * (Part B): `text` (280 characters), `card_uri` (`card://<id>` of a card of the account, any kind;
 * else 404 `NOT_FOUND`), `media_keys` (media of the account's library: up to 4 images, or 1 GIF,
 * or 1 video; else 404 `MEDIA_NOT_FOUND` or 400 `INVALID_MEDIA`), `name` (80) and `nullcast`.
 * A post needs text or media: 400 `TWEET_CANNOT_BE_BLANK`. On PUT an empty `card_uri` or
 * `media_keys` removes it and an empty `name` unsets it.
 */
import type { ApiContext } from '../context.js';
import { badRequest, invalidParameter, notFound } from '../errors.js';
import type { ParamReader } from '../params.js';
import type { Rec } from '../store/row.js';
import type { MediaType } from '../upload/uploaded-media.js';
import { accountIdOf } from './common.js';
import { invalidMedia, libraryMedia } from './media-library-item.js';

/** The longest post, draft or scheduled post name. */
export const NAME_MAX = 80;
/** The longest post text. */
const TEXT_MAX = 280;

const CARD_URI = /^card:\/\/(\d{1,20})$/;

/** The content fields sent; `null` means removed or unset by an empty value. */
interface PostContent {
  text?: string | null;
  card_uri?: string | null;
  media_keys?: string[];
  name?: string | null;
  nullcast?: boolean;
}

/** Reads the content parameters; `update` lets empty values remove a field (PUT). */
export function readContent(p: ParamReader, update: boolean): PostContent {
  const out: PostContent = {};
  const text = p.string('text', { max: TEXT_MAX, nullable: true });
  if (text !== undefined) out.text = text === '' ? null : text;
  const card = p.string('card_uri', { nullable: true });
  if (typeof card === 'string' && !CARD_URI.test(card)) p.fail(invalidParameter('card_uri', `Expected a card URI (card://<card_id>), got ${JSON.stringify(card)} for card_uri`));
  else if (card !== undefined && (card !== null || update)) out.card_uri = card;
  const keys = p.list('media_keys', { allowEmpty: true });
  if (keys !== undefined && (keys.length > 0 || update)) out.media_keys = keys;
  const name = p.string('name', { max: NAME_MAX, nullable: true });
  if (name !== undefined && (name !== null || update)) out.name = name;
  const nullcast = p.bool('nullcast');
  if (nullcast !== undefined) out.nullcast = nullcast;
  return out;
}

/** Checks that `uri` names a card of the path's account that is not deleted. */
function checkCard(ctx: ApiContext, uri: string): void {
  const id = CARD_URI.exec(uri)![1]!;
  const row = ctx.store.get('card', id) ?? ctx.store.get('conversation_card', id);
  if (row === undefined || row.accountId !== accountIdOf(ctx) || row.rec['deleted'] === true) throw notFound('Card', uri, accountIdOf(ctx), 'card_uri');
}

/** Checks the media rule for `keys` and returns the media type of the set (undefined when empty). */
function checkMedia(ctx: ApiContext, keys: readonly string[]): MediaType | undefined {
  if (keys.length === 0) return undefined;
  if (new Set(keys).size !== keys.length) throw invalidMedia('media_keys lists a media key twice', 'media_keys');
  const types = keys.map((key) => libraryMedia(ctx, key, 'media_keys').mediaType);
  const images = types.filter((t) => t === 'IMAGE').length;
  if (images === types.length) {
    if (images > 4) throw invalidMedia(`A post takes up to 4 images, got ${images}`, 'media_keys');
    return 'IMAGE';
  }
  if (types.length > 1) throw invalidMedia('A post takes up to 4 images, or 1 GIF, or 1 video; media types cannot be mixed', 'media_keys');
  return types[0];
}

/**
 * Checks the post that results from `current` (the stored fields, empty on create) changed by
 * `change`: card, media and the text-or-media rule. Returns the media type of the media keys
 * `change` sends (undefined when it sends none).
 */
export function checkContent(ctx: ApiContext, current: Rec, change: PostContent): MediaType | undefined {
  if (typeof change.card_uri === 'string') checkCard(ctx, change.card_uri);
  const keys = change.media_keys ?? (current['media_keys'] as string[] | undefined) ?? [];
  const mediaType = change.media_keys === undefined ? undefined : checkMedia(ctx, keys);
  const text = change.text !== undefined ? change.text : (current['text'] as string | null | undefined);
  if ((text ?? '').trim() === '' && keys.length === 0) throw badRequest('TWEET_CANNOT_BE_BLANK', 'A post needs text or media_keys', 'text');
  return mediaType;
}

/** The stored fields of a new post, draft or scheduled post. */
export function contentFields(content: PostContent): Rec {
  return {
    name: content.name ?? null,
    text: content.text ?? null,
    card_uri: content.card_uri ?? null,
    media_keys: content.media_keys ?? [],
    nullcast: content.nullcast ?? true,
  };
}

/** The stored fields `change` replaces (fields it does not name are kept). */
export function changedFields(change: PostContent): Rec {
  const out: Rec = {};
  for (const [key, value] of Object.entries(change)) out[key] = key === 'media_keys' ? value : (value ?? null);
  return out;
}
