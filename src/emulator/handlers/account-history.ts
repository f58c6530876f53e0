/**
 * Account history (Part A, Account history record): the changes history.ts recorded for one
 * entity of the account, oldest first, kept to the entity type asked for, the time window
 * [start_time, end_time) and, when given, the user who made them; paged with count and cursor
 * (the endpoint takes no sort_by, with_deleted or with_total_count).
 *
 * Both times must be whole hours, minutes and seconds zero in UTC (else INVALID_PARAMETER), and
 * end_time must be after start_time (else INVALID_TIME_WINDOW). `user_id` is a long; the echo
 * gives it as a string, since user ids exceed the range JSON numbers hold exactly.
 */
import { parseTime } from '../clock.js';
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { WireError, invalidParameter } from '../errors.js';
import type { HistoryEntity } from '../history.js';
import { listPage, readListParams } from '../list.js';
import type { ParamReader } from '../params.js';
import type { Row } from '../store/row.js';
import { accountIdOf } from './common.js';

const ENTITY_TYPES: readonly HistoryEntity[] = ['CAMPAIGN', 'LINE_ITEM', 'PROMOTED_TWEET', 'TARGETING_CRITERIA', 'PROMOTED_ACCOUNT'];

/** Reads a required whole-hour time; undefined when missing or refused (the problem is recorded). */
function readWholeHour(p: ParamReader, name: string): string | undefined {
  const time = p.time(name, { required: true });
  if (typeof time !== 'string') return undefined;
  const raw = p.accept(name);
  const date = typeof raw === 'string' ? parseTime(raw) : undefined;
  const fraction = typeof raw === 'string' ? /:\d{2}\.(\d+)/.exec(raw)?.[1] : undefined;
  if (date === undefined || date.getUTCMinutes() !== 0 || date.getUTCSeconds() !== 0 || /[1-9]/.test(fraction ?? '')) {
    p.fail(invalidParameter(name, `${name} must be expressed in whole hours (0 minutes and 0 seconds), got ${JSON.stringify(raw)}`));
    return undefined;
  }
  return time;
}

/** Reads the optional long `user_id`, kept as its decimal string. */
function readUserId(p: ParamReader): string | undefined {
  if (!p.has('user_id')) return undefined;
  const raw = p.accept('user_id');
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,19}$/.test(text)) {
    p.fail(invalidParameter('user_id', `Expected Long, got ${JSON.stringify(raw)} for user_id`));
    return undefined;
  }
  p.echo['user_id'] = text;
  return text;
}

function listAccountHistory(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { withDeleted: false, withTotalCount: false });
  const entityType = p.oneOf('entity_type', ENTITY_TYPES, { required: true });
  const entityId = p.string('entity_id', { required: true });
  const start = readWholeHour(p, 'start_time');
  const end = readWholeHour(p, 'end_time');
  const userId = readUserId(p);
  if (start !== undefined && end !== undefined && end <= start) {
    p.fail(new WireError(400, [{ code: 'INVALID_TIME_WINDOW', message: 'end_time must be after start_time', parameter: 'end_time' }]));
  }
  p.finish();
  const accountId = accountIdOf(ctx);
  const keep = (row: Row): boolean => {
    const time = String(row.rec['change_time']);
    const by = row.rec['change_by'] as { user_id?: unknown } | undefined;
    return (
      row.accountId === accountId &&
      row.rec['entity'] === entityType &&
      time >= start! &&
      time < end! &&
      (userId === undefined || by?.user_id === userId)
    );
  };
  return { body: listPage(p, q, ctx.store.table('history').under('entity', entityId!), keep) };
}

/** The account history route (readable by campaign data readers). */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/account_history', family: 'account_read', access: 'read', handler: listAccountHistory },
];
