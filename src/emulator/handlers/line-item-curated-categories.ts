/**
 * Line item curated categories (Part A): associate a curated category (lookups/curated-categories.ts)
 * with a line item of the account. `curated_category_id` must be a known curated category and
 * `line_item_id` a non-deleted line item of the account (400 INVALID_PARAMETER and 404 NOT_FOUND
 * otherwise); PUT may change either; DELETE marks the record deleted (a second time is a 404).
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { invalidParameter } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import { CURATED_CATEGORIES } from '../lookups/curated-categories.js';
import type { ParamReader } from '../params.js';
import type { Rec } from '../store/row.js';
import { accountIdOf, findRow, getOne, now, peekRow, softDelete } from './common.js';

const KIND = 'line_item_curated_category';
const LABEL = 'Line Item Curated Category';
const ID_PARAM = 'line_item_curated_category_id';
const SORTABLE = ['created_at', 'updated_at', 'deleted'] as const;
const KNOWN = new Set(CURATED_CATEGORIES.map((c) => c.id));

/** Reads and checks `curated_category_id` and `line_item_id`; both required on create. */
function readRefs(ctx: ApiContext, p: ParamReader, required: boolean): Rec {
  const category = p.string('curated_category_id', { required });
  const lineItem = p.string('line_item_id', { required });
  if (typeof category === 'string' && !KNOWN.has(category)) {
    p.fail(invalidParameter('curated_category_id', `Curated category ${category} does not exist`));
  }
  p.finish();
  const patch: Rec = {};
  if (typeof lineItem === 'string') patch['line_item_id'] = findRow(ctx, 'line_item', lineItem, 'Line Item', 'line_item_id').id;
  if (typeof category === 'string') patch['curated_category_id'] = category;
  return patch;
}

function list(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  p.finish();
  return { body: listPage(p, q, ctx.store.table(KIND).ofAccount(accountIdOf(ctx))) };
}

function create(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const refs = readRefs(ctx, p, true);
  const at = now(ctx);
  const id = ctx.store.newId();
  const rec: Rec = {
    id,
    line_item_id: refs['line_item_id'],
    curated_category_id: refs['curated_category_id'],
    created_at: at,
    updated_at: at,
    deleted: false,
  };
  const row = ctx.store.insert(KIND, id, accountIdOf(ctx), rec);
  return { status: 201, body: single(p, { ...row.rec }) };
}

/** Attributes a PUT ignores when sent back unchanged and refuses when changed. */
const READ_ONLY = ['id', 'created_at', 'updated_at', 'deleted'] as const;

function update(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.readOnly(READ_ONLY, peekRow(ctx, KIND, ctx.pathParams[ID_PARAM] ?? '')?.rec);
  const refs = readRefs(ctx, p, false);
  const row = findRow(ctx, KIND, ctx.pathParams[ID_PARAM] ?? '', LABEL, ID_PARAM);
  ctx.store.update(row, { ...refs, updated_at: now(ctx) });
  return { body: single(p, { ...row.rec }) };
}

const base = '/12/accounts/:account_id/line_item_curated_categories';

/** The line item curated category endpoints, registered in routes.ts. */
export const routes: RouteDef[] = [
  { method: 'GET', path: base, family: 'core_read', access: 'read', handler: list },
  { method: 'GET', path: `${base}/:${ID_PARAM}`, family: 'core_read', access: 'read', handler: (ctx) => getOne(ctx, KIND, ID_PARAM, LABEL) },
  { method: 'POST', path: base, family: 'write', access: 'campaign', handler: create },
  { method: 'PUT', path: `${base}/:${ID_PARAM}`, family: 'write', access: 'campaign', handler: update },
  { method: 'DELETE', path: `${base}/:${ID_PARAM}`, family: 'write', access: 'campaign', handler: (ctx) => softDelete(ctx, KIND, ID_PARAM, LABEL) },
];
