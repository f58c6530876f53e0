/**
 * The account-scoped resources of Part A, described once: where they live, how their lists are
 * filtered, which batch endpoint and limit they have. Typed operations are built on this table.
 */
import type * as W from './generated/wire.js';

/** Wire record type of each resource. */
export interface Records {
  account_app: W.AccountApp;
  funding_instrument: W.FundingInstrument;
  campaign: W.Campaign;
  line_item: W.LineItem;
  targeting_criterion: W.TargetingCriterion;
  line_item_curated_category: W.LineItemCuratedCategory;
  media_creative: W.MediaCreative;
  promoted_account: W.PromotedAccount;
  promoted_tweet: W.PromotedTweet;
  promotable_user: W.PromotableUser;
}

export type ResourceName = keyof Records;

/** Parameters of each resource's create (generated from schemas/wire.schema.json). */
export interface CreateParams {
  account_app: never;
  funding_instrument: W.FundingInstrumentCreateParams;
  campaign: W.CampaignCreateParams;
  line_item: W.LineItemCreateParams;
  targeting_criterion: W.TargetingCriterionCreateParams;
  line_item_curated_category: W.LineItemCuratedCategoryParams;
  media_creative: W.MediaCreativeCreateParams;
  promoted_account: W.PromotedAccountCreateParams;
  promoted_tweet: never;
  promotable_user: never;
}

/** Parameters of each resource's update; `never` where the API has no PUT. */
export interface UpdateParams {
  account_app: never;
  funding_instrument: never;
  campaign: W.CampaignUpdateParams;
  line_item: W.LineItemUpdateParams;
  targeting_criterion: never;
  line_item_curated_category: W.LineItemCuratedCategoryParams;
  media_creative: never;
  promoted_account: never;
  promoted_tweet: never;
  promotable_user: never;
}

export interface ResourceSpec {
  /** Path segment below `/12/accounts/:account_id/`. */
  collection: string;
  /** The list filter taking this resource's own ids. */
  idsParam: string;
  /** Largest `count` of its list. */
  countMax: number;
  /** Items per request of its batch endpoint, when it has one. */
  batchLimit?: number;
  /** The `<entity>_id` a batch Update or Delete item names. */
  batchIdParam?: string;
}

export const RESOURCES: Record<ResourceName, ResourceSpec> = {
  account_app: { collection: 'account_apps', idsParam: 'account_app_ids', countMax: 1000 },
  funding_instrument: { collection: 'funding_instruments', idsParam: 'funding_instrument_ids', countMax: 1000 },
  campaign: { collection: 'campaigns', idsParam: 'campaign_ids', countMax: 1000, batchLimit: 40, batchIdParam: 'campaign_id' },
  line_item: { collection: 'line_items', idsParam: 'line_item_ids', countMax: 1000, batchLimit: 40, batchIdParam: 'line_item_id' },
  targeting_criterion: { collection: 'targeting_criteria', idsParam: 'targeting_criterion_ids', countMax: 1000, batchLimit: 500, batchIdParam: 'targeting_criterion_id' },
  line_item_curated_category: { collection: 'line_item_curated_categories', idsParam: 'line_item_curated_category_ids', countMax: 1000 },
  media_creative: { collection: 'media_creatives', idsParam: 'media_creative_ids', countMax: 1000 },
  promoted_account: { collection: 'promoted_accounts', idsParam: 'promoted_account_ids', countMax: 1000 },
  promoted_tweet: { collection: 'promoted_tweets', idsParam: 'promoted_tweet_ids', countMax: 1000 },
  promotable_user: { collection: 'promotable_users', idsParam: 'promotable_user_ids', countMax: 1000 },
};

/** Post ids per `POST promoted_tweets`. */
export const PROMOTED_TWEETS_PER_POST = 50;

/** Ids per list filter. */
export const IDS_PER_FILTER = 200;
