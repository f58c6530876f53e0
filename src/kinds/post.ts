/**
 * A promoted-only post (Part B, Posts): created by `POST accounts/:id/tweet`, renamed by
 * `PUT tweets/:id/name`, and otherwise unchangeable and undeletable. A change of anything but the
 * name creates a new post (the old one stays on the service) and the promotions that name the
 * post by `posts.NAME` move to it. The card and media are named by logical name. GET shows the
 * text as `full_text` (extended mode), the media as entities and the card in `card_uri`; the live
 * record is read back in the shape the manifest writes. Without `as_user_id` the post is written
 * as the account's FULL promotable user.
 */
import type { Post } from '../manifest/generated/manifest.js';
import { field, serviceDefaulted } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { POST_WRITE_BACK, readPostContent } from './post-content.js';
import { manifestFields } from './manifest-fields.js';
import { LocalWriteError } from './write-error.js';
import type { AdsApi } from '../api/ads-api.js';

const CREATE_FIELDS = ['as_user_id', 'text', 'card_uri', 'media_keys', 'name', 'conversation_settings', 'video_title', 'video_description', 'video_cta', 'video_cta_value'] as const;

/** A live post, draft or scheduled post in the shape the manifest writes. */
export function postAsWritten(record: Record<string, unknown>): Record<string, unknown> {
  const user = record['user'] as Record<string, unknown> | undefined;
  const author = record['user_id'] ?? (user === undefined ? undefined : (user['id_str'] ?? user['id']));
  return {
    ...record,
    id: String(record['id_str'] ?? record['id']),
    text: record['full_text'] ?? record['text'],
    as_user_id: record['as_user_id'] ?? (author === undefined || author === null ? undefined : String(author)),
  };
}

/** Only the fields in `names` that `params` sets. */
export function pick(params: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of names) if (params[f] !== undefined && params[f] !== null) out[f] = params[f];
  return out;
}

/** The user id of the account's FULL promotable user: the author of a post whose manifest names none. */
export async function fullPromotableUser(api: AdsApi, accountId: string): Promise<string> {
  const users = await api.list('promotable_user', accountId);
  const full = users.find((u) => u.promotable_user_type === 'FULL');
  if (full === undefined) throw new LocalWriteError(`account ${accountId} has no FULL promotable user to post as; give as_user_id`);
  return String(full.user_id);
}

/** A promoted-only post. */
export const POST: KindDescriptor = {
  kind: 'post',
  noun: 'post',
  parent: 'account',
  address: { collection: 'posts', key: 'name' },
  manifest: manifestFields<Post>('Post', {
    plain: ['text', 'name', 'conversation_settings', 'video_title', 'video_description', 'video_cta', 'video_cta_value', 'media_keys', 'card_uri'],
    ids: ['as_user_id'],
    refs: { card: { field: 'card_uri', collection: 'cards' }, conversation_card: { field: 'card_uri', collection: 'conversation_cards' } },
    special: ['media'],
    named: ['media'],
    read: readPostContent,
  }),
  generate: { ...POST_WRITE_BACK, comment: 'promoted-only posts: the service cannot change or delete them; a change but of the name makes a new post' },
  attributes: [
    field('as_user_id', 'id', 'replace'),
    { ...field('text', 'scalar', 'replace'), multiline: true },
    { ...field('card_uri', 'scalar', 'replace'), idPrefix: 'card://' },
    field('media_keys', 'list', 'replace'),
    field('name', 'scalar', 'update'),
    serviceDefaulted('conversation_settings', 'scalar', 'replace', 'EVERYONE'),
    field('video_title', 'scalar', 'replace'),
    field('video_description', 'scalar', 'replace'),
    field('video_cta', 'scalar', 'replace'),
    field('video_cta_value', 'scalar', 'replace'),
  ],
  computed: ['id', 'id_str', 'full_text', 'user', 'created_at', 'tweet_type', 'entities', 'display_text_range'],
  read: {
    via: 'custom',
    read: async (api, accountId, { bound }) => (bound.size === 0 ? [] : (await api.posts(accountId, [...bound], { tweetType: 'PUBLISHED' })).map((r) => postAsWritten(r as Record<string, unknown>))),
    // the promoted-only posts of the account's FULL promotable user: the posts a manifest makes
    whole: async (api, accountId) => (await api.promotedOnlyPosts(accountId, { tweetType: 'PUBLISHED' })).map((r) => postAsWritten(r as Record<string, unknown>)),
  },
  write: {
    create: {
      via: 'single',
      send: async (api, accountId, item) => {
        const params = pick(item.params, CREATE_FIELDS);
        // the API requires the author; a manifest that names none means the account's FULL promotable user
        params['as_user_id'] ??= await fullPromotableUser(api, accountId);
        return String((await api.createPost(accountId, params)).id);
      },
    },
    update: {
      via: 'single',
      send: async (api, accountId, item) => {
        await api.renamePost(accountId, item.id ?? '', String(item.params['name'] ?? ''));
        return item.id ?? '';
      },
    },
  },
  import: { via: 'read' },
  replaceOrder: 'create-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [{ need: 'promotable_users', field: 'as_user_id' }],
};
