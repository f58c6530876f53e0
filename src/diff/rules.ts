/**
 * The attribute rules of every kind in one table, and the order in which the diff decides kinds:
 * a resource is decided after everything it can reference or sit under (DESIGN §2 write order),
 * so a reference always finds its target's decision.
 */
import type { ResourceKind } from '../manifest/types.js';
import type { FieldRule, KindRules } from './field-rule.js';
import { ACCOUNT_FEATURE_RULES, ACCOUNT_RULES, FUNDING_INSTRUMENT_RULES } from './rules-account.js';
import { CAMPAIGN_RULES } from './rules-campaign.js';
import {
  LINE_ITEM_CURATED_CATEGORY_RULES,
  MEDIA_CREATIVE_RULES,
  PROMOTED_ACCOUNT_RULES,
  PROMOTED_POST_RULES,
  TARGETING_CRITERION_RULES,
} from './rules-line-item-children.js';
import { LINE_ITEM_RULES } from './rules-line-item.js';
import { CARD_RULES, CUSTOM_AUDIENCE_RULES, DRAFT_POST_RULES, MEDIA_LIBRARY_ITEM_RULES } from './rules-part-b.js';

/** The rules of every kind. */
export const KIND_RULES: Readonly<Record<ResourceKind, KindRules>> = {
  account: ACCOUNT_RULES,
  account_feature: ACCOUNT_FEATURE_RULES,
  funding_instrument: FUNDING_INSTRUMENT_RULES,
  campaign: CAMPAIGN_RULES,
  line_item: LINE_ITEM_RULES,
  targeting_criterion: TARGETING_CRITERION_RULES,
  line_item_curated_category: LINE_ITEM_CURATED_CATEGORY_RULES,
  promoted_post: PROMOTED_POST_RULES,
  promoted_account: PROMOTED_ACCOUNT_RULES,
  media_creative: MEDIA_CREATIVE_RULES,
  custom_audience: CUSTOM_AUDIENCE_RULES,
  card: CARD_RULES,
  media_library_item: MEDIA_LIBRARY_ITEM_RULES,
  draft_post: DRAFT_POST_RULES,
};

/**
 * Decision order of the kinds: a kind's rank is above the rank of every kind it can reference
 * or be a child of (account → features, instruments, Part B objects → draft posts → campaigns →
 * line items → their children).
 */
export const KIND_RANK: Readonly<Record<ResourceKind, number>> = {
  account: 0,
  account_feature: 1,
  funding_instrument: 1,
  custom_audience: 1,
  card: 1,
  media_library_item: 1,
  draft_post: 2,
  campaign: 3,
  line_item: 4,
  targeting_criterion: 5,
  line_item_curated_category: 5,
  promoted_post: 5,
  promoted_account: 5,
  media_creative: 5,
};

/**
 * The kinds other resources refer to, by a reference field or as their parent; only their
 * decisions are kept for resolving references.
 */
export const REFERABLE_KINDS: ReadonlySet<ResourceKind> = new Set(['funding_instrument', 'custom_audience', 'card', 'campaign', 'line_item']);

/** The number of distinct ranks in `KIND_RANK`. */
export const RANK_COUNT = 6;

const byField = new Map<ResourceKind, ReadonlyMap<string, FieldRule>>(
  Object.values(KIND_RULES).map((rules) => [rules.kind, new Map(rules.fields.map((rule) => [rule.field, rule]))]),
);

/** The rule of `field` for `kind`, if the kind compares that field. */
export function fieldRule(kind: ResourceKind, field: string): FieldRule | undefined {
  return byField.get(kind)?.get(field);
}

/** True when `kind` is one of the kinds a manifest can manage (state files hold plain strings). */
export function isResourceKind(kind: string): kind is ResourceKind {
  return Object.hasOwn(KIND_RULES, kind);
}

/**
 * The API fields named by `lifecycle.ignore_changes` entries: API names as they are, short
 * money names and reference names mapped to the API fields they set.
 */
export function ignoredFields(rules: KindRules, names: readonly string[]): ReadonlySet<string> {
  if (names.length === 0) return EMPTY;
  return new Set(names.map((name) => rules.aliases?.[name] ?? name));
}

const EMPTY: ReadonlySet<string> = new Set();
