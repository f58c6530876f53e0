/**
 * The resource limits of Part A (Limits) and the counters that make them cheap to check: active
 * campaigns per account, line items per campaign, active line items per campaign and per account.
 * Counters live in the private part (`ext`) of the account and campaign rows, so they change and
 * roll back with the transaction that changes the records they count, and persist with `--data`.
 */
import type { ApiContext } from '../context.js';
import { badRequest, type WireError } from '../errors.js';
import type { Row } from '../store/row.js';

/** Default limit of ACTIVE, non-deleted campaigns per account; an account's `ext.active_campaign_limit` raises it. */
const ACTIVE_CAMPAIGN_LIMIT = 200;
/** Non-deleted line items one campaign may hold. */
const LINE_ITEMS_PER_CAMPAIGN = 100;
/** ACTIVE, non-deleted line items across all campaigns of an account. */
const ACTIVE_LINE_ITEM_LIMIT = 256;

/** Names of the counters kept in `ext`. */
type CounterName = 'active_campaigns' | 'active_line_items' | 'line_items';

/** The current value of a counter of an account or campaign row (0 when never set). */
export function counter(row: Row, name: CounterName): number {
  const v = row.ext[name];
  return typeof v === 'number' ? v : 0;
}

/** Adds `delta` to a counter of `row` inside the current transaction. */
export function bumpCounter(ctx: ApiContext, row: Row, name: CounterName, delta: number): void {
  if (delta !== 0) ctx.store.update(row, {}, { [name]: counter(row, name) + delta });
}

/** The account row of the path (the server has checked it exists). */
export function accountRow(ctx: ApiContext): Row {
  if (ctx.account === undefined) throw new Error('route has no account');
  return ctx.account;
}

/** TOO_MANY_CAMPAIGNS when one more ACTIVE campaign would pass the account's limit. */
export function activeCampaignRoom(ctx: ApiContext): WireError | undefined {
  const account = accountRow(ctx);
  const limitRaw = account.ext['active_campaign_limit'];
  const limit = typeof limitRaw === 'number' ? limitRaw : ACTIVE_CAMPAIGN_LIMIT;
  if (counter(account, 'active_campaigns') < limit) return undefined;
  return badRequest('TOO_MANY_CAMPAIGNS', `Account ${account.id} already has the maximum of ${limit} active campaigns`, 'entity_status');
}

/** TOO_MANY_LINE_ITEMS when the campaign is full or, for an ACTIVE line item, the account is. */
export function lineItemRoom(ctx: ApiContext, campaign: Row | undefined, becomesActive: boolean): WireError | undefined {
  if (campaign !== undefined && counter(campaign, 'line_items') >= LINE_ITEMS_PER_CAMPAIGN) {
    return badRequest('TOO_MANY_LINE_ITEMS', `Campaign ${campaign.id} already has the maximum of ${LINE_ITEMS_PER_CAMPAIGN} line items`, 'campaign_id');
  }
  const account = accountRow(ctx);
  if (becomesActive && counter(account, 'active_line_items') >= ACTIVE_LINE_ITEM_LIMIT) {
    return badRequest('TOO_MANY_LINE_ITEMS', `Account ${account.id} already has the maximum of ${ACTIVE_LINE_ITEM_LIMIT} active line items`, 'entity_status');
  }
  return undefined;
}
