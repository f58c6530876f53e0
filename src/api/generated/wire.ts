/* Generated from schemas/wire.schema.json by scripts/generate-wire-types.mjs. Do not edit. */

/**
 * ISO 8601 time in UTC, seconds precision.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "Timestamp".
 */
export type Timestamp = string;

/**
 * Records of the advertising API as they travel on the wire (spec Part A field tables). The emulator's responses are checked against it and the API client's types are generated from it.
 */
export interface AdsWire {
  Timestamp?: Timestamp;
  Account?: Account;
  AccountApp?: AccountApp;
  AccountHistoryRecord?: AccountHistoryRecord;
  AdvertiserBusinessCategory?: AdvertiserBusinessCategory;
  IabCategory?: IabCategory;
  BiddingRule?: BiddingRule;
  AuthenticatedUserAccess?: AuthenticatedUserAccess;
  Campaign?: Campaign;
  CuratedCategory?: CuratedCategory;
  FundingInstrument?: FundingInstrument;
  LineItem?: LineItem;
  PlacementCombination?: PlacementCombination;
  LineItemCuratedCategory?: LineItemCuratedCategory;
  MediaCreative?: MediaCreative;
  PromotedAccount?: PromotedAccount;
  PromotedTweet?: PromotedTweet;
  PromotableUser?: PromotableUser;
  TargetingCriterion?: TargetingCriterion;
  ErrorItem?: ErrorItem;
  ErrorBody?: ErrorBody;
  BatchErrorBody?: BatchErrorBody;
  CampaignCreateParams?: CampaignCreateParams;
  CampaignUpdateParams?: CampaignUpdateParams;
  LineItemCreateParams?: LineItemCreateParams;
  LineItemUpdateParams?: LineItemUpdateParams;
  TargetingCriterionCreateParams?: TargetingCriterionCreateParams;
  PromotedAccountCreateParams?: PromotedAccountCreateParams;
  MediaCreativeCreateParams?: MediaCreativeCreateParams;
  LineItemCuratedCategoryParams?: LineItemCuratedCategoryParams;
  FundingInstrumentCreateParams?: FundingInstrumentCreateParams;
}
/**
 * An ad account.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "Account".
 */
export interface Account {
  id: string;
  name: string;
  business_name: string | null;
  business_id: string | null;
  /**
   * Zone name.
   */
  timezone: string;
  timezone_switch_at: Timestamp | null;
  /**
   * Returned on single lookup and update.
   */
  industry_type?:
    | 'AGENCY'
    | 'BUSINESS_TO_BUSINESS'
    | 'ONLINE_SERVICES'
    | 'EDUCATION'
    | 'FINANCIAL'
    | 'HEALTH'
    | 'GOVERNMENT'
    | 'MEDIA'
    | 'MOBILE'
    | 'RESTAURANT'
    | 'RETAIL'
    | 'TECHNOLOGY'
    | 'TRAVEL'
    | 'OTHER'
    | null;
  approval_status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * A mobile app of the account.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "AccountApp".
 */
export interface AccountApp {
  id: string;
  app_store_identifier: string;
  conversion_tracking_enabled: boolean;
  deep_link_pattern: string;
  os_type: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * One recorded change of an entity.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "AccountHistoryRecord".
 */
export interface AccountHistoryRecord {
  change_by: {
    user_id: string | null;
    platform: string;
  };
  changes: {};
  change_time: Timestamp;
  entity_id: string;
  entity: string;
  entity_data: {};
  change_type: string;
}
/**
 * A business category (PREROLL_VIEWS line items).
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "AdvertiserBusinessCategory".
 */
export interface AdvertiserBusinessCategory {
  id: string;
  name: string;
  iab_categories: string[];
}
/**
 * An IAB category.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "IabCategory".
 */
export interface IabCategory {
  id: string;
  parent_id: string | null;
  name: string;
}
/**
 * Bid bounds of a currency.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "BiddingRule".
 */
export interface BiddingRule {
  /**
   * ISO 4217 code.
   */
  currency: string;
  minimum_cpe_bid_local_micro: number;
  maximum_cpe_bid_local_micro: number;
  minimum_denomination: number;
}
/**
 * The caller's permissions on an account.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "AuthenticatedUserAccess".
 */
export interface AuthenticatedUserAccess {
  user_id: string;
  permissions: string[];
}
/**
 * A campaign.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "Campaign".
 */
export interface Campaign {
  id: string;
  name: string;
  funding_instrument_id: string;
  budget_optimization: 'CAMPAIGN' | 'LINE_ITEM';
  /**
   * Daily budget (micros of the funding instrument's currency)
   */
  daily_budget_amount_local_micro: number | null;
  /**
   * Total budget (micros of the funding instrument's currency)
   */
  total_budget_amount_local_micro: number | null;
  standard_delivery: boolean | null;
  entity_status: 'ACTIVE' | 'DRAFT' | 'PAUSED';
  servable: boolean | null;
  reasons_not_servable: string[];
  effective_status: string;
  purchase_order_number: string | null;
  duration_in_days: number | null;
  frequency_cap: number | null;
  currency: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * A curated category.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "CuratedCategory".
 */
export interface CuratedCategory {
  id: string;
  name: string;
  description: string;
  country_codes: string[];
  publisher_user_ids: string[];
  videos_monetized_in_last_thirty_days: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
/**
 * A funding instrument.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "FundingInstrument".
 */
export interface FundingInstrument {
  id: string;
  account_id: string;
  type: 'AGENCY_CREDIT_LINE' | 'CREDIT_CARD' | 'CREDIT_LINE' | 'INSERTION_ORDER' | 'PARTNER_MANAGED';
  description: string;
  currency: string;
  start_time: Timestamp;
  end_time: Timestamp | null;
  /**
   * Credit limit (micros of the funding instrument's currency)
   */
  credit_limit_local_micro: number | null;
  /**
   * Funded amount (micros of the funding instrument's currency)
   */
  funded_amount_local_micro: number | null;
  /**
   * Remaining credit (micros of the funding instrument's currency)
   */
  credit_remaining_local_micro: number | null;
  entity_status: string;
  able_to_fund: boolean;
  reasons_not_able_to_fund: string[];
  io_header: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * A line item (ad group).
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "LineItem".
 */
export interface LineItem {
  id: string;
  campaign_id: string;
  funding_instrument_id: string;
  advertiser_user_id: string;
  name: string | null;
  placements: string[];
  product_type: 'MEDIA' | 'PROMOTED_ACCOUNT' | 'PROMOTED_TWEETS';
  objective: string;
  goal: string | null;
  bid_strategy: string | null;
  /**
   * Bid (micros of the funding instrument's currency)
   */
  bid_amount_local_micro: number | null;
  /**
   * Target cost per action (micros of the funding instrument's currency)
   */
  target_cpa_local_micro: number | null;
  pay_by: string | null;
  creative_source: string | null;
  start_time: Timestamp | null;
  end_time: Timestamp | null;
  duration_in_days: number | null;
  /**
   * Daily budget (micros of the funding instrument's currency)
   */
  daily_budget_amount_local_micro: number | null;
  /**
   * Total budget (micros of the funding instrument's currency)
   */
  total_budget_amount_local_micro: number | null;
  standard_delivery: boolean | null;
  frequency_cap: number | null;
  entity_status: string;
  automatic_tweet_promotion: unknown;
  advertiser_domain: string | null;
  primary_web_event_tag: string | null;
  android_app_store_identifier: string | null;
  ios_app_store_identifier: string | null;
  categories: string[];
  audience_expansion?: string | null;
  currency: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * Valid placement combinations of a product type.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "PlacementCombination".
 */
export interface PlacementCombination {
  product_type: 'MEDIA' | 'PROMOTED_ACCOUNT' | 'PROMOTED_TWEETS';
  placements: string[][];
}
/**
 * A curated category attached to a line item.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "LineItemCuratedCategory".
 */
export interface LineItemCuratedCategory {
  id: string;
  line_item_id: string;
  curated_category_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * Account media associated with a line item.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "MediaCreative".
 */
export interface MediaCreative {
  id: string;
  line_item_id: string;
  account_media_id: string;
  landing_url: string | null;
  creative_type: string;
  entity_status: string;
  approval_status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * A user promoted by a line item.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "PromotedAccount".
 */
export interface PromotedAccount {
  id: string;
  line_item_id: string;
  user_id: string;
  entity_status: string;
  approval_status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * A post promoted by a line item.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "PromotedTweet".
 */
export interface PromotedTweet {
  id: string;
  line_item_id: string;
  tweet_id: string;
  entity_status: string;
  approval_status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * A user whose content the account may promote.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "PromotableUser".
 */
export interface PromotableUser {
  id: string;
  user_id: string;
  promotable_user_type: 'FULL' | 'RETWEETS_ONLY';
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * A targeting criterion of a line item.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "TargetingCriterion".
 */
export interface TargetingCriterion {
  id: string;
  line_item_id: string;
  name: string | null;
  targeting_type: string;
  targeting_value: string;
  operator_type: 'EQ' | 'NE' | 'GTE' | 'LT';
  location_type?: string | null;
  localized_name?: string | null;
  tailored_audience_expansion?: boolean | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * True once deleted; deleted records are left out of lists unless with_deleted=true.
   */
  deleted: boolean;
}
/**
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "ErrorItem".
 */
export interface ErrorItem {
  /**
   * A string code on advertising endpoints, an integer on token endpoints.
   */
  code: string | number;
  message: string;
  parameter?: string;
  details?: string;
  value?: unknown;
}
/**
 * The body of every error response.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "ErrorBody".
 */
export interface ErrorBody {
  errors: ErrorItem[];
  request?: {};
}
/**
 * A failed batch: one slot of errors per input item.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "BatchErrorBody".
 */
export interface BatchErrorBody {
  operation_errors: ErrorItem[][];
  request: unknown[];
}
/**
 * Parameters of POST campaigns (and of a batch Create item).
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "CampaignCreateParams".
 */
export interface CampaignCreateParams {
  funding_instrument_id: string;
  /**
   * At most 255 characters.
   */
  name: string;
  budget_optimization?: 'CAMPAIGN' | 'LINE_ITEM';
  daily_budget_amount_local_micro?: number | null;
  total_budget_amount_local_micro?: number | null;
  /**
   * At most 50 characters.
   */
  purchase_order_number?: string | null;
  standard_delivery?: boolean;
  entity_status?: 'ACTIVE' | 'DRAFT' | 'PAUSED';
}
/**
 * Parameters of PUT campaigns/:id; an empty value (null) unsets a field.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "CampaignUpdateParams".
 */
export interface CampaignUpdateParams {
  /**
   * At most 255 characters.
   */
  name?: string;
  budget_optimization?: 'CAMPAIGN' | 'LINE_ITEM';
  daily_budget_amount_local_micro?: number | null;
  total_budget_amount_local_micro?: number | null;
  /**
   * At most 50 characters.
   */
  purchase_order_number?: string | null;
  standard_delivery?: boolean;
  entity_status?: 'ACTIVE' | 'PAUSED';
}
/**
 * Parameters of POST line_items (and of a batch Create item).
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "LineItemCreateParams".
 */
export interface LineItemCreateParams {
  campaign_id: string;
  objective: string;
  product_type: 'MEDIA' | 'PROMOTED_ACCOUNT' | 'PROMOTED_TWEETS';
  /**
   * A comma-separated list or an array.
   */
  placements: string | string[];
  name?: string | null;
  bid_strategy?: 'AUTO' | 'MAX' | 'TARGET';
  bid_amount_local_micro?: number | null;
  goal?: string;
  pay_by?: string;
  /**
   * ISO 8601.
   */
  start_time: string;
  end_time?: string | null;
  daily_budget_amount_local_micro?: number | null;
  total_budget_amount_local_micro?: number | null;
  frequency_cap?: number | null;
  duration_in_days?: number | null;
  advertiser_domain?: string | null;
  /**
   * A comma-separated list or an array.
   */
  categories?: string | string[];
  android_app_store_identifier?: string | null;
  ios_app_store_identifier?: string | null;
  audience_expansion?: string | null;
  entity_status?: 'ACTIVE' | 'DRAFT' | 'PAUSED';
  standard_delivery?: boolean;
  primary_web_event_tag?: string | null;
}
/**
 * Parameters of PUT line_items/:id (the writable fields only).
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "LineItemUpdateParams".
 */
export interface LineItemUpdateParams {
  name?: string | null;
  bid_strategy?: 'AUTO' | 'MAX' | 'TARGET';
  bid_amount_local_micro?: number | null;
  goal?: string;
  pay_by?: string;
  /**
   * ISO 8601.
   */
  start_time?: string;
  end_time?: string | null;
  daily_budget_amount_local_micro?: number | null;
  total_budget_amount_local_micro?: number | null;
  frequency_cap?: number | null;
  duration_in_days?: number | null;
  advertiser_domain?: string | null;
  /**
   * A comma-separated list or an array.
   */
  categories?: string | string[];
  android_app_store_identifier?: string | null;
  ios_app_store_identifier?: string | null;
  audience_expansion?: string | null;
  entity_status?: 'ACTIVE' | 'PAUSED';
}
/**
 * Parameters of POST targeting_criteria.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "TargetingCriterionCreateParams".
 */
export interface TargetingCriterionCreateParams {
  line_item_id: string;
  targeting_type: string;
  targeting_value: string;
  operator_type?: 'EQ' | 'NE' | 'GTE' | 'LT';
}
/**
 * Parameters of POST promoted_accounts.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "PromotedAccountCreateParams".
 */
export interface PromotedAccountCreateParams {
  line_item_id: string;
  user_id: string;
}
/**
 * Parameters of POST media_creatives.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "MediaCreativeCreateParams".
 */
export interface MediaCreativeCreateParams {
  line_item_id: string;
  account_media_id: string;
  landing_url?: string | null;
}
/**
 * Parameters of POST and PUT line_item_curated_categories.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "LineItemCuratedCategoryParams".
 */
export interface LineItemCuratedCategoryParams {
  line_item_id?: string;
  curated_category_id?: string;
}
/**
 * Parameters of the sandbox-only POST funding_instruments.
 *
 * This interface was referenced by `AdsWire`'s JSON-Schema
 * via the `definition` "FundingInstrumentCreateParams".
 */
export interface FundingInstrumentCreateParams {
  /**
   * ISO 4217.
   */
  currency: string;
  start_time: string;
  type: 'AGENCY_CREDIT_LINE' | 'CREDIT_CARD' | 'CREDIT_LINE' | 'INSERTION_ORDER' | 'PARTNER_MANAGED';
  end_time?: string | null;
  credit_limit_local_micro?: number | null;
  funded_amount_local_micro?: number | null;
}
