/**
 * Account history: every change made through the emulator to the entities the account history
 * endpoint covers is recorded with who made it, when, the changed fields and a snapshot.
 */
import type { ApiContext } from './context.js';
import { formatTime } from './clock.js';
import type { Rec, Row } from './store/row.js';

/** Entity types of `GET accounts/:id/account_history`. */
export type HistoryEntity = 'CAMPAIGN' | 'LINE_ITEM' | 'PROMOTED_TWEET' | 'TARGETING_CRITERIA' | 'PROMOTED_ACCOUNT';

type ChangeType = 'CREATE' | 'UPDATE' | 'DELETE';

/**
 * Records one change of `row`; `before` is the record before an update (undefined on create,
 * when `changes` stays empty and `entity_data` holds the new record).
 */
export function recordHistory(ctx: ApiContext, entity: HistoryEntity, changeType: ChangeType, row: Row, before?: Rec): void {
  const changes: Rec = {};
  if (before !== undefined) {
    for (const [k, v] of Object.entries(row.rec)) {
      if (k === 'updated_at') continue;
      const old = before[k];
      if (JSON.stringify(old) !== JSON.stringify(v)) changes[k] = { old: old ?? null, new: v };
    }
  }
  const id = ctx.store.newId();
  ctx.store.insert(
    'history',
    id,
    row.accountId,
    {
      change_by: { user_id: ctx.principal.kind === 'user' ? ctx.principal.userId : null, platform: 'API' },
      changes,
      change_time: formatTime(ctx.clock.now()),
      entity_id: row.id,
      entity,
      // records are replaced, never mutated, on update: the snapshot can share the object
      entity_data: row.rec,
      change_type: changeType,
    },
    { user_id: ctx.principal.kind === 'user' ? ctx.principal.userId : undefined },
  );
}
