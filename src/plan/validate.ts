/**
 * Checks a plan against the live lookups before anything is written: bids within the bidding
 * rules of their currency, placements among the combinations of the product type, line item
 * categories among the IAB categories, curated categories among the account's, permissions
 * that allow the writes, and the account limits of Part A counted with what the account already
 * holds. Each problem is a diagnostic at the manifest position of the value at fault.
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { isUnknownRef, type ResourceChange } from '../diff/types.js';
import type { LiveAccount } from '../live/types.js';
import type { Lookups } from '../live/lookups.js';
import { formatAddress } from '../manifest/address.js';
import { formatMicros } from '../manifest/money.js';
import type { DesiredAccount } from '../manifest/types.js';

export const MAX_ACTIVE_CAMPAIGNS = 200;
export const MAX_LINE_ITEMS_PER_CAMPAIGN = 100;
export const MAX_ACTIVE_LINE_ITEMS = 256;

const CAMPAIGN_WRITERS = ['ACCOUNT_ADMIN', 'AD_MANAGER'];

function sourceOf(desired: DesiredAccount | undefined, change: ResourceChange, field: string): SourceRange | undefined {
  if (desired === undefined) return change.source;
  const text = formatAddress(change.address);
  const r = desired.resources.find((d) => formatAddress(d.address) === text);
  return r?.attributeSources[field] ?? r?.source ?? change.source;
}

const sortedKey = (values: readonly string[]): string => [...values].sort().join(',');

export interface ValidationInput {
  changes: readonly ResourceChange[];
  desired: DesiredAccount | undefined;
  live: LiveAccount;
  lookups: Lookups;
}

/** Every problem the lookups reveal in one account's changes. */
export function validateAgainstLookups(input: ValidationInput): Diagnostic[] {
  const { changes, desired, live, lookups } = input;
  const out: Diagnostic[] = [];
  const writes = changes.filter((c) => c.action !== 'noop');
  if (writes.length === 0) return out;

  const accountId = live.accountId;
  const permissions = accountId === undefined ? undefined : lookups.permissions[accountId];
  if (permissions !== undefined && !permissions.some((p) => CAMPAIGN_WRITERS.includes(p))) {
    out.push(errorAt('permission-denied', `the credentials in use have ${permissions.join(', ') || 'no permissions'} on account ${accountId}; changing campaigns needs ACCOUNT_ADMIN or AD_MANAGER`, desired?.resources[0]?.source));
  }

  const combos = new Map<string, Set<string>>();
  for (const p of lookups.placements) combos.set(p.product_type, new Set(p.placements.map(sortedKey)));
  let activeCampaigns = live.counts.activeCampaigns;
  let activeLineItems = live.counts.activeLineItems;
  const perCampaign = new Map<string, number>(Object.entries(live.counts.lineItemsByCampaign));

  // deletes first, as apply runs them: a line item deleted frees its campaign's slot for a create
  const ordered = [...writes.filter((c) => c.action === 'delete'), ...writes.filter((c) => c.action !== 'delete')];
  for (const c of ordered) {
    const before = c.before ?? {};
    const after = c.action === 'delete' ? {} : (c.after ?? {});
    const wasActive = c.action !== 'create' && before['entity_status'] === 'ACTIVE';
    const isActive = c.action !== 'delete' && (after['entity_status'] ?? 'ACTIVE') === 'ACTIVE';
    if (c.kind === 'campaign') activeCampaigns += Number(isActive) - Number(wasActive);
    const curated = after['curated_category_id'];
    if (c.kind === 'line_item_curated_category' && lookups.curatedCategories !== undefined && typeof curated === 'string' && !lookups.curatedCategories.includes(curated)) {
      out.push(errorAt('unknown-curated-category', `curated category ${curated} is not available to account ${accountId ?? '(new)'} (see GET curated_categories)`, sourceOf(desired, c, 'curated_category_id')));
    }
    if (c.kind !== 'line_item') continue;
    activeLineItems += Number(isActive) - Number(wasActive);
    const campaign = c.action === 'delete' ? before['campaign_id'] : after['campaign_id'];
    const key = isUnknownRef(campaign) ? campaign.$ref : String(campaign);
    const delta = c.action === 'create' ? 1 : c.action === 'delete' ? -1 : 0;
    perCampaign.set(key, (perCampaign.get(key) ?? 0) + delta);
    if (perCampaign.get(key)! > MAX_LINE_ITEMS_PER_CAMPAIGN && delta > 0) {
      out.push(errorAt('limit-line-items-per-campaign', `campaign ${key} would have more than ${MAX_LINE_ITEMS_PER_CAMPAIGN} line items`, sourceOf(desired, c, 'campaign_id')));
    }
    if (c.action === 'delete') continue;

    const bid = after['bid_amount_local_micro'];
    const rule = lookups.biddingRules.find((r) => r.currency === (c.currency ?? 'USD'));
    if (typeof bid === 'number' && rule !== undefined) {
      if (bid < rule.minimum_cpe_bid_local_micro || bid > rule.maximum_cpe_bid_local_micro) {
        out.push(errorAt('bid-out-of-range', `bid ${formatMicros(bid)} ${rule.currency} is outside the bidding rules of ${rule.currency} (${formatMicros(rule.minimum_cpe_bid_local_micro)} to ${formatMicros(rule.maximum_cpe_bid_local_micro)})`, sourceOf(desired, c, 'bid_amount_local_micro')));
      } else if (bid % rule.minimum_denomination !== 0) {
        out.push(errorAt('bid-denomination', `bid ${formatMicros(bid)} ${rule.currency} is not a multiple of the smallest denomination ${formatMicros(rule.minimum_denomination)} ${rule.currency}`, sourceOf(desired, c, 'bid_amount_local_micro')));
      }
    }
    const categories = after['categories'];
    if (lookups.iabCategories !== undefined && Array.isArray(categories)) {
      const known = new Set(lookups.iabCategories);
      const unknown = categories.map(String).filter((id) => !known.has(id));
      if (unknown.length > 0) {
        out.push(errorAt('unknown-iab-category', `${unknown.join(', ')} ${unknown.length === 1 ? 'is not an IAB category' : 'are not IAB categories'} (see GET iab_categories)`, sourceOf(desired, c, 'categories')));
      }
    }
    const placements = after['placements'];
    const product = after['product_type'];
    if (Array.isArray(placements) && typeof product === 'string' && (c.action === 'create' || c.action === 'replace')) {
      const valid = combos.get(product);
      if (valid !== undefined && !valid.has(sortedKey(placements.map(String)))) {
        out.push(errorAt('invalid-placements', `placements [${placements.join(', ')}] are not a valid combination for ${product}; valid: ${[...valid].map((v) => `[${v.split(',').join(', ')}]`).join(', ')}`, sourceOf(desired, c, 'placements')));
      }
    }
  }
  if (activeCampaigns > MAX_ACTIVE_CAMPAIGNS) {
    out.push(errorAt('limit-active-campaigns', `the account would have ${activeCampaigns} active campaigns; the limit is ${MAX_ACTIVE_CAMPAIGNS}`, desired?.resources[0]?.source));
  }
  if (activeLineItems > MAX_ACTIVE_LINE_ITEMS) {
    out.push(errorAt('limit-active-line-items', `the account would have ${activeLineItems} active line items; the limit is ${MAX_ACTIVE_LINE_ITEMS}`, desired?.resources[0]?.source));
  }
  return out;
}
