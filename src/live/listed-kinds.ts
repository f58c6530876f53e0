/**
 * Manifest kinds that are read through a list endpoint of their own records: which API resource
 * holds them, the filter that takes their ids, and list flags they need (drafts are hidden from
 * campaign and line item lists unless asked for).
 */
import type { ResourceName } from '../api/resources.js';
import type { ResourceKind } from '../manifest/types.js';

export interface ListedKind {
  resource: ResourceName;
  idsParam: string;
  extra?: Record<string, boolean>;
}

export const LISTED_KINDS: Partial<Record<ResourceKind, ListedKind>> = {
  campaign: { resource: 'campaign', idsParam: 'campaign_ids', extra: { with_draft: true } },
  line_item: { resource: 'line_item', idsParam: 'line_item_ids', extra: { with_draft: true } },
  promoted_post: { resource: 'promoted_tweet', idsParam: 'promoted_tweet_ids' },
  promoted_account: { resource: 'promoted_account', idsParam: 'promoted_account_ids' },
  media_creative: { resource: 'media_creative', idsParam: 'media_creative_ids' },
  line_item_curated_category: { resource: 'line_item_curated_category', idsParam: 'line_item_curated_category_ids' },
  funding_instrument: { resource: 'funding_instrument', idsParam: 'funding_instrument_ids' },
};
