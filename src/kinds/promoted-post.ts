/**
 * A promoted post of a line item (Part A, Promoted tweets): no PUT; created 50 post ids a POST
 * per line item. The post id is the address key and is not compared, because the service
 * answers the id of a promoted-only repost for a post of a RETWEETS_ONLY promotable user.
 */
import { PROMOTED_TWEETS_PER_POST } from '../api/resources.js';
import type { PromotedPost } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { asMap, childPointer, stringValue } from './entry-nodes.js';
import type { ItemIdentity } from './manifest-reading.js';
import { manifestFields } from './manifest-fields.js';
import { deleteOne, listed } from './standard.js';

/**
 * A promotion of a post of the manifest (`posts.NAME`, or `post: NAME`): keyed `posts.NAME`, its
 * post id a reference to the post; any other item is keyed by its post id.
 */
const postIdentity: ItemIdentity = (ctx, item, pointer) => {
  const map = asMap(item);
  const postEntry = map?.byKey.get('post');
  const text = map === undefined ? stringValue(item) : undefined;
  if (postEntry === undefined && text?.startsWith('posts.') !== true) return 'default';
  const node = postEntry?.value ?? item;
  const name = postEntry === undefined ? (text ?? '').slice('posts.'.length) : stringValue(postEntry.value);
  if (name === undefined) return undefined;
  const ref = ctx.reference(node, postEntry === undefined ? pointer : childPointer(pointer, 'post'), 'posts', 'post', name);
  return ref === undefined ? undefined : { key: `posts.${name}`, target: { field: 'tweet_id', address: ref.$target } };
};

/** A promoted post. */
export const PROMOTED_POST: KindDescriptor = {
  kind: 'promoted_post',
  noun: 'promoted post',
  parent: 'line_item',
  parentField: 'line_item_id',
  address: { collection: 'promoted_posts', key: 'value', field: 'tweet_id' },
  manifest: manifestFields<PromotedPost>('PromotedPost', { ids: ['tweet_id'], special: ['post'], named: ['posts'], identity: postIdentity, duplicate: 'duplicate-promoted-post' }),
  generate: { itemNamed: 'posts' },
  attributes: [required('line_item_id', 'id', 'replace'), { ...field('tweet_id', 'id', 'replace'), identity: true, requiredOnCreate: true }],
  computed: ['id', 'entity_status', 'approval_status', 'created_at', 'updated_at', 'deleted'],
  read: listed('promoted_tweet', 'parent', { parentParam: 'line_item_ids' }),
  write: {
    create: {
      via: 'grouped',
      by: 'line_item_id',
      limit: PROMOTED_TWEETS_PER_POST,
      send: async (api, accountId, lineItem, items) => {
        const created = await api.promoteTweets(accountId, lineItem, items.map((i) => String(i.params['tweet_id'])));
        return items.map((_, i) => created[i]?.id);
      },
    },
    delete: deleteOne('promoted_tweet'),
  },
  // a promoted-only repost answers with a new tweet_id; those are matched by the repost's id in state on the next plan
  find: { resource: 'promoted_tweet', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'tweet_id'] },
  import: { via: 'get', resource: 'promoted_tweet' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: true,
  history: 'PROMOTED_TWEET',
  limits: [],
  lookups: [{ need: 'posts', field: 'tweet_id' }],
  creative: true,
};
