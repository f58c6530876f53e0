/**
 * The do-not-reach list (Part B, Do-not-reach list): at most one live list an account. GET lists
 * it (`with_deleted` adds deleted ones); POST (`description`, 255) creates it, and a second POST
 * while one is live is 400 `INVALID_PARAMETER`; DELETE removes it (then a new one may be made).
 * The users batch takes a JSON array of Update and Delete operations (audience-user-operations.ts)
 * whose users hold only `email` and `phone_number`; `effective_at` is not accepted (always now);
 * `expires_at` must be later than now and at most 13 months ahead (its default is exactly 13
 * months). Item problems come back under `operation_errors`, aligned with the input, request
 * problems under `errors`; all or nothing. The answer's `data` is an array holding one
 * `{success_count, total_count}` (the user entries received); `request` echoes each operation
 * without its users. Record: `id`, `name` ("Do Not Reach List"), `description`, `targetable`,
 * `reasons_not_targetable`, `list_size` (the audience rule of custom-audience-model.ts: null
 * below 100 members, then rounded), timestamps, `deleted`.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { WireError, invalidParameter, type WireErrorItem } from '../errors.js';
import type { Rec, Row } from '../store/row.js';
import { applyUserOperations, checkOperationArray, checkUsersBodySize, readUserOperations, thirteenMonthsAfter, type UserOperationRules } from './audience-user-operations.js';
import { accountIdOf, findRow, now } from './common.js';
import { TARGETABLE_MEMBERS, roundedSize } from './custom-audience-model.js';

const LABEL = 'Do Not Reach List';

/** The member set of a do-not-reach list. */
const listMembers = (id: string): string => `dnrl:${id}`;

const RULES: UserOperationRules = {
  identifiers: ['email', 'phone_number'],
  effectiveAt: false,
  checkExpiry: (expires, _effective, now) => {
    if (expires.getTime() <= now.getTime()) return 'expires_at must be later than now';
    if (expires.getTime() > thirteenMonthsAfter(now).getTime()) return 'expires_at must be at most 13 months ahead';
    return undefined;
  },
};

function listWire(ctx: ApiContext, row: Row): Rec {
  const members = ctx.store.members.size(listMembers(row.id));
  const targetable = members >= TARGETABLE_MEMBERS;
  return {
    id: row.id,
    name: LABEL,
    description: row.rec['description'] ?? null,
    targetable,
    reasons_not_targetable: targetable ? [] : row.ext['uploaded'] === true ? ['TOO_SMALL'] : ['PROCESSING', 'TOO_SMALL'],
    list_size: targetable ? roundedSize(members) : null,
    created_at: row.rec['created_at'],
    updated_at: row.rec['updated_at'],
    deleted: row.rec['deleted'],
  };
}

function listLists(ctx: ApiContext): HandlerResult {
  const withDeleted = ctx.params.bool('with_deleted') ?? false;
  ctx.params.finish();
  const rows = ctx.store.table('do_not_reach_list').ofAccount(accountIdOf(ctx)).filter((r) => withDeleted || r.rec['deleted'] !== true);
  return { body: { request: { params: ctx.params.echo }, next_cursor: null, data: rows.map((r) => listWire(ctx, r)) } };
}

function createList(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const description = p.string('description', { max: 255, nullable: true });
  p.finish();
  const accountId = accountIdOf(ctx);
  const existing = ctx.store.table('do_not_reach_list').ofAccount(accountId).find((r) => r.rec['deleted'] !== true);
  if (existing !== undefined) throw invalidParameter('account_id', `Account ${accountId} already has the do-not-reach list ${existing.id}`);
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert('do_not_reach_list', id, accountId, { id, description: description ?? null, created_at: time, updated_at: time, deleted: false }, { uploaded: false, unmatched: 0 });
  return { status: 201, body: single(p, listWire(ctx, row)) };
}

function deleteList(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findRow(ctx, 'do_not_reach_list', ctx.pathParams['do_not_reach_list_id'] ?? '', LABEL, 'do_not_reach_list_id');
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  return { body: single(ctx.params, listWire(ctx, row)) };
}

function uploadUsers(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  checkUsersBodySize(ctx);
  const row = findRow(ctx, 'do_not_reach_list', ctx.pathParams['do_not_reach_list_id'] ?? '', LABEL, 'do_not_reach_list_id');
  const echoBase = { ...ctx.params.echo };
  const problem = checkOperationArray(ctx.json);
  if (problem !== undefined) throw new WireError(400, [problem], {}, { errors: [problem], request: { params: echoBase } });
  const body = ctx.json as unknown[];
  const { ops, errors } = readUserOperations(body, RULES, ctx.clock.now());
  const request = body.map((item, i) => {
    const type = typeof item === 'object' && item !== null ? (item as Rec)['operation_type'] : undefined;
    return { params: { ...echoBase, ...(ops.length === body.length ? ops[i]!.echo : {}) }, operation_type: typeof type === 'string' ? type : null };
  });
  if (errors.some((e) => e.length > 0)) {
    const flat: WireErrorItem[] = errors.flat();
    throw new WireError(400, flat, {}, { operation_errors: errors, request });
  }
  const records = applyUserOperations(ctx, row, listMembers(row.id), ops);
  return { body: { request, data: [{ success_count: records, total_count: records }] } };
}

const COLLECTION = '/12/accounts/:account_id/do_not_reach_lists';

/** The do-not-reach list endpoints and its users batch. */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'account_read', access: 'any', handler: listLists },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'audience', handler: createList },
  { method: 'DELETE', path: `${COLLECTION}/:do_not_reach_list_id`, family: 'write', access: 'audience', handler: deleteList },
  {
    method: 'POST',
    path: '/12/batch/accounts/:account_id/do_not_reach_lists/:do_not_reach_list_id/users',
    family: 'audience_users',
    access: 'audience',
    jsonBody: true,
    handler: uploadUsers,
  },
];
