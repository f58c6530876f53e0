/**
 * The rules a line item must satisfy, checked on the whole record after a create or an update
 * (docs/service-behaviour.md, "Line items"; where the service's behaviour is not known for sure the choice is stated here):
 * - placements form a valid combination for the product type (lookups/placements.ts);
 * - bid_strategy MAX is not allowed for REACH and FOLLOWERS; TARGET only for REACH, FOLLOWERS and
 *   WEBSITE_CLICKS (the POST reference text); MAX and TARGET need bid_amount_local_micro > 0;
 * - a bid, whenever present, lies within the bidding rule of the currency and is a multiple of
 *   its minimum denomination (INVALID_DENOMINATION otherwise);
 * - goal is one of the objective's goals (GOALS_BY_OBJECTIVE; the first is the default);
 * - PUBLISHER_NETWORK placements need categories and advertiser_domain; APP_INSTALLS and
 *   APP_ENGAGEMENTS need an app store identifier; goal WEBSITE_CONVERSIONS needs
 *   primary_web_event_tag;
 * - frequency_cap only for REACH, ENGAGEMENTS, VIDEO_VIEWS, PREROLL_VIEWS, and only together with
 *   duration_in_days (INCLUSIVE_PARAMETERS);
 * - end_time after start_time (INVALID_TIME_WINDOW); daily budget ≤ total budget ≤ the campaign's
 *   total budget.
 */
import { WireError, badRequest, invalidParameter, missingParameter } from '../errors.js';
import { biddingRule } from '../lookups/bidding-rules.js';
import { isValidCombination, type ProductType } from '../lookups/placements.js';
import type { Rec } from '../store/row.js';

/** Values of `objective` (v12 reference). */
export const OBJECTIVES = ['APP_ENGAGEMENTS', 'APP_INSTALLS', 'REACH', 'FOLLOWERS', 'ENGAGEMENTS', 'VIDEO_VIEWS', 'PREROLL_VIEWS', 'WEBSITE_CLICKS'] as const;
/** One line item objective. */
export type Objective = (typeof OBJECTIVES)[number];

/** Every goal POST accepts. */
export const GOALS = [
  'APP_CLICKS', 'APP_INSTALLS', 'APP_PURCHASES', 'ENGAGEMENT', 'FOLLOWERS', 'LINK_CLICKS', 'MAX_REACH', 'PREROLL', 'PREROLL_STARTS',
  'REACH_WITH_ENGAGEMENT', 'SITE_VISITS', 'VIDEO_VIEW', 'VIEW_3S_100PCT', 'VIEW_6S', 'VIEW_15S', 'WEBSITE_CONVERSIONS',
] as const;
/** The goals PUT accepts: the POST list without SITE_VISITS. */
export const PUT_GOALS = GOALS.filter((g) => g !== 'SITE_VISITS');

/** Goals allowed per objective; the first is the default. */
export const GOALS_BY_OBJECTIVE: Record<Objective, readonly string[]> = {
  ENGAGEMENTS: ['ENGAGEMENT'],
  APP_INSTALLS: ['APP_INSTALLS', 'APP_CLICKS', 'APP_PURCHASES'],
  APP_ENGAGEMENTS: ['APP_CLICKS', 'APP_PURCHASES'],
  REACH: ['MAX_REACH', 'REACH_WITH_ENGAGEMENT'],
  FOLLOWERS: ['FOLLOWERS'],
  VIDEO_VIEWS: ['VIDEO_VIEW', 'VIEW_3S_100PCT', 'VIEW_6S', 'VIEW_15S'],
  PREROLL_VIEWS: ['PREROLL', 'PREROLL_STARTS', 'VIEW_3S_100PCT', 'VIEW_6S', 'VIEW_15S'],
  WEBSITE_CLICKS: ['LINK_CLICKS', 'SITE_VISITS', 'WEBSITE_CONVERSIONS'],
};

/** The pay_by a line item gets from its objective; only APP_INSTALLS lets a client choose (PAY_BY_VALUES). */
export const PAY_BY_DEFAULT: Record<Objective, string> = {
  ENGAGEMENTS: 'ENGAGEMENT',
  APP_INSTALLS: 'APP_CLICK',
  APP_ENGAGEMENTS: 'APP_CLICK',
  REACH: 'IMPRESSION',
  FOLLOWERS: 'FOLLOW',
  VIDEO_VIEWS: 'VIEW',
  PREROLL_VIEWS: 'VIEW',
  WEBSITE_CLICKS: 'LINK_CLICK',
};
/** Values an APP_INSTALLS line item may choose for `pay_by`. */
export const PAY_BY_VALUES = ['APP_CLICK', 'IMPRESSION', 'LINK_CLICK'] as const;

/** Values of `bid_strategy`; AUTO is the default. */
export const BID_STRATEGIES = ['AUTO', 'MAX', 'TARGET'] as const;
const NO_MAX: readonly string[] = ['REACH', 'FOLLOWERS'];
const TARGET_OK: readonly string[] = ['REACH', 'FOLLOWERS', 'WEBSITE_CLICKS'];
const FREQUENCY_CAP_OK: readonly string[] = ['REACH', 'ENGAGEMENTS', 'VIDEO_VIEWS', 'PREROLL_VIEWS'];
const APP_OBJECTIVES: readonly string[] = ['APP_INSTALLS', 'APP_ENGAGEMENTS'];

/** `entity_status` values on create (default ACTIVE). */
export const ENTITY_STATUSES_CREATE = ['ACTIVE', 'DRAFT', 'PAUSED'] as const;
/** `entity_status` values on update: a line item cannot go back to DRAFT. */
export const ENTITY_STATUSES_UPDATE = ['ACTIVE', 'PAUSED'] as const;
/** Values of `duration_in_days`, the window of `frequency_cap`. */
export const DURATIONS_IN_DAYS: readonly number[] = [1, 7, 30];
/** Values of `audience_expansion` (kept privately; the record has no such field). */
export const AUDIENCE_EXPANSIONS = ['BROAD', 'DEFINED', 'EXPANDED'] as const;

const BID = 'bid_amount_local_micro';
const DAILY = 'daily_budget_amount_local_micro';
const TOTAL = 'total_budget_amount_local_micro';

/** Every rule broken by line item `rec` in a campaign with `campaign` record. */
export function lineItemProblems(rec: Rec, campaign: Rec): WireError[] {
  const out: WireError[] = [];
  const objective = rec['objective'] as Objective;
  const placements = rec['placements'] as string[];
  const strategy = rec['bid_strategy'] as string;
  const bid = rec[BID] as number | null;

  if (!isValidCombination(rec['product_type'] as ProductType, placements)) {
    out.push(invalidParameter('placements', `${placements.join(', ')} is not a valid placement combination for product_type ${String(rec['product_type'])}`));
  }
  if (strategy === 'MAX' && NO_MAX.includes(objective)) out.push(invalidParameter('bid_strategy', `bid_strategy MAX is not allowed for objective ${objective}`));
  if (strategy === 'TARGET' && !TARGET_OK.includes(objective)) out.push(invalidParameter('bid_strategy', `bid_strategy TARGET is not allowed for objective ${objective}`));
  if (strategy !== 'AUTO' && bid === null) {
    out.push(new WireError(400, [{ code: 'MISSING_PARAMETER', message: `"${BID}" is a required parameter when bid_strategy is ${strategy}`, parameter: BID }]));
  }
  if (bid !== null) out.push(...bidProblems(bid, String(rec['currency'])));

  if (!GOALS_BY_OBJECTIVE[objective].includes(String(rec['goal']))) {
    out.push(invalidParameter('goal', `Expected a value in ${GOALS_BY_OBJECTIVE[objective].join(', ')} for objective ${objective}, got ${JSON.stringify(rec['goal'])} for goal`));
  }
  if (placements.includes('PUBLISHER_NETWORK')) {
    if ((rec['categories'] as string[]).length === 0) out.push(invalidParameter('categories', 'A minimum of 1 items must be provided for categories'));
    if (rec['advertiser_domain'] === null) out.push(missingParameter('advertiser_domain'));
  }
  if (APP_OBJECTIVES.includes(objective) && rec['android_app_store_identifier'] === null && rec['ios_app_store_identifier'] === null) {
    out.push(
      new WireError(400, [
        { code: 'MISSING_PARAMETER', message: `android_app_store_identifier or ios_app_store_identifier is required for objective ${objective}`, parameter: 'android_app_store_identifier' },
      ]),
    );
  }
  if (rec['goal'] === 'WEBSITE_CONVERSIONS' && rec['primary_web_event_tag'] === null) out.push(missingParameter('primary_web_event_tag'));

  const cap = rec['frequency_cap'];
  const days = rec['duration_in_days'];
  if (cap !== null && !FREQUENCY_CAP_OK.includes(objective)) out.push(invalidParameter('frequency_cap', `frequency_cap is not allowed for objective ${objective}`));
  if ((cap === null) !== (days === null)) {
    out.push(badRequest('INCLUSIVE_PARAMETERS', 'frequency_cap and duration_in_days are inclusive parameters', cap === null ? 'frequency_cap' : 'duration_in_days'));
  }

  const start = rec['start_time'];
  const end = rec['end_time'];
  if (typeof start === 'string' && typeof end === 'string' && Date.parse(end) <= Date.parse(start)) {
    out.push(badRequest('INVALID_TIME_WINDOW', 'end_time must be after start_time', 'end_time'));
  }

  const daily = rec[DAILY] as number | null;
  const total = rec[TOTAL] as number | null;
  const campaignTotal = campaign[TOTAL] as number | null;
  if (daily !== null && total !== null && daily > total) out.push(invalidParameter(DAILY, `${DAILY} must not exceed ${TOTAL}`));
  if (total !== null && campaignTotal !== null && total > campaignTotal) {
    out.push(invalidParameter(TOTAL, `${TOTAL} must not exceed the campaign's ${TOTAL} (${campaignTotal})`));
  }
  return out;
}

/** A bid outside the currency's bidding rule, or not a multiple of its minimum denomination. */
function bidProblems(bid: number, currency: string): WireError[] {
  const rule = biddingRule(currency);
  if (rule === undefined) return [];
  const out: WireError[] = [];
  if (bid < rule.minimum_cpe_bid_local_micro || bid > rule.maximum_cpe_bid_local_micro) {
    out.push(
      invalidParameter(
        BID,
        `${BID} must be between ${rule.minimum_cpe_bid_local_micro} and ${rule.maximum_cpe_bid_local_micro} for currency ${currency}, got ${bid}`,
      ),
    );
  }
  if (bid % rule.minimum_denomination !== 0) {
    out.push(badRequest('INVALID_DENOMINATION', `${BID} must be a multiple of ${rule.minimum_denomination} for currency ${currency}, got ${bid}`, BID));
  }
  return out;
}
