/**
 * Offline checks of an account's resources against the API's rules (Part A): budgets (daily at
 * most total, a line item's total at most its campaign's), flights (end after start), one
 * product_type and objective per campaign, and the account limits: 100 line items per campaign,
 * 200 active campaigns (or the raised limit the manifest declares), 256 active line items.
 */
import { errorAt } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { formatAddress } from './address.js';
import type { FileContext } from './context.js';
import { MAX_ACTIVE_CAMPAIGNS } from '../kinds/campaign.js';
import { MAX_ACTIVE_LINE_ITEMS, MAX_LINE_ITEMS_PER_CAMPAIGN } from '../kinds/line-item.js';
import { formatMicros } from './money.js';
import { asMap, asScalar } from './nodes.js';
import type { DesiredResource } from './types.js';
import type { YMap } from './yaml-tree.js';

/** Active campaigns an account may have unless its limit was raised. */
const DEFAULT_MAX_ACTIVE_CAMPAIGNS = MAX_ACTIVE_CAMPAIGNS;

const DAILY = 'daily_budget_amount_local_micro';
const TOTAL = 'total_budget_amount_local_micro';

function micros(resource: DesiredResource, field: string): number | undefined {
  const value = resource.attributes[field];
  return typeof value === 'number' ? value : undefined;
}

function push(ctx: FileContext, code: string, message: string, range: SourceRange | undefined, related?: { message: string; range: SourceRange }): void {
  ctx.diagnostics.push(errorAt(code, message, range, related === undefined ? undefined : [related]));
}

function checkBudgets(ctx: FileContext, resource: DesiredResource, byAddress: ReadonlyMap<string, DesiredResource>): void {
  const daily = micros(resource, DAILY);
  const total = micros(resource, TOTAL);
  if (daily !== undefined && total !== undefined && daily > total) {
    push(ctx, 'budget-exceeds-total', `daily budget ${formatMicros(daily)} is more than the total budget ${formatMicros(total)}`, resource.attributeSources[DAILY], {
      message: 'total budget set here',
      range: resource.attributeSources[TOTAL] ?? resource.source,
    });
  }
  if (resource.kind !== 'line_item' || total === undefined || resource.parent === undefined) return;
  const campaign = byAddress.get(formatAddress(resource.parent));
  const campaignTotal = campaign === undefined ? undefined : micros(campaign, TOTAL);
  if (campaign !== undefined && campaignTotal !== undefined && total > campaignTotal) {
    push(ctx, 'budget-exceeds-campaign', `total budget ${formatMicros(total)} is more than the campaign's total budget ${formatMicros(campaignTotal)}`, resource.attributeSources[TOTAL], {
      message: 'campaign total budget set here',
      range: campaign.attributeSources[TOTAL] ?? campaign.source,
    });
  }
}

function checkFlight(ctx: FileContext, resource: DesiredResource): void {
  const start = resource.attributes['start_time'];
  const end = resource.attributes['end_time'];
  if (typeof start !== 'string' || typeof end !== 'string' || Date.parse(end) > Date.parse(start)) return;
  push(ctx, 'time-order', `end_time ${end} is not after start_time ${start}`, resource.attributeSources['end_time'], {
    message: 'start_time set here',
    range: resource.attributeSources['start_time'] ?? resource.source,
  });
}

function isActive(resource: DesiredResource): boolean {
  const status = resource.attributes['entity_status'];
  return status === undefined || status === 'ACTIVE';
}

function checkCampaignLineItems(ctx: FileContext, lineItems: readonly DesiredResource[]): void {
  for (const field of ['product_type', 'objective']) {
    const first = lineItems.find((li) => typeof li.attributes[field] === 'string');
    if (first === undefined) continue;
    for (const other of lineItems) {
      if (typeof other.attributes[field] !== 'string' || other.attributes[field] === first.attributes[field]) continue;
      push(
        ctx,
        'line-item-mismatch',
        `${field} ${String(other.attributes[field])} differs from ${String(first.attributes[field])} of ${formatAddress(first.address)}; all line items of a campaign share ${field}`,
        other.attributeSources[field],
        { message: `${field} of ${formatAddress(first.address)}`, range: first.attributeSources[field] ?? first.source },
      );
    }
  }
  const excess = lineItems[MAX_LINE_ITEMS_PER_CAMPAIGN];
  if (excess !== undefined) {
    push(ctx, 'limit-line-items', `${formatAddress(excess.address)} is line item ${MAX_LINE_ITEMS_PER_CAMPAIGN + 1} of its campaign (${lineItems.length} in all); a campaign may have at most ${MAX_LINE_ITEMS_PER_CAMPAIGN}`, excess.source);
  }
}

function activeCampaignLimit(root: YMap): number {
  const limits = asMap(asMap(root.byKey.get('account')?.value)?.byKey.get('limits')?.value);
  const value = asScalar(limits?.byKey.get('active_campaigns')?.value)?.value;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : DEFAULT_MAX_ACTIVE_CAMPAIGNS;
}

/** Runs every offline check over the resources of one file. */
export function checkAccountRules(ctx: FileContext, root: YMap): void {
  const byAddress = ctx.byAddress;
  const lineItemsOf = new Map<string, DesiredResource[]>();
  const activeCampaigns: DesiredResource[] = [];
  const activeLineItems: DesiredResource[] = [];
  for (const resource of ctx.resources) {
    if (resource.kind === 'campaign' || resource.kind === 'line_item') checkBudgets(ctx, resource, byAddress);
    if (resource.kind === 'line_item' || resource.kind === 'funding_instrument') checkFlight(ctx, resource);
    if (resource.kind === 'campaign' && isActive(resource)) activeCampaigns.push(resource);
    if (resource.kind === 'line_item' && resource.parent !== undefined) {
      const key = formatAddress(resource.parent);
      const siblings = lineItemsOf.get(key);
      if (siblings === undefined) lineItemsOf.set(key, [resource]);
      else siblings.push(resource);
      if (isActive(resource)) activeLineItems.push(resource);
    }
  }
  for (const lineItems of lineItemsOf.values()) checkCampaignLineItems(ctx, lineItems);
  const campaignLimit = activeCampaignLimit(root);
  const campaign = activeCampaigns[campaignLimit];
  if (campaign !== undefined) {
    push(ctx, 'limit-active-campaigns', `${formatAddress(campaign.address)} is active campaign ${campaignLimit + 1} (${activeCampaigns.length} in all); the account may have ${campaignLimit} (entity_status defaults to ACTIVE; if your limit was raised, set account.limits.active_campaigns)`, campaign.source);
  }
  const lineItem = activeLineItems[MAX_ACTIVE_LINE_ITEMS];
  if (lineItem !== undefined) {
    push(ctx, 'limit-active-line-items', `${formatAddress(lineItem.address)} is active line item ${MAX_ACTIVE_LINE_ITEMS + 1} (${activeLineItems.length} in all); the account may have ${MAX_ACTIVE_LINE_ITEMS} across its campaigns (entity_status defaults to ACTIVE)`, lineItem.source);
  }
}
