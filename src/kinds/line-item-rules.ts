/**
 * The rules across a line item's fields that the service enforces on create and update
 * (docs/service-behaviour.md, "Line items"), so that a plan refuses what apply would have had
 * refused half-way: a bid for the MAX and TARGET strategies (and no MAX for REACH or FOLLOWERS,
 * TARGET only for REACH, FOLLOWERS and WEBSITE_CLICKS), the goals each objective takes, the
 * advertiser domain and IAB categories the PUBLISHER_NETWORK placement needs, an app store
 * identifier for the app objectives, a web event tag for the WEBSITE_CONVERSIONS goal, a frequency
 * cap only for the objectives that have one and always with its duration (1, 7 or 30 days), the
 * flight's end after its start, and the daily budget within the total.
 */
import { BUDGETS, dailyWithinTotal, endAfterStart, FLIGHT } from './budget-flight.js';
import type { CrossFieldRules, RuleProblem } from './descriptor.js';

/** The goals each objective takes; the first is the one the service gives a line item created without a goal. */
export const GOALS_BY_OBJECTIVE: Readonly<Record<string, readonly string[]>> = {
  ENGAGEMENTS: ['ENGAGEMENT'],
  APP_INSTALLS: ['APP_INSTALLS', 'APP_CLICKS', 'APP_PURCHASES'],
  APP_ENGAGEMENTS: ['APP_CLICKS', 'APP_PURCHASES'],
  REACH: ['MAX_REACH', 'REACH_WITH_ENGAGEMENT'],
  FOLLOWERS: ['FOLLOWERS'],
  VIDEO_VIEWS: ['VIDEO_VIEW', 'VIEW_3S_100PCT', 'VIEW_6S', 'VIEW_15S'],
  PREROLL_VIEWS: ['PREROLL', 'PREROLL_STARTS', 'VIEW_3S_100PCT', 'VIEW_6S', 'VIEW_15S'],
  WEBSITE_CLICKS: ['LINK_CLICKS', 'SITE_VISITS', 'WEBSITE_CONVERSIONS'],
};
const NO_MAX = ['REACH', 'FOLLOWERS'];
const TARGET_OK = ['REACH', 'FOLLOWERS', 'WEBSITE_CLICKS'];
const FREQUENCY_CAP_OK = ['REACH', 'ENGAGEMENTS', 'VIDEO_VIEWS', 'PREROLL_VIEWS'];
const APP_OBJECTIVES = ['APP_INSTALLS', 'APP_ENGAGEMENTS'];
const DURATIONS = [1, 7, 30];

const set = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The line item's rules. */
export const lineItemRules: CrossFieldRules = (v) => {
  const out: RuleProblem[] = [];
  const objective = text(v['objective']);
  const strategy = text(v['bid_strategy']);
  if (strategy === 'MAX' && NO_MAX.includes(objective)) out.push({ field: 'bid_strategy', code: 'bid-strategy', message: `bid_strategy MAX is not allowed for objective ${objective}` });
  if (strategy === 'TARGET' && !TARGET_OK.includes(objective)) out.push({ field: 'bid_strategy', code: 'bid-strategy', message: `bid_strategy TARGET is allowed only for objectives ${TARGET_OK.join(', ')}, not ${objective}` });
  if ((strategy === 'MAX' || strategy === 'TARGET') && !set(v['bid_amount_local_micro'])) {
    out.push({ field: 'bid_strategy', code: 'missing-bid', message: `bid_strategy ${strategy} needs a bid: set bid_amount` });
  }
  const goals = GOALS_BY_OBJECTIVE[objective];
  if (set(v['goal']) && goals !== undefined && !goals.includes(text(v['goal']))) {
    out.push({ field: 'goal', code: 'goal-objective', message: `goal ${text(v['goal'])} does not go with objective ${objective}; it takes ${goals.join(', ')}` });
  }
  const placements = Array.isArray(v['placements']) ? (v['placements'] as unknown[]) : [];
  if (placements.includes('PUBLISHER_NETWORK')) {
    if (!set(v['advertiser_domain'])) out.push({ field: 'placements', code: 'publisher-network', message: 'the PUBLISHER_NETWORK placement needs advertiser_domain' });
    if (!Array.isArray(v['categories']) || v['categories'].length === 0) out.push({ field: 'placements', code: 'publisher-network', message: 'the PUBLISHER_NETWORK placement needs at least one IAB category in categories' });
  }
  if (APP_OBJECTIVES.includes(objective) && !set(v['android_app_store_identifier']) && !set(v['ios_app_store_identifier'])) {
    out.push({ field: 'objective', code: 'app-identifier', message: `objective ${objective} needs android_app_store_identifier or ios_app_store_identifier` });
  }
  if (v['goal'] === 'WEBSITE_CONVERSIONS' && !set(v['primary_web_event_tag'])) out.push({ field: 'goal', code: 'web-event-tag', message: 'goal WEBSITE_CONVERSIONS needs primary_web_event_tag' });
  const cap = v['frequency_cap'];
  const days = v['duration_in_days'];
  if (set(cap) && !FREQUENCY_CAP_OK.includes(objective)) out.push({ field: 'frequency_cap', code: 'frequency-cap', message: `frequency_cap is allowed only for objectives ${FREQUENCY_CAP_OK.join(', ')}, not ${objective}` });
  if (set(cap) !== set(days)) out.push({ field: set(cap) ? 'frequency_cap' : 'duration_in_days', code: 'frequency-cap', message: 'frequency_cap and duration_in_days go together: set both or neither' });
  if (set(days) && !DURATIONS.includes(Number(days))) out.push({ field: 'duration_in_days', code: 'frequency-cap', message: `duration_in_days is one of ${DURATIONS.join(', ')}, not ${String(days)}` });
  out.push(...endAfterStart(FLIGHT, v));
  out.push(...budgetRule(v));
  return out;
};

/** A daily budget within the total (campaigns and line items). */
export function budgetRule(v: Readonly<Record<string, unknown>>): RuleProblem[] {
  return dailyWithinTotal(BUDGETS, v);
}
