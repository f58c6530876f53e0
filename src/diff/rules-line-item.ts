/**
 * Attribute rules of a line item, from the emulator's line-item-params.ts and line-item-write.ts
 * (research §6.2):
 * - PUT refuses `campaign_id`, `objective`, `product_type`, `placements`, `standard_delivery` and
 *   `primary_web_event_tag`: a change of any of them replaces the line item;
 * - the API defaults `entity_status` to ACTIVE and `categories` to none; `bid_strategy`, `goal`
 *   and `pay_by` default by objective and are managed only when written;
 * - `audience_expansion` is accepted but never answered, so it is compared with the applied value;
 * - promoting a post on a PROMOTED_ACCOUNT line item makes the server add SERVICE_TIMELINE to its
 *   placements, which is therefore not a difference.
 */
import { defaulted, field, type KindRules } from './field-rule.js';

const SERVER_ADDED_PLACEMENT = 'SERVICE_TIMELINE';

/** True when `live` is `desired` plus the timeline placement a promoted post adds to a PROMOTED_ACCOUNT line item. */
function timelineAdded(desired: unknown, live: unknown, liveRecord: Readonly<Record<string, unknown>>): boolean {
  if (liveRecord['product_type'] !== 'PROMOTED_ACCOUNT' || !Array.isArray(desired) || !Array.isArray(live)) return false;
  if (desired.includes(SERVER_ADDED_PLACEMENT) || !live.includes(SERVER_ADDED_PLACEMENT)) return false;
  return live.length === desired.length + 1 && desired.every((p) => live.includes(p));
}

/** The line item's rules. */
export const LINE_ITEM_RULES: KindRules = {
  kind: 'line_item',
  fields: [
    field('campaign_id', 'id', 'replace'),
    field('name', 'scalar', 'update'),
    field('product_type', 'scalar', 'replace'),
    field('objective', 'scalar', 'replace'),
    { ...field('placements', 'set', 'replace'), equivalent: timelineAdded },
    field('standard_delivery', 'scalar', 'replace'),
    field('primary_web_event_tag', 'scalar', 'replace'),
    defaulted('entity_status', 'scalar', 'ACTIVE'),
    field('bid_strategy', 'scalar', 'update'),
    field('bid_amount_local_micro', 'micros', 'update'),
    field('goal', 'scalar', 'update'),
    field('pay_by', 'scalar', 'update'),
    field('daily_budget_amount_local_micro', 'micros', 'update'),
    field('total_budget_amount_local_micro', 'micros', 'update'),
    field('start_time', 'time', 'update'),
    field('end_time', 'time', 'update'),
    field('frequency_cap', 'scalar', 'update'),
    field('duration_in_days', 'scalar', 'update'),
    field('advertiser_domain', 'scalar', 'update'),
    defaulted('categories', 'set', []),
    field('android_app_store_identifier', 'scalar', 'update'),
    field('ios_app_store_identifier', 'scalar', 'update'),
    field('audience_expansion', 'scalar', 'update'),
  ],
  aliases: {
    bid_amount: 'bid_amount_local_micro',
    daily_budget: 'daily_budget_amount_local_micro',
    total_budget: 'total_budget_amount_local_micro',
  },
};
