/**
 * The rules a new targeting criterion must pass (docs/service-behaviour.md, "Targeting criteria"): its targeting type, the operators
 * the type allows, a value the service knows for the type (lookup data, the account's campaigns,
 * known users), no duplicate on the line item, and the per-line-item limits. Also computes the
 * server-side fields of the record: `name` (keyword text, location name, option name, @user) and
 * `location_type` for LOCATION criteria.
 */
import type { ApiContext } from '../context.js';
import { WireError, invalidParameter } from '../errors.js';
import { EVENTS, TV_SHOWS } from '../lookups/events-and-tv.js';
import { INTERESTS } from '../lookups/interests.js';
import { CRITERION_LOCATION_TYPE, findLocation } from '../lookups/locations.js';
import {
  AGE_BUCKETS, APP_STORE_CATEGORIES, CONVERSATIONS, DEVICES, ENGAGEMENT_TYPES, GENDERS, LANGUAGES, NETWORK_OPERATORS, PLATFORMS,
  PLATFORM_VERSIONS, type TargetingOption,
} from '../lookups/targeting-values.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf } from './common.js';
import { customAudienceCriterionName } from './custom-audience-model.js';

/** Targeting types of `POST targeting_criteria` (v12). */
export const TARGETING_TYPES = [
  'AGE', 'DEVICE', 'EVENT', 'CAMPAIGN_ENGAGEMENT', 'CAMPAIGN_ENGAGEMENT_LOOKALIKE', 'CONVERSATION', 'ENGAGEMENT_TYPE',
  'FOLLOWERS_OF_USER', 'GENDER', 'INTEREST', 'LANGUAGE', 'LIVE_TV_EVENT', 'LOCATION', 'NETWORK_ACTIVATION_DURATION',
  'NETWORK_OPERATOR', 'PLATFORM', 'PLATFORM_VERSION', 'SIMILAR_TO_FOLLOWERS_OF_USER', 'TV_SHOW', 'USER_ENGAGEMENT',
  'USER_ENGAGEMENT_LOOKALIKE', 'WIFI_ONLY', 'BROAD_KEYWORD', 'EXACT_KEYWORD', 'PHRASE_KEYWORD', 'UNORDERED_KEYWORD',
  'CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED', 'APP_STORE_CATEGORY', 'APP_STORE_CATEGORY_LOOKALIKE', 'APP_LIST',
] as const;

/** One targeting type of `POST targeting_criteria`. */
type TargetingType = (typeof TARGETING_TYPES)[number];

/** Operators a criterion may have; which ones a type takes is checked by `checkCriterion`. */
export const OPERATOR_TYPES = ['EQ', 'NE', 'GTE', 'LT'] as const;

/** One operator of a criterion. */
type OperatorType = (typeof OPERATOR_TYPES)[number];

const KEYWORD_TYPES: ReadonlySet<string> = new Set(['BROAD_KEYWORD', 'EXACT_KEYWORD', 'PHRASE_KEYWORD', 'UNORDERED_KEYWORD']);

/** Limits per line item, counted over its criteria that are not deleted; keyword types count together. */
const LIMITS: ReadonlyArray<{ types: ReadonlySet<string>; max: number; what: string }> = [
  { types: new Set(['INTEREST']), max: 100, what: 'INTEREST' },
  { types: new Set(['SIMILAR_TO_FOLLOWERS_OF_USER']), max: 100, what: 'SIMILAR_TO_FOLLOWERS_OF_USER' },
  { types: new Set(['LOCATION']), max: 2000, what: 'LOCATION' },
  { types: KEYWORD_TYPES, max: 1000, what: 'keyword' },
  { types: new Set(['EVENT']), max: 1, what: 'EVENT' },
  { types: new Set(['AGE']), max: 1, what: 'AGE' },
];

const byValue = (options: readonly TargetingOption[]): ReadonlyMap<string, string> => new Map(options.map((o) => [o.targeting_value, o.name]));

/** Option names of the types checked against lookup data. */
const LOOKUPS: Readonly<Partial<Record<TargetingType, ReadonlyMap<string, string>>>> = {
  LANGUAGE: byValue(LANGUAGES),
  PLATFORM: byValue(PLATFORMS),
  PLATFORM_VERSION: byValue(PLATFORM_VERSIONS),
  DEVICE: byValue(DEVICES),
  NETWORK_OPERATOR: byValue(NETWORK_OPERATORS),
  INTEREST: byValue(INTERESTS),
  CONVERSATION: byValue(CONVERSATIONS),
  APP_STORE_CATEGORY: byValue(APP_STORE_CATEGORIES),
  APP_STORE_CATEGORY_LOOKALIKE: byValue(APP_STORE_CATEGORIES),
  EVENT: new Map(EVENTS.map((e) => [e.targeting_value, e.name])),
  TV_SHOW: new Map(TV_SHOWS.map((s) => [String(s.targeting_value), s.name])),
  AGE: new Map(Object.entries(AGE_BUCKETS)),
  GENDER: new Map(Object.entries(GENDERS)),
  ENGAGEMENT_TYPE: new Map(Object.entries(ENGAGEMENT_TYPES)),
};

/** A criterion about to be created on a line item. */
interface NewCriterion {
  targetingType: TargetingType;
  targetingValue: string;
  operatorType: OperatorType;
}

const badValue = (message: string): WireError => invalidParameter('targeting_value', message);

function checkOperator(c: NewCriterion): void {
  const allowed: readonly OperatorType[] =
    c.targetingType === 'APP_LIST' ? ['NE'] : c.targetingType === 'NETWORK_ACTIVATION_DURATION' ? ['GTE', 'LT'] : ['EQ', 'NE'];
  if (!allowed.includes(c.operatorType)) {
    throw invalidParameter('operator_type', `operator_type ${c.operatorType} is not supported for targeting_type ${c.targetingType}; expected ${allowed.join(' or ')}`);
  }
}

const userName = (ctx: ApiContext, userId: string): string | undefined => {
  const user = /^\d{1,19}$/.test(userId) ? ctx.store.get('user', userId) : undefined;
  return user === undefined ? undefined : `@${String(user.rec['screen_name'])}`;
};

/** The server-computed fields (`name`, and `location_type` for LOCATION) of a valid value. */
function resolveValue(ctx: ApiContext, c: NewCriterion): Rec {
  const { targetingType: type, targetingValue: value } = c;
  const unknown = (): WireError => badValue(`Unknown targeting_value ${JSON.stringify(value)} for targeting_type ${type}`);
  if (KEYWORD_TYPES.has(type)) {
    if (value.trim() === '') throw badValue('A keyword targeting_value must not be blank');
    return { name: value };
  }
  const fromLookup = LOOKUPS[type];
  if (fromLookup !== undefined) {
    const name = fromLookup.get(value);
    if (name === undefined) throw unknown();
    return { name };
  }
  switch (type) {
    case 'LOCATION': {
      const location = findLocation(value);
      if (location === undefined) throw unknown();
      return { name: location.name, location_type: CRITERION_LOCATION_TYPE[location.location_type] };
    }
    case 'FOLLOWERS_OF_USER':
    case 'SIMILAR_TO_FOLLOWERS_OF_USER': {
      const name = userName(ctx, value);
      if (name === undefined) throw badValue(`User ${value} was not found for targeting_type ${type}`);
      return { name };
    }
    case 'USER_ENGAGEMENT':
    case 'USER_ENGAGEMENT_LOOKALIKE': {
      const promotable = ctx.store.table('promotable_user').ofAccount(accountIdOf(ctx)).some((r) => r.rec['deleted'] !== true && r.rec['user_id'] === value);
      const name = promotable ? userName(ctx, value) : undefined;
      if (name === undefined) throw badValue(`User ${value} is not a promotable user of Account ${accountIdOf(ctx)}`);
      return { name };
    }
    case 'CAMPAIGN_ENGAGEMENT':
    case 'CAMPAIGN_ENGAGEMENT_LOOKALIKE': {
      const campaign = ctx.store.get('campaign', value);
      if (campaign === undefined || campaign.accountId !== accountIdOf(ctx) || campaign.rec['deleted'] === true) {
        throw badValue(`Campaign ${value} was not found for Account ${accountIdOf(ctx)}`);
      }
      return { name: String(campaign.rec['name']) };
    }
    case 'CUSTOM_AUDIENCE':
    case 'CUSTOM_AUDIENCE_EXPANDED':
      return { name: customAudienceCriterionName(ctx, value) };
    case 'NETWORK_ACTIVATION_DURATION':
      if (!/^[1-9]\d{0,2}$/.test(value)) throw badValue(`Expected a number of months, got ${JSON.stringify(value)} for targeting_value`);
      return { name: `${value} months` };
    default:
      if (value.trim() === '') throw badValue('targeting_value must not be blank');
      return { name: value };
  }
}

/** The criteria of a line item that are not deleted. */
function liveCriteria(ctx: ApiContext, lineItem: Row): Row[] {
  return ctx.store.table('targeting_criterion').under('line_item', lineItem.id).filter((r) => r.rec['deleted'] !== true);
}

function checkLineItem(ctx: ApiContext, lineItem: Row, c: NewCriterion): void {
  const existing = liveCriteria(ctx, lineItem);
  const duplicate = existing.some(
    (r) => r.rec['targeting_type'] === c.targetingType && r.rec['targeting_value'] === c.targetingValue && r.rec['operator_type'] === c.operatorType,
  );
  if (duplicate) {
    throw badValue(`Line Item ${lineItem.id} already has the ${c.targetingType} targeting criterion ${JSON.stringify(c.targetingValue)} with operator_type ${c.operatorType}`);
  }
  for (const limit of LIMITS) {
    if (!limit.types.has(c.targetingType)) continue;
    const used = existing.filter((r) => limit.types.has(String(r.rec['targeting_type']))).length;
    if (used >= limit.max) {
      throw invalidParameter('targeting_type', `Line Item ${lineItem.id} already has the maximum of ${limit.max} ${limit.what} targeting criteria`);
    }
  }
  if (c.targetingType === 'TV_SHOW') {
    const show = TV_SHOWS.find((s) => String(s.targeting_value) === c.targetingValue);
    const country = show?.locales[0]?.country;
    const locations = existing.filter((r) => r.rec['targeting_type'] === 'LOCATION').map((r) => findLocation(String(r.rec['targeting_value'])));
    if (locations.length === 0 || locations.some((l) => l?.country_code !== country)) {
      throw badValue(`TV_SHOW targeting needs LOCATION targeting on Line Item ${lineItem.id}, all within the show's market (${country ?? 'unknown'})`);
    }
  }
}

/**
 * Checks a new criterion for `lineItem` and returns its server-computed fields. Throws the
 * service's 400 errors (operator, value, duplicate, limits, TV show locale).
 */
export function checkCriterion(ctx: ApiContext, lineItem: Row, c: NewCriterion): Rec {
  checkOperator(c);
  const computed = resolveValue(ctx, c);
  checkLineItem(ctx, lineItem, c);
  return computed;
}
