/**
 * The global rule lookups: bidding rules per currency and the valid placement combinations per
 * product type. `currency` is optional: an active ISO 4217 code the emulator has no rule for gives
 * an empty list; anything else that is not such a code (lower case included) is 400
 * INVALID_PARAMETER. `product_type` is optional and one of the documented product types.
 */
import type { ApiContext, HandlerResult } from '../context.js';
import { invalidParameter } from '../errors.js';
import { BIDDING_RULES } from '../lookups/bidding-rules.js';
import { isCurrencyCode } from '../lookups/currencies.js';
import { PLACEMENT_COMBINATIONS, PRODUCT_TYPES } from '../lookups/placements.js';

/** `GET bidding_rules`: list envelope plus `data_type` `bidding_rule` and `total_count`. */
export function listBiddingRules(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const currency = p.string('currency');
  if (typeof currency === 'string' && !isCurrencyCode(currency)) {
    p.fail(invalidParameter('currency', `Expected an ISO 4217 currency code, got ${JSON.stringify(currency)} for currency`));
  }
  p.finish();
  const data = BIDDING_RULES.filter((r) => typeof currency !== 'string' || r.currency === currency).map((r) => ({ ...r }));
  return { body: { request: { params: p.echo }, next_cursor: null, data_type: 'bidding_rule', data, total_count: data.length } };
}

/** `GET line_items/placements`: `data` holds one placement combination record per product type. */
export function listPlacements(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const productType = p.oneOf('product_type', PRODUCT_TYPES);
  p.finish();
  const types = typeof productType === 'string' ? [productType] : PRODUCT_TYPES;
  const data = types.map((t) => ({ product_type: t, placements: PLACEMENT_COMBINATIONS[t].map((combo) => [...combo]) }));
  return { body: { request: { params: p.echo }, data } };
}
