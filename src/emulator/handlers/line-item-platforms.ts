/**
 * "Setting android_app_store_identifier or ios_app_store_identifier automatically adds matching
 * platform targeting" (Part A, Line items): when a line item gains an app store identifier, on
 * create or by a PUT, it gets an EQ PLATFORM targeting criterion for that platform (iOS `0`,
 * Android `1`, the values of `GET targeting_criteria/platforms`) unless it already has a live one.
 * Removing the identifier later leaves the criterion alone, like any other criterion.
 */
import type { ApiContext } from '../context.js';
import { recordHistory } from '../history.js';
import { PLATFORMS } from '../lookups/targeting-values.js';
import type { Rec, Row } from '../store/row.js';
import { now } from './common.js';

const PLATFORM_OF: ReadonlyArray<[field: string, value: string]> = [
  ['ios_app_store_identifier', '0'],
  ['android_app_store_identifier', '1'],
];

/** Adds the PLATFORM criteria that app store identifiers newly set on `lineItem` call for. */
export function addPlatformTargeting(ctx: ApiContext, lineItem: Row, before: Rec | undefined): void {
  for (const [field, value] of PLATFORM_OF) {
    if (lineItem.rec[field] === null || (before !== undefined && before[field] !== null)) continue;
    const live = ctx.store
      .table('targeting_criterion')
      .under('line_item', lineItem.id)
      .some((r) => r.rec['deleted'] !== true && r.rec['targeting_type'] === 'PLATFORM' && r.rec['targeting_value'] === value && r.rec['operator_type'] === 'EQ');
    if (live) continue;
    const id = ctx.store.newId();
    const at = now(ctx);
    const row = ctx.store.insert('targeting_criterion', id, lineItem.accountId, {
      line_item_id: lineItem.id,
      name: PLATFORMS.find((p) => p.targeting_value === value)?.name ?? value,
      id,
      operator_type: 'EQ',
      created_at: at,
      targeting_value: value,
      updated_at: at,
      deleted: false,
      targeting_type: 'PLATFORM',
    });
    recordHistory(ctx, 'TARGETING_CRITERIA', 'CREATE', row);
  }
}
