/**
 * The account-scoped resources of Parts A and B, described once: where they live, how their lists
 * are filtered and paged, how their writes are sent, which batch endpoint and limit they have.
 * The generic operations of `AdsApi` (list, listWhere, get, create, update, delete, batch) read
 * this table, so a resource whose endpoints differ says so here rather than in every caller.
 */
import type * as W from './generated/wire.js';

/**
 * A wire record that can also be read field by field (`record['media_key']`), as kind descriptors
 * read records; its declared fields keep their types.
 */
export type Fields<T> = T & Record<string, unknown>;

/** The JSON body of POST and PUT cards: a name and components, or slides (multi-destination carousels). */
export interface CardBody {
  /** Required on POST; at most 80 characters. */
  name?: string;
  components?: unknown[];
  slides?: unknown[][];
}

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
  custom_audience: Fields<W.CustomAudience>;
  flexible_audience: Fields<W.CustomAudience>;
  draft_tweet: Fields<W.DraftTweet>;
  scheduled_tweet: Fields<W.ScheduledTweet>;
  account_media: Fields<W.AccountMedia>;
  media_library: Fields<W.MediaLibraryItem>;
  image_conversation_card: Fields<W.ImageConversationCard>;
  video_conversation_card: Fields<W.VideoConversationCard>;
  card: Fields<W.Card>;
  do_not_reach_list: Fields<W.DoNotReachList>;
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
  custom_audience: W.CustomAudienceCreateParams;
  flexible_audience: never;
  draft_tweet: W.DraftTweetCreateParams;
  scheduled_tweet: W.ScheduledTweetCreateParams;
  account_media: never;
  media_library: W.MediaLibraryItemCreateParams;
  image_conversation_card: W.ImageConversationCardCreateParams;
  video_conversation_card: W.VideoConversationCardCreateParams;
  card: CardBody & { name: string };
  do_not_reach_list: W.DoNotReachListCreateParams;
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
  custom_audience: W.CustomAudienceUpdateParams;
  flexible_audience: never;
  draft_tweet: W.DraftTweetUpdateParams;
  scheduled_tweet: W.ScheduledTweetUpdateParams;
  account_media: never;
  media_library: W.MediaLibraryItemUpdateParams;
  image_conversation_card: W.ImageConversationCardUpdateParams;
  video_conversation_card: W.VideoConversationCardUpdateParams;
  card: CardBody;
  do_not_reach_list: never;
}

interface ResourceSpec {
  /** Path below `/12/accounts/:account_id/` (`cards/image_conversation`). */
  collection: string;
  /**
   * The list filter taking this resource's own ids (200 a request). When the list has none
   * (`localIds`), the record field holding its id, which `listWhere` matches over the whole list.
   */
  idsParam: string;
  /** The list has no id filter: `listWhere` on `idsParam` reads every page and keeps the records whose id is asked for. */
  localIds?: true;
  /** Largest `count` of its list (unused when `unpaged`). */
  countMax: number;
  /** The list takes no `count` or `cursor`: one request answers every record. */
  unpaged?: true;
  /** There is no `GET .../:id`: `get` reads the list and picks the record (a 404 `ApiError` when absent). */
  noGet?: true;
  /** POST and PUT take a JSON body (cards), not form parameters. */
  jsonBody?: true;
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
  custom_audience: { collection: 'custom_audiences', idsParam: 'custom_audience_ids', countMax: 1000 },
  // the same records; the batch endpoint takes only flexible audiences (Create, Delete), 10 a request
  flexible_audience: { collection: 'custom_audiences', idsParam: 'custom_audience_ids', countMax: 1000, batchLimit: 10, batchIdParam: 'custom_audience_id' },
  draft_tweet: { collection: 'draft_tweets', idsParam: 'id', localIds: true, countMax: 200 },
  scheduled_tweet: { collection: 'scheduled_tweets', idsParam: 'id', localIds: true, countMax: 200 },
  account_media: { collection: 'account_media', idsParam: 'account_media_ids', countMax: 1000 },
  media_library: { collection: 'media_library', idsParam: 'media_key', localIds: true, countMax: 50 },
  image_conversation_card: { collection: 'cards/image_conversation', idsParam: 'card_ids', countMax: 1000 },
  video_conversation_card: { collection: 'cards/video_conversation', idsParam: 'card_ids', countMax: 1000 },
  card: { collection: 'cards', idsParam: 'card_id', countMax: 200, jsonBody: true },
  do_not_reach_list: { collection: 'do_not_reach_lists', idsParam: 'id', localIds: true, countMax: 1000, unpaged: true, noGet: true },
};

/** Flexible audiences per request of `POST batch/accounts/:account_id/custom_audiences` (creates and deletes only). */
export const FLEXIBLE_AUDIENCES_PER_BATCH = 10;

/** Post ids per `POST promoted_tweets`. */
export const PROMOTED_TWEETS_PER_POST = 50;

/** Ids per list filter. */
export const IDS_PER_FILTER = 200;
