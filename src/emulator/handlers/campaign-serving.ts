/**
 * The derived, read-only serving fields of a campaign: `servable`, `reasons_not_servable` and
 * `effective_status`. The rules (the spec shows only observed values, so these are the emulator's
 * documented choice):
 * - reasons, in this order: PAUSED_BY_ADVERTISER (entity_status PAUSED); INCOMPLETE (a DRAFT
 *   campaign, or no ACTIVE non-deleted line item); FUNDING_PROBLEM (its funding instrument is
 *   deleted or not able to fund); EXPIRED (it has line items and the flight of every non-deleted one
 *   has ended: `end_time` at or before now on the injected clock; campaigns have no times of their
 *   own since version 11); a deleted campaign has the single reason DELETED.
 * - `servable` is true exactly when there is no reason.
 * - `effective_status`: EXPIRED when EXPIRED is a reason; RUNNING when servable; PAUSED when the only reason is
 *   PAUSED_BY_ADVERTISER (complete, but paused); UNKNOWN otherwise (incomplete, unfunded, deleted).
 *   A new PAUSED campaign therefore shows servable=false, [PAUSED_BY_ADVERTISER, INCOMPLETE], UNKNOWN,
 *   as in the service's example.
 * The fields are stored with every write and recomputed on every read, so a funding instrument
 * deleted later shows at once.
 */
import type { ApiContext } from '../context.js';
import type { Rec, Row } from '../store/row.js';
import { counter } from './campaign-counters.js';

/** The serving fields of a campaign record. */
interface Serving {
  servable: boolean;
  reasons_not_servable: string[];
  effective_status: 'RUNNING' | 'PAUSED' | 'EXPIRED' | 'UNKNOWN';
}

/** True when campaign `id` has non-deleted line items and every one of them has an `end_time` now past. */
function flightEnded(ctx: ApiContext, id: string): boolean {
  const nowMs = ctx.clock.now().getTime();
  let any = false;
  for (const li of ctx.store.table('line_item').under('campaign', id)) {
    if (li.rec['deleted'] === true) continue;
    const end = li.rec['end_time'];
    if (typeof end !== 'string' || Date.parse(end) > nowMs) return false;
    any = true;
  }
  return any;
}

/** Serving fields of campaign `rec` with `activeLineItems` ACTIVE line items. */
export function servingOf(ctx: ApiContext, rec: Rec, activeLineItems: number): Serving {
  if (rec['deleted'] === true) return { servable: false, reasons_not_servable: ['DELETED'], effective_status: 'UNKNOWN' };
  const reasons: string[] = [];
  if (rec['entity_status'] === 'PAUSED') reasons.push('PAUSED_BY_ADVERTISER');
  if (rec['entity_status'] === 'DRAFT' || activeLineItems === 0) reasons.push('INCOMPLETE');
  const fi = ctx.store.get('funding_instrument', String(rec['funding_instrument_id']));
  if (fi === undefined || fi.rec['deleted'] === true || fi.rec['able_to_fund'] === false) reasons.push('FUNDING_PROBLEM');
  if (flightEnded(ctx, String(rec['id']))) reasons.push('EXPIRED');
  const effective = reasons.includes('EXPIRED')
    ? 'EXPIRED'
    : reasons.length === 0 ? 'RUNNING' : reasons.length === 1 && reasons[0] === 'PAUSED_BY_ADVERTISER' ? 'PAUSED' : 'UNKNOWN';
  return { servable: reasons.length === 0, reasons_not_servable: reasons, effective_status: effective };
}

/** A campaign as the wire shows it now: the stored record with freshly derived serving fields. */
export function campaignView(ctx: ApiContext, row: Row): Rec {
  return { ...row.rec, ...servingOf(ctx, row.rec, counter(row, 'active_line_items')) };
}

/** Stores the current serving fields of a campaign when they changed (updated_at is left alone). */
export function refreshServing(ctx: ApiContext, row: Row): void {
  const s = servingOf(ctx, row.rec, counter(row, 'active_line_items'));
  const same =
    row.rec['servable'] === s.servable &&
    row.rec['effective_status'] === s.effective_status &&
    JSON.stringify(row.rec['reasons_not_servable']) === JSON.stringify(s.reasons_not_servable);
  if (!same) ctx.store.update(row, { ...s });
}
