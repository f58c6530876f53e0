/**
 * The currency of a campaign's or line item's money fields: that of the funding instrument the
 * campaign draws on — as read live, or, for an instrument adsctl creates in the sandbox, as its
 * manifest entry says — else the currency the live record states, else USD.
 */
import type { LiveAccount } from '../live/types.js';
import type { DesiredResource } from '../manifest/types.js';
import { isUnknownRef } from './types.js';

/** The fallback when nothing names a currency. */
export const DEFAULT_CURRENCY = 'USD';

/**
 * The currency of a funding instrument given as an id (live currencies) or an `UnknownRef` to
 * a desired instrument (its `currency` attribute); undefined when unknown.
 */
export function instrumentCurrency(instrument: unknown, live: LiveAccount, desiredByAddress: () => ReadonlyMap<string, DesiredResource>): string | undefined {
  if (typeof instrument === 'string') return live.currencies[instrument];
  if (isUnknownRef(instrument)) {
    const currency = desiredByAddress().get(instrument.$ref)?.attributes['currency'];
    return typeof currency === 'string' ? currency : undefined;
  }
  return undefined;
}

/** The currency a live campaign or line item record names, through its instrument or its own field. */
export function recordCurrency(record: Readonly<Record<string, unknown>> | undefined, live: LiveAccount): string | undefined {
  if (record === undefined) return undefined;
  const instrument = record['funding_instrument_id'];
  const viaInstrument = typeof instrument === 'string' ? live.currencies[instrument] : undefined;
  if (viaInstrument !== undefined) return viaInstrument;
  const own = record['currency'];
  return typeof own === 'string' ? own : undefined;
}
