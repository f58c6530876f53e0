/**
 * A promoted post of a line item (Part A, Promoted tweets): no PUT; created 50 post ids a POST
 * per line item. The post id is the address key and is not compared, because the service
 * answers the id of a promoted-only repost for a post of a RETWEETS_ONLY promotable user.
 */
import type { PromotedPost } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { deleteOne } from './standard.js';

/** Post ids per `POST promoted_tweets` (Part A, Limits). */
export const POSTS_PER_PROMOTE = 50;

/** A promoted post. */
export const PROMOTED_POST: KindDescriptor = {
  kind: 'promoted_post',
  noun: 'promoted post',
  parent: 'line_item',
  address: { collection: 'promoted_posts', key: 'value', field: 'tweet_id' },
  manifest: manifestFields<PromotedPost>('PromotedPost', { ids: ['tweet_id'] }),
  attributes: [required('line_item_id', 'id', 'replace'), { ...field('tweet_id', 'id', 'replace'), identity: true, requiredOnCreate: true }],
  computed: ['id', 'entity_status', 'approval_status', 'created_at', 'updated_at', 'deleted'],
  read: { via: 'list', resource: 'promoted_tweet', idsParam: 'promoted_tweet_ids', pageSize: 1000, scope: 'ids' },
  write: {
    create: {
      via: 'grouped',
      by: 'line_item_id',
      limit: POSTS_PER_PROMOTE,
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
  limits: [],
  lookups: [],
};
