/**
 * Sharing audiences (Part B, Custom audience permissions; Tailored audience permissions, version
 * 5). Both paths manage the same permissions: a v12 record names `custom_audience_id`, a v5
 * record `tailored_audience_id`. POST takes `granted_account_id` and `permission_level`
 * (READ_ONLY, READ_WRITE), both required; DELETE revokes. Rules:
 * - only the owning account may create or revoke (403 `ACTION_NOT_ALLOWED` for an account the
 *   audience is shared with; 404 for any other);
 * - the granted account must be another existing ad account (400 `INVALID_PARAMETER`) without a
 *   live permission on the audience already (400 `INVALID_PARAMETER`: revoke, then grant anew);
 * - both accounts must belong to the same business (equal, non-null `business_id`), unless the
 *   owner has the SHARE_AUDIENCE_OUTSIDE_BUSINESS feature (400 `FEATURE_NOT_AVAILABLE`).
 * The list takes `count` 200 (1..1000), `cursor`, `sort_by`, `with_total_count`,
 * `granted_account_ids` and `custom_audience_permission_ids` / `tailored_audience_permission_ids`
 * (200 each); the owner sees every live permission, a granted account only its own. A revoke
 * stops new targeting of the audience; criteria made before it stay.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { badRequest, invalidParameter, notFound } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf, now } from './common.js';
import { findAudience, findOwnedAudience } from './custom-audience-model.js';
import { accountFeatures } from './features.js';

/** The feature that lets an account share audiences outside its business. */
const SHARE_OUTSIDE_BUSINESS = 'SHARE_AUDIENCE_OUTSIDE_BUSINESS';

/** The names of one API version's audience and permission parameters. */
interface Dialect {
  audience: 'custom_audience_id' | 'tailored_audience_id';
  permission: 'custom_audience_permission_id' | 'tailored_audience_permission_id';
  ids: 'custom_audience_permission_ids' | 'tailored_audience_permission_ids';
}

const V12: Dialect = { audience: 'custom_audience_id', permission: 'custom_audience_permission_id', ids: 'custom_audience_permission_ids' };
const V5: Dialect = { audience: 'tailored_audience_id', permission: 'tailored_audience_permission_id', ids: 'tailored_audience_permission_ids' };
const SORTABLE = ['created_at', 'updated_at', 'granted_account_id', 'permission_level'] as const;
const LABEL = 'Audience Permission';

function permissionWire(row: Row, d: Dialect): Rec {
  const r = row.rec;
  return {
    id: row.id,
    [d.audience]: r['custom_audience_id'],
    granted_account_id: r['granted_account_id'],
    permission_level: r['permission_level'],
    created_at: r['created_at'],
    updated_at: r['updated_at'],
    deleted: r['deleted'],
  };
}

function listPermissions(ctx: ApiContext, d: Dialect): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE, withDeleted: false });
  const granted = p.list('granted_account_ids', { max: 200 });
  const ids = p.list(d.ids, { max: 200 });
  p.finish();
  const { row: audience, grant } = findAudience(ctx, d.audience);
  const accountId = accountIdOf(ctx);
  const keep = (row: Row): boolean =>
    row.rec['deleted'] !== true &&
    (grant === undefined || row.rec['granted_account_id'] === accountId) &&
    (granted === undefined || granted.includes(String(row.rec['granted_account_id']))) &&
    (ids === undefined || ids.includes(row.id));
  const rows = ctx.store.table('audience_permission').under('audience', audience.id);
  return { body: listPage(p, q, rows, keep, (row) => permissionWire(row, d)) };
}

function sameBusiness(a: Row, b: Row): boolean {
  const business = a.rec['business_id'];
  return typeof business === 'string' && business !== '' && business === b.rec['business_id'];
}

function grantPermission(ctx: ApiContext, d: Dialect): HandlerResult {
  const p = ctx.params;
  const grantedId = p.string('granted_account_id', { required: true });
  const level = p.oneOf('permission_level', ['READ_ONLY', 'READ_WRITE'] as const, { required: true });
  p.finish();
  const audience = findOwnedAudience(ctx, d.audience);
  const owner = ctx.account!;
  const target = ctx.store.get('account', grantedId!);
  if (target === undefined || target.rec['deleted'] === true) throw invalidParameter('granted_account_id', `Account ${grantedId} was not found`);
  if (target.id === owner.id) throw invalidParameter('granted_account_id', `Account ${owner.id} owns ${audience.id}; it cannot be granted to itself`);
  if (!sameBusiness(owner, target) && !accountFeatures(owner).includes(SHARE_OUTSIDE_BUSINESS)) {
    throw badRequest('FEATURE_NOT_AVAILABLE', `Account ${target.id} is outside the business of Account ${owner.id}; sharing outside it needs the ${SHARE_OUTSIDE_BUSINESS} feature`, 'granted_account_id');
  }
  const existing = ctx.store.table('audience_permission').under('audience', audience.id).find((r) => r.rec['granted_account_id'] === target.id && r.rec['deleted'] !== true);
  if (existing !== undefined) throw invalidParameter('granted_account_id', `Audience ${audience.id} is already shared with Account ${target.id} (permission ${existing.id})`);
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert('audience_permission', id, owner.id, {
    id,
    custom_audience_id: audience.id,
    granted_account_id: target.id,
    permission_level: level,
    created_at: time,
    updated_at: time,
    deleted: false,
  });
  return { status: 201, body: single(p, permissionWire(row, d)) };
}

function revokePermission(ctx: ApiContext, d: Dialect): HandlerResult {
  ctx.params.finish();
  const audience = findOwnedAudience(ctx, d.audience);
  const id = ctx.pathParams[d.permission] ?? '';
  const row = ctx.store.get('audience_permission', id);
  if (row === undefined || row.rec['custom_audience_id'] !== audience.id || row.rec['deleted'] === true) {
    throw notFound(LABEL, id, accountIdOf(ctx), d.permission);
  }
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  return { body: single(ctx.params, permissionWire(row, d)) };
}

function routesOf(collection: string, d: Dialect): RouteDef[] {
  return [
    { method: 'GET', path: collection, family: 'account_read', access: 'any', handler: (ctx) => listPermissions(ctx, d) },
    { method: 'POST', path: collection, family: 'write', access: 'audience', handler: (ctx) => grantPermission(ctx, d) },
    { method: 'DELETE', path: `${collection}/:${d.permission}`, family: 'write', access: 'audience', handler: (ctx) => revokePermission(ctx, d) },
  ];
}

/** The permission endpoints at version 12 (custom audiences) and version 5 (tailored audiences). */
export const routes: RouteDef[] = [
  ...routesOf('/12/accounts/:account_id/custom_audiences/:custom_audience_id/permissions', V12),
  ...routesOf('/5/accounts/:account_id/tailored_audiences/:tailored_audience_id/permissions', V5),
];
