/**
 * Attribute rules of a campaign, from the emulator's campaign-write.ts (research §6.1): PUT may
 * change everything but `funding_instrument_id`; the API defaults `entity_status` to ACTIVE,
 * `budget_optimization` to CAMPAIGN and, under CAMPAIGN optimisation, `standard_delivery` to
 * true (under LINE_ITEM the server holds it at null, so it is managed only when written).
 */
import { defaulted, field, type KindRules } from './field-rule.js';

/** The campaign's rules. */
export const CAMPAIGN_RULES: KindRules = {
  kind: 'campaign',
  fields: [
    field('name', 'scalar', 'update'),
    field('funding_instrument_id', 'id', 'replace'),
    defaulted('budget_optimization', 'scalar', 'CAMPAIGN'),
    {
      field: 'standard_delivery',
      shape: 'scalar',
      change: 'update',
      fallback: (after) => (after['budget_optimization'] === 'CAMPAIGN' ? true : undefined),
    },
    field('daily_budget_amount_local_micro', 'micros', 'update'),
    field('total_budget_amount_local_micro', 'micros', 'update'),
    defaulted('entity_status', 'scalar', 'ACTIVE'),
    field('purchase_order_number', 'scalar', 'update'),
  ],
  aliases: {
    daily_budget: 'daily_budget_amount_local_micro',
    total_budget: 'total_budget_amount_local_micro',
    funding_instrument: 'funding_instrument_id',
  },
};
