/**
 * A line item (Part A, Line items). PUT refuses `campaign_id`, `objective`, `product_type`,
 * `placements`, `standard_delivery` and `primary_web_event_tag`: a change of any of them replaces
 * the line item. The API defaults `entity_status` to ACTIVE and `categories` to none;
 * `bid_strategy` (AUTO), `goal` and `pay_by` (by objective, src/kinds/line-item-defaults.ts) and
 * `standard_delivery` (true) get the service's values and are managed only when written.
 * `audience_expansion` is accepted but never answered. Promoting a post on a PROMOTED_ACCOUNT
 * line item makes the service add SERVICE_TIMELINE to its placements, which is therefore not a
 * difference. Limits: 100 line items per campaign, 256 active line items per account.
 */
import type { LineItem } from '../manifest/generated/manifest.js';
import { defaulted, field, required, serviceDefaulted } from './attribute.js';
import { BUDGETS, FLIGHT } from './budget-flight.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { defaultGoal, defaultPayBy } from './line-item-defaults.js';
import { lineItemRules } from './line-item-rules.js';
import { SERVICE_LIMITS } from '../service/limits.js';
import { batch, listed } from './standard.js';

/** Line items one campaign may have (Part A, Limits). */
export const MAX_LINE_ITEMS_PER_CAMPAIGN = SERVICE_LIMITS.lineItemsPerCampaign;
/** Active line items an account may have across its campaigns (Part A, Limits). */
export const MAX_ACTIVE_LINE_ITEMS = SERVICE_LIMITS.activeLineItems;

const SERVER_ADDED_PLACEMENT = 'SERVICE_TIMELINE';
const FLAGS = { with_draft: true };

/** True when `live` is `desired` plus the timeline placement a promoted post adds to a PROMOTED_ACCOUNT line item. */
function timelineAdded(desired: unknown, live: unknown, liveRecord: Readonly<Record<string, unknown>>): boolean {
  if (liveRecord['product_type'] !== 'PROMOTED_ACCOUNT' || !Array.isArray(desired) || !Array.isArray(live)) return false;
  if (desired.includes(SERVER_ADDED_PLACEMENT) || !live.includes(SERVER_ADDED_PLACEMENT)) return false;
  return live.length === desired.length + 1 && desired.every((p) => live.includes(p));
}

/** A line item. */
export const LINE_ITEM: KindDescriptor = {
  kind: 'line_item',
  noun: 'line item',
  parent: 'campaign',
  parentField: 'campaign_id',
  address: { collection: 'line_items', key: 'name' },
  manifest: manifestFields<LineItem>('LineItem', {
    plain: [
      'name', 'product_type', 'objective', 'placements', 'bid_strategy', 'goal', 'pay_by', 'standard_delivery', 'frequency_cap', 'duration_in_days',
      'entity_status', 'advertiser_domain', 'primary_web_event_tag', 'android_app_store_identifier', 'ios_app_store_identifier', 'categories',
      'audience_expansion',
    ],
    money: { bid_amount: 'bid_amount_local_micro', daily_budget: 'daily_budget_amount_local_micro', total_budget: 'total_budget_amount_local_micro' },
    times: ['start_time', 'end_time'],
    children: ['targeting', 'promoted_posts', 'promoted_accounts', 'media_creatives', 'curated_categories'],
  }),
  // its lists in registry order, as generate has always written them (the manifest reads curated categories last)
  generate: { children: ['targeting', 'curated_categories', 'promoted_posts', 'promoted_accounts', 'media_creatives'] },
  attributes: [
    required('campaign_id', 'id', 'replace'),
    field('name', 'scalar', 'update'),
    required('product_type', 'scalar', 'replace'),
    required('objective', 'scalar', 'replace'),
    { ...required('placements', 'set', 'replace'), equivalent: timelineAdded },
    serviceDefaulted('standard_delivery', 'scalar', 'replace', true),
    field('primary_web_event_tag', 'scalar', 'replace'),
    defaulted('entity_status', 'scalar', 'ACTIVE'),
    serviceDefaulted('bid_strategy', 'scalar', 'update', 'AUTO'),
    { ...field('bid_amount_local_micro', 'micros', 'update'), positive: true },
    { ...field('goal', 'scalar', 'update'), serviceDefault: defaultGoal },
    { ...field('pay_by', 'scalar', 'update'), serviceDefault: defaultPayBy },
    { ...field('daily_budget_amount_local_micro', 'micros', 'update'), positive: true },
    { ...field('total_budget_amount_local_micro', 'micros', 'update'), positive: true },
    required('start_time', 'time', 'update'),
    field('end_time', 'time', 'update'),
    field('frequency_cap', 'scalar', 'update'),
    field('duration_in_days', 'scalar', 'update'),
    field('advertiser_domain', 'scalar', 'update'),
    defaulted('categories', 'set', []),
    field('android_app_store_identifier', 'scalar', 'update'),
    field('ios_app_store_identifier', 'scalar', 'update'),
    { ...field('audience_expansion', 'scalar', 'update'), writeOnly: true },
  ],
  computed: ['id', 'funding_instrument_id', 'advertiser_user_id', 'target_cpa_local_micro', 'creative_source', 'automatic_tweet_promotion', 'currency', 'created_at', 'updated_at', 'deleted'],
  read: listed('line_item', 'whole', { flags: FLAGS }),
  write: { create: batch('line_item'), update: batch('line_item'), delete: batch('line_item') },
  find: { resource: 'line_item', filter: ['campaign_ids', 'campaign_id'], identity: ['campaign_id', 'name', 'product_type', 'objective'], flags: FLAGS },
  import: { via: 'get', resource: 'line_item' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  history: 'LINE_ITEM',
  currency: 'parent',
  budgets: BUDGETS,
  bid: 'bid_amount_local_micro',
  flight: FLIGHT,
  sharedUnderParent: ['product_type', 'objective'],
  limits: [
    {
      code: 'limit-active-line-items',
      noun: 'active line items',
      max: MAX_ACTIVE_LINE_ITEMS,
      counts: (values) => (values['entity_status'] ?? 'ACTIVE') === 'ACTIVE',
      offline: {
        code: 'limit-active-line-items',
        message: (address, position, count, max) => `${address} is active line item ${position} (${count} in all); the account may have ${max} across its campaigns (entity_status defaults to ACTIVE)`,
      },
    },
    {
      code: 'limit-line-items-per-campaign',
      noun: 'line items',
      max: MAX_LINE_ITEMS_PER_CAMPAIGN,
      counts: () => true,
      perParent: 'campaign_id',
      offline: { code: 'limit-line-items', message: (address, position, count, max) => `${address} is line item ${position} of its campaign (${count} in all); a campaign may have at most ${max}` },
    },
  ],
  lookups: [{ need: 'iab_categories', field: 'categories' }],
  serving: { field: 'entity_status', active: 'ACTIVE', paused: 'PAUSED' },
  rules: lineItemRules,
};
