/**
 * Accounts (Part A, Accounts): list, lookup and update, and the sandbox-only create and delete.
 *
 * `industry_type` is kept in the stored record, but the spec returns it "on single lookup and
 * update" only: GET accounts/:account_id and PUT accounts/:account_id carry it; every list
 * response (GET accounts, and the one-account list the sandbox POST answers) and the sandbox
 * DELETE answer leave it out, as the service's own examples do. A deleted account stays
 * associated with its users, so its lookup answers 404 NOT_FOUND (not 403) unless
 * with_deleted=true, and deleting or updating it again is 404.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { accountNotFound, notFound } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import type { Rec, Row } from '../store/row.js';
import { now } from './common.js';

const SORTABLE = ['created_at', 'updated_at', 'deleted', 'name'] as const;

/** Values of an account's `industry_type` (Part A, Account). */
const INDUSTRY_TYPES = [
  'AGENCY',
  'BUSINESS_TO_BUSINESS',
  'ONLINE_SERVICES',
  'EDUCATION',
  'FINANCIAL',
  'HEALTH',
  'GOVERNMENT',
  'MEDIA',
  'MOBILE',
  'RESTAURANT',
  'RETAIL',
  'TECHNOLOGY',
  'TRAVEL',
  'OTHER',
] as const;

/** The longest account name accepted by PUT (the spec states none; 255 matches `q` and campaign names). */
const NAME_MAX = 255;

/** An account as list responses show it: without `industry_type`. */
function listWire(row: Row): Rec {
  const { industry_type: _omitted, ...rest } = row.rec;
  return rest;
}

/** Accounts the calling user is associated with, in creation order. */
function userAccounts(ctx: ApiContext): Row[] {
  if (ctx.principal.kind !== 'user') return [];
  const userId = ctx.principal.userId;
  const rows: Row[] = [];
  for (const row of ctx.store.table('account').all()) {
    const users = row.ext['users'] as Record<string, string[]> | undefined;
    if (users?.[userId] !== undefined) rows.push(row);
  }
  return rows.sort((a, b) => a.seq - b.seq);
}

/** The path's account, already checked by the server to be the caller's; deleted counts as missing unless `withDeleted`. */
function pathAccount(ctx: ApiContext, withDeleted = false): Row {
  const account = ctx.account;
  if (account === undefined) throw accountNotFound(ctx.pathParams['account_id'] ?? '');
  if (account.rec['deleted'] === true && !withDeleted) throw notFound('Account', account.id, undefined, 'account_id');
  return account;
}

function listAccounts(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE, q: { field: 'name', max: 255 } });
  const ids = p.list('account_ids', { max: 200 });
  p.finish();
  const mine = userAccounts(ctx);
  const wanted = ids === undefined ? undefined : new Set(ids);
  const candidates = wanted === undefined ? mine : mine.filter((r) => wanted.has(r.id));
  return { body: listPage(p, q, candidates, undefined, listWire) };
}

function getAccount(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const withDeleted = p.bool('with_deleted') ?? false;
  p.finish();
  return { body: single(p, { ...pathAccount(ctx, withDeleted).rec }) };
}

/** Account attributes a PUT ignores when sent back unchanged and refuses when changed. */
const READ_ONLY = [
  'id', 'business_name', 'business_id', 'timezone', 'timezone_switch_at', 'approval_status', 'created_at', 'updated_at', 'deleted',
] as const;

function updateAccount(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.readOnly(READ_ONLY, ctx.account?.rec['deleted'] === true ? undefined : ctx.account?.rec);
  const name = p.string('name', { min: 1, max: NAME_MAX });
  const industryType = p.oneOf('industry_type', INDUSTRY_TYPES, { nullable: true });
  p.finish();
  const account = pathAccount(ctx);
  const patch: Rec = {};
  if (typeof name === 'string') patch['name'] = name;
  if (industryType !== undefined) patch['industry_type'] = industryType;
  if (Object.keys(patch).length > 0) ctx.store.update(account, { ...patch, updated_at: now(ctx) });
  return { body: single(p, { ...account.rec }) };
}

/**
 * Sandbox POST accounts: a new "Sandbox account" whose only user is the caller, as
 * ACCOUNT_ADMIN, and whose FULL promotable user is the caller. Answers a list of one account.
 */
function createAccount(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.finish();
  if (ctx.principal.kind !== 'user') throw accountNotFound('');
  const userId = ctx.principal.userId;
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert(
    'account',
    id,
    id,
    {
      id,
      name: 'Sandbox account',
      business_name: null,
      business_id: null,
      timezone: 'America/Los_Angeles',
      timezone_switch_at: null,
      industry_type: null,
      approval_status: 'ACCEPTED',
      created_at: time,
      updated_at: time,
      deleted: false,
    },
    { users: { [userId]: ['ACCOUNT_ADMIN'] }, features: [], sandbox: true },
  );
  const promotableId = ctx.store.newId();
  ctx.store.insert('promotable_user', promotableId, id, {
    id: promotableId,
    user_id: userId,
    promotable_user_type: 'FULL',
    created_at: time,
    updated_at: time,
    deleted: false,
  });
  return { status: 201, body: { request: { params: p.echo }, next_cursor: null, data: [listWire(row)] } };
}

function deleteAccount(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.finish();
  const account = pathAccount(ctx);
  ctx.store.update(account, { deleted: true, updated_at: now(ctx) });
  return { body: single(p, listWire(account)) };
}

/** Account routes; POST and DELETE exist only at the sandbox base URL. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts', family: 'account_read', access: 'none', handler: listAccounts },
  { method: 'POST', path: '/12/accounts', family: 'write', access: 'none', sandboxOnly: true, handler: createAccount },
  { method: 'GET', path: '/12/accounts/:account_id', family: 'account_read', access: 'any', handler: getAccount },
  { method: 'PUT', path: '/12/accounts/:account_id', family: 'write', access: 'admin', handler: updateAccount },
  { method: 'DELETE', path: '/12/accounts/:account_id', family: 'write', access: 'admin', sandboxOnly: true, handler: deleteAccount },
];
