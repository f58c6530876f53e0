/** The unit the emulator stores: one record of the service, plus what the service keeps privately. */

/** Kinds of stored records. Lookup data (bidding rules, placements, categories) is static, not stored. */
export type Kind =
  | 'user'
  | 'app'
  | 'request_token'
  | 'access_token'
  | 'bearer_token'
  | 'account'
  | 'account_app'
  | 'account_media'
  | 'funding_instrument'
  | 'campaign'
  | 'line_item'
  | 'targeting_criterion'
  | 'line_item_curated_category'
  | 'media_creative'
  | 'promoted_account'
  | 'promoted_tweet'
  | 'promotable_user'
  | 'post'
  | 'draft_post'
  | 'scheduled_post'
  | 'media'
  | 'media_library'
  | 'card'
  | 'conversation_card'
  | 'history'
  | 'custom_audience'
  | 'audience_permission'
  | 'do_not_reach_list';

/** A wire record: exactly the fields the service returns for it. */
export type Rec = Record<string, unknown>;

/**
 * One stored record. `rec` is what the API returns; `ext` holds what the service knows but does
 * not return (an account's users and features, a token's secret). `seq` orders records by
 * creation, which is the default order of every list.
 */
export interface Row {
  kind: Kind;
  id: string;
  accountId: string;
  seq: number;
  rec: Rec;
  ext: Rec;
}
