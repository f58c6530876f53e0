/**
 * A campaign (Part A, Campaigns). PUT may change everything but `funding_instrument_id`; the API
 * defaults `entity_status` to ACTIVE, `budget_optimization` to CAMPAIGN and, under CAMPAIGN
 * optimisation, `standard_delivery` to true (under LINE_ITEM the server holds it at null, so it
 * is managed only when written). Active campaigns count towards the account's limit of 200; the
 * whole list is read so the plan can count them.
 */
import type { Campaign } from '../manifest/generated/manifest.js';
import { defaulted, field, required } from './attribute.js';
import { BUDGETS } from './budget-flight.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { budgetRule } from './line-item-rules.js';
import { SERVICE_LIMITS } from '../service/limits.js';
import { batch, listed } from './standard.js';

/** Active campaigns an account may have unless its limit was raised (Part A, Limits). */
export const MAX_ACTIVE_CAMPAIGNS = SERVICE_LIMITS.activeCampaigns;

const FLAGS = { with_draft: true };

/** A campaign. */
export const CAMPAIGN: KindDescriptor = {
  kind: 'campaign',
  noun: 'campaign',
  parent: 'account',
  address: { collection: 'campaigns', key: 'name' },
  manifest: manifestFields<Campaign>('Campaign', {
    plain: ['name', 'budget_optimization', 'standard_delivery', 'entity_status', 'purchase_order_number'],
    ids: ['funding_instrument_id'],
    money: { daily_budget: 'daily_budget_amount_local_micro', total_budget: 'total_budget_amount_local_micro' },
    refs: { funding_instrument: { field: 'funding_instrument_id', collection: 'funding_instruments' } },
    children: ['line_items'],
  }),
  generate: {},
  attributes: [
    required('name', 'scalar', 'update'),
    required('funding_instrument_id', 'id', 'replace'),
    defaulted('budget_optimization', 'scalar', 'CAMPAIGN'),
    { field: 'standard_delivery', shape: 'scalar', change: 'update', fallback: (after) => (after['budget_optimization'] === 'CAMPAIGN' ? true : undefined) },
    { ...field('daily_budget_amount_local_micro', 'micros', 'update'), positive: true },
    { ...field('total_budget_amount_local_micro', 'micros', 'update'), positive: true },
    defaulted('entity_status', 'scalar', 'ACTIVE'),
    field('purchase_order_number', 'scalar', 'update'),
  ],
  computed: ['id', 'currency', 'servable', 'reasons_not_servable', 'effective_status', 'duration_in_days', 'frequency_cap', 'created_at', 'updated_at', 'deleted'],
  read: listed('campaign', 'whole', { flags: FLAGS }),
  write: { create: batch('campaign'), update: batch('campaign'), delete: batch('campaign') },
  find: { resource: 'campaign', filter: ['funding_instrument_ids', 'funding_instrument_id'], identity: ['name', 'funding_instrument_id'], flags: FLAGS },
  import: { via: 'get', resource: 'campaign' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  history: 'CAMPAIGN',
  currency: 'instrument',
  budgets: { ...BUDGETS, spentByChildren: (values) => values['budget_optimization'] === 'LINE_ITEM' },
  limits: [
    {
      code: 'limit-active-campaigns',
      noun: 'active campaigns',
      max: MAX_ACTIVE_CAMPAIGNS,
      counts: (values) => (values['entity_status'] ?? 'ACTIVE') === 'ACTIVE',
      offline: {
        code: 'limit-active-campaigns',
        raisedBy: ['limits', 'active_campaigns'],
        message: (address, position, count, max) =>
          `${address} is active campaign ${position} (${count} in all); the account may have ${max} (entity_status defaults to ACTIVE; if your limit was raised, set account.limits.active_campaigns)`,
      },
    },
  ],
  lookups: [],
  serving: { field: 'entity_status', active: 'ACTIVE', paused: 'PAUSED', fundedBy: 'funding_instrument_id' },
  rules: budgetRule,
};
