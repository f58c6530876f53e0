/** Small pieces every resource handler uses: the current time, record lookup with the deleted rule. */
import { formatTime } from '../clock.js';
import type { ApiContext, HandlerResult } from '../context.js';
import { single } from '../envelope.js';
import { notFound } from '../errors.js';
import type { Kind, Row } from '../store/row.js';

/** The current time in wire form. */
export function now(ctx: ApiContext): string {
  return formatTime(ctx.clock.now());
}

/** The id of the account in the path (routes with `:account_id` always have one). */
export function accountIdOf(ctx: ApiContext): string {
  const id = ctx.pathParams['account_id'];
  if (id === undefined) throw new Error('route has no :account_id');
  return id;
}

/** The user id of the account's FULL promotable user (the advertiser), or null. */
export function fullPromotableUser(ctx: ApiContext): string | null {
  for (const row of ctx.store.table('promotable_user').ofAccount(accountIdOf(ctx))) {
    if (row.rec['promotable_user_type'] === 'FULL' && row.rec['deleted'] !== true) return String(row.rec['user_id']);
  }
  return null;
}

/**
 * The record `id` of `kind` in the path's account. A deleted record counts as missing unless
 * `withDeleted`; a missing one answers 404 `NOT_FOUND` naming `label` and `param`.
 */
export function findRow(ctx: ApiContext, kind: Kind, id: string, label: string, param: string, withDeleted = false): Row {
  const accountId = accountIdOf(ctx);
  const row = ctx.store.get(kind, id);
  if (row === undefined || row.accountId !== accountId || (!withDeleted && row.rec['deleted'] === true)) {
    throw notFound(label, id, accountId, param);
  }
  return row;
}

/**
 * The record `id` of `kind` in the path's account, not deleted, or undefined: for a PUT that
 * compares read-only attributes before its parameters are finished (`ParamReader.readOnly`),
 * leaving the 404 to `findRow` after the parameter errors.
 */
export function peekRow(ctx: ApiContext, kind: Kind, id: string): Row | undefined {
  const row = ctx.store.get(kind, id);
  return row === undefined || row.accountId !== accountIdOf(ctx) || row.rec['deleted'] === true ? undefined : row;
}

/** `GET .../:id` with the `with_deleted` parameter, for any kind. */
export function getOne(ctx: ApiContext, kind: Kind, idParam: string, label: string): HandlerResult {
  const p = ctx.params;
  const withDeleted = p.bool('with_deleted') ?? false;
  p.finish();
  const row = findRow(ctx, kind, ctx.pathParams[idParam] ?? '', label, idParam, withDeleted);
  return { body: single(p, { ...row.rec }) };
}

/** Marks a record deleted (a second delete is a 404) and returns the deleted record's envelope. */
export function softDelete(ctx: ApiContext, kind: Kind, idParam: string, label: string, onDelete?: (row: Row) => void): HandlerResult {
  const p = ctx.params;
  p.finish();
  const row = findRow(ctx, kind, ctx.pathParams[idParam] ?? '', label, idParam);
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  onDelete?.(row);
  return { body: single(p, { ...row.rec }) };
}
