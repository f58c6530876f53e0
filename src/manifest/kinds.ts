/**
 * How each kind's manifest fields become API attributes: copied as written, read as exact ids,
 * converted from currency units to micros, normalised as timestamps, or resolved as references
 * to other resources by logical name. Typed against the types generated from the schema, so a
 * field renamed in the schema fails the build here.
 */
import type {
  Account,
  AccountFeature,
  Campaign,
  Card,
  CustomAudience,
  DraftPost,
  FundingInstrument,
  LineItem,
  LineItemCuratedCategory,
  MediaCreative,
  MediaLibraryItem,
  PromotedAccount,
  PromotedPost,
  TargetingCriterion,
} from './generated/manifest.js';
import type { ResourceKind } from './types.js';

/** A reference by logical name: the API field it fills and the top-level collection it names. */
export interface ReferenceSpec {
  field: string;
  collection: string;
}

/** The field rules of one kind; `def` is the kind's `$defs` entry in the schema. */
export interface KindSpec {
  kind: ResourceKind;
  def: string;
  /** Copied into attributes as written (scalars, lists, maps). */
  plain: readonly string[];
  /** Ids: strings, or unquoted integers read digit for digit. */
  ids: readonly string[];
  /** Short money name → API micros field; either may be written, not both. */
  money: Readonly<Record<string, string>>;
  times: readonly string[];
  refs: Readonly<Record<string, ReferenceSpec>>;
  /** Fields the kind's own code reads (identity, nested settings). */
  special: readonly string[];
  /** Child collections. */
  children: readonly string[];
}

/** The meta-arguments every kind may have (the account has no depends_on). */
export const META_FIELDS = ['lifecycle', 'depends_on'] as const;

type Keys<T> = T extends object ? Extract<keyof T, string> : never;

interface TypedSpec<T> {
  plain?: ReadonlyArray<Keys<T>>;
  ids?: ReadonlyArray<Keys<T>>;
  money?: Readonly<Partial<Record<Keys<T>, Keys<T>>>>;
  times?: ReadonlyArray<Keys<T>>;
  refs?: Readonly<Partial<Record<Keys<T>, { field: Keys<T>; collection: string }>>>;
  special?: ReadonlyArray<Keys<T>>;
  children?: ReadonlyArray<Keys<T>>;
}

function spec<T>(kind: ResourceKind, def: string, s: TypedSpec<T>): KindSpec {
  return {
    kind,
    def,
    plain: s.plain ?? [],
    ids: s.ids ?? [],
    money: (s.money ?? {}) as Record<string, string>,
    times: s.times ?? [],
    refs: (s.refs ?? {}) as Record<string, ReferenceSpec>,
    special: s.special ?? [],
    children: s.children ?? [],
  };
}

/** The rules of every kind. */
export const KIND_SPECS: Readonly<Record<ResourceKind, KindSpec>> = {
  account: spec<Account>('account', 'Account', { plain: ['name', 'industry_type'], special: ['id', 'limits'] }),
  account_feature: spec<AccountFeature>('account_feature', 'AccountFeature', { special: ['feature_key'] }),
  funding_instrument: spec<FundingInstrument>('funding_instrument', 'FundingInstrument', {
    plain: ['type', 'currency'],
    money: { credit_limit: 'credit_limit_local_micro', funded_amount: 'funded_amount_local_micro' },
    times: ['start_time', 'end_time'],
    special: ['id'],
  }),
  campaign: spec<Campaign>('campaign', 'Campaign', {
    plain: ['name', 'budget_optimization', 'standard_delivery', 'entity_status', 'purchase_order_number'],
    ids: ['funding_instrument_id'],
    money: { daily_budget: 'daily_budget_amount_local_micro', total_budget: 'total_budget_amount_local_micro' },
    refs: { funding_instrument: { field: 'funding_instrument_id', collection: 'funding_instruments' } },
    children: ['line_items'],
  }),
  line_item: spec<LineItem>('line_item', 'LineItem', {
    plain: [
      'name', 'product_type', 'objective', 'placements', 'bid_strategy', 'goal', 'pay_by', 'standard_delivery', 'frequency_cap', 'duration_in_days',
      'entity_status', 'advertiser_domain', 'primary_web_event_tag', 'android_app_store_identifier', 'ios_app_store_identifier', 'categories',
      'audience_expansion',
    ],
    money: { bid_amount: 'bid_amount_local_micro', daily_budget: 'daily_budget_amount_local_micro', total_budget: 'total_budget_amount_local_micro' },
    times: ['start_time', 'end_time'],
    children: ['targeting', 'promoted_posts', 'promoted_accounts', 'media_creatives', 'curated_categories'],
  }),
  targeting_criterion: spec<TargetingCriterion>('targeting_criterion', 'TargetingCriterion', {
    plain: ['targeting_type', 'operator_type'],
    ids: ['targeting_value'],
    refs: { custom_audience: { field: 'targeting_value', collection: 'custom_audiences' } },
  }),
  promoted_post: spec<PromotedPost>('promoted_post', 'PromotedPost', { ids: ['tweet_id'] }),
  promoted_account: spec<PromotedAccount>('promoted_account', 'PromotedAccount', { ids: ['user_id'] }),
  media_creative: spec<MediaCreative>('media_creative', 'MediaCreative', { ids: ['account_media_id'], plain: ['landing_url'] }),
  line_item_curated_category: spec<LineItemCuratedCategory>('line_item_curated_category', 'LineItemCuratedCategory', { ids: ['curated_category_id'] }),
  custom_audience: spec<CustomAudience>('custom_audience', 'CustomAudience', { plain: ['name', 'description'], special: ['users'] }),
  card: spec<Card>('card', 'Card', { plain: ['name', 'components', 'slides'] }),
  media_library_item: spec<MediaLibraryItem>('media_library_item', 'MediaLibraryItem', {
    plain: ['media_key', 'name', 'file_name', 'title', 'description', 'poster_media_key'],
  }),
  draft_post: spec<DraftPost>('draft_post', 'DraftPost', {
    plain: ['text', 'card_uri', 'media_keys', 'nullcast', 'name'],
    ids: ['as_user_id'],
    refs: { card: { field: 'card_uri', collection: 'cards' } },
  }),
};

/** API micros fields that must be greater than zero (budgets and bids). */
export const POSITIVE_MICROS: ReadonlySet<string> = new Set(['daily_budget_amount_local_micro', 'total_budget_amount_local_micro', 'bid_amount_local_micro']);

/**
 * The names `lifecycle.ignore_changes` accepts for a kind, mapped to the API field they mean:
 * every attribute's API name, the short money names and the reference names.
 */
export function ignorableFields(spec: KindSpec): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const field of [...spec.plain, ...spec.ids, ...spec.times]) names.set(field, field);
  for (const [short, api] of Object.entries(spec.money)) {
    names.set(short, api);
    names.set(api, api);
  }
  for (const [name, ref] of Object.entries(spec.refs)) names.set(name, ref.field);
  return names;
}
