/**
 * Draft and scheduled posts (Part B, Draft posts, Scheduled posts): kept on the service for later,
 * changed in place by PUT and deleted by DELETE — a scheduled post only until it is published (the
 * service then refuses both, and the post it became is left alone). Written as the manifest's
 * `as_user_id` or the account's FULL promotable user; the author cannot change (a new author is a
 * replacement). Content as for posts: text, a card and media by logical name.
 */
import type { DraftPost, ScheduledPost } from '../manifest/generated/manifest.js';
import { field, serviceDefaulted } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { POST_WRITE_BACK, readPostContent } from './post-content.js';
import { fullPromotableUser, pick, postAsWritten } from './post.js';
import { deleteOne, updateOne } from './standard.js';

const CONTENT = ['text', 'card_uri', 'media_keys', 'nullcast', 'name'] as const;

function laterPost(kind: 'draft_post' | 'scheduled_post', resource: 'draft_tweet' | 'scheduled_tweet'): KindDescriptor {
  const scheduled = kind === 'scheduled_post';
  const fields = scheduled ? [...CONTENT, 'scheduled_at'] : [...CONTENT];
  return {
    kind,
    noun: scheduled ? 'scheduled post' : 'draft post',
    parent: 'account',
    address: { collection: scheduled ? 'scheduled_posts' : 'draft_posts', key: 'name' },
    manifest: scheduled
      ? manifestFields<ScheduledPost>('ScheduledPost', { plain: ['text', 'name', 'nullcast', 'media_keys', 'card_uri'], ids: ['as_user_id'], times: ['scheduled_at'], refs: { card: { field: 'card_uri', collection: 'cards' }, conversation_card: { field: 'card_uri', collection: 'conversation_cards' } }, special: ['media'], named: ['media'], read: readPostContent })
      : manifestFields<DraftPost>('DraftPost', { plain: ['text', 'name', 'nullcast', 'media_keys', 'card_uri'], ids: ['as_user_id'], refs: { card: { field: 'card_uri', collection: 'cards' }, conversation_card: { field: 'card_uri', collection: 'conversation_cards' } }, special: ['media'], named: ['media'], read: readPostContent }),
    generate: scheduled
      ? { ...POST_WRITE_BACK, leftOut: { together: { holds: (r) => r['scheduled_status'] !== undefined && r['scheduled_status'] !== 'SCHEDULED', what: 'already published', why: 'the service no longer changes them, and the posts they became are under posts' } } }
      : POST_WRITE_BACK,
    attributes: [
      field('as_user_id', 'id', 'replace'),
      { ...field('text', 'scalar', 'update'), multiline: true },
      { ...field('card_uri', 'scalar', 'update'), idPrefix: 'card://' },
      field('media_keys', 'list', 'update'),
      serviceDefaulted('nullcast', 'scalar', 'update', true),
      field('name', 'scalar', 'update'),
      ...(scheduled ? [{ ...field('scheduled_at', 'time', 'update'), requiredOnCreate: true as const, future: true as const }] : []),
    ],
    computed: ['id', 'user_id', 'created_at', 'updated_at', 'deleted', ...(scheduled ? ['scheduled_status', 'completed_at', 'tweet_id'] : [])],
    read: {
      via: 'custom',
      read: async (api, accountId, { bound }) => (bound.size === 0 ? [] : (await api.listWhere(resource, accountId, 'id', [...bound])).map((r) => postAsWritten(r as unknown as Record<string, unknown>))),
      // those of the account's FULL promotable user (the list's default), the author a manifest that names none writes as
      whole: async (api, accountId) => (await api.list(resource, accountId)).map((r) => postAsWritten(r as unknown as Record<string, unknown>)),
    },
    write: {
      create: {
        via: 'single',
        send: async (api, accountId, item) => {
          const params = pick(item.params, ['as_user_id', ...fields]);
          params['as_user_id'] ??= await fullPromotableUser(api, accountId);
          return String((await api.create(resource, accountId, params as never)).id);
        },
      },
      update: updateOne(resource),
      delete: deleteOne(resource),
    },
    import: { via: 'read' },
    replaceOrder: 'create-first',
    sandboxOnly: false,
    retiredWithParent: false,
    owned: false,
    limits: [],
    lookups: [{ need: 'promotable_users', field: 'as_user_id' }],
  };
}

/** A draft post. */
export const DRAFT_POST: KindDescriptor = laterPost('draft_post', 'draft_tweet');

/** A scheduled post. */
export const SCHEDULED_POST: KindDescriptor = laterPost('scheduled_post', 'scheduled_tweet');
