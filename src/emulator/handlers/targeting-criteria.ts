/**
 * Targeting criteria as the real service has them (docs/architecture.md, "Contracts"): the list needs
 * `line_item_ids`; `lang` adds `localized_name` where the emulator has one; create checks the rules
 * of targeting-rules.ts; there is no update (PUT answers 405), a change is a delete plus a create;
 * the batch endpoint takes up to 500 Create and Delete operations, all or nothing.
 *
 * `operator_type` is listed as required by the reference, but its own create example omits it and
 * the audience estimate input defaults it to EQ; the emulator therefore defaults it to EQ (the
 * the real behaviour is not known for sure).
 */
import { runBatch } from '../batch.js';
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { invalidParameter } from '../errors.js';
import { recordHistory } from '../history.js';
import { listPage, readListParams } from '../list.js';
import { localizedName } from '../lookups/localized-names.js';
import type { ParamReader } from '../params.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf, findRow, now } from './common.js';
import { childCandidates, findLineItem } from './line-item-children.js';
import { OPERATOR_TYPES, TARGETING_TYPES, checkCriterion } from './targeting-rules.js';

const SORTABLE = ['created_at', 'updated_at', 'deleted', 'name', 'targeting_value'] as const;
const LABEL = 'Targeting Criterion';

/** Reads `lang`: an ISO 639-1 code (two lowercase letters). */
function readLang(p: ParamReader): string | undefined {
  const lang = p.string('lang');
  if (typeof lang !== 'string') return undefined;
  if (!/^[a-z]{2}$/.test(lang)) {
    p.fail(invalidParameter('lang', `Expected an ISO 639-1 language code, got ${JSON.stringify(lang)} for lang`));
    return undefined;
  }
  return lang;
}

/** The wire record, with `localized_name` when `lang` was given and a localized name exists. */
const toWire =
  (lang: string | undefined) =>
  (row: Row): Rec => {
    const rec: Rec = { ...row.rec };
    if (lang === undefined) return rec;
    const localized = localizedName(String(rec['targeting_type']), String(rec['targeting_value']), lang);
    if (localized !== undefined) rec['localized_name'] = localized;
    return rec;
  };

function listCriteria(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  const lineItemIds = p.list('line_item_ids', { required: true, max: 200 });
  const ids = p.list('targeting_criterion_ids', { max: 200 });
  const lang = readLang(p);
  p.finish();
  const rows = childCandidates(ctx, 'targeting_criterion', { lineItemIds: lineItemIds ?? [], ...(ids === undefined ? {} : { ids }) });
  return { body: listPage(p, q, rows, () => true, toWire(lang)) };
}

function getCriterion(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const withDeleted = p.bool('with_deleted') ?? false;
  const lang = readLang(p);
  p.finish();
  const row = findRow(ctx, 'targeting_criterion', ctx.pathParams['targeting_criterion_id'] ?? '', LABEL, 'targeting_criterion_id', withDeleted);
  return { body: single(p, toWire(lang)(row)) };
}

/** Creates one criterion from `p` (the single endpoint's parameters or a batch item's). */
function createCriterion(ctx: ApiContext, p: ParamReader): Row {
  const lineItemId = p.string('line_item_id', { required: true });
  const operatorType = p.oneOf('operator_type', OPERATOR_TYPES) ?? 'EQ';
  const targetingType = p.oneOf('targeting_type', TARGETING_TYPES, { required: true });
  const targetingValue = p.string('targeting_value', { required: true });
  p.finish();
  const lineItem = findLineItem(ctx, lineItemId!);
  const computed = checkCriterion(ctx, lineItem, { targetingType: targetingType!, targetingValue: targetingValue!, operatorType });
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert('targeting_criterion', id, accountIdOf(ctx), {
    line_item_id: lineItem.id,
    name: computed['name'],
    id,
    ...(computed['location_type'] === undefined ? {} : { location_type: computed['location_type'] }),
    operator_type: operatorType,
    created_at: time,
    targeting_value: targetingValue,
    updated_at: time,
    deleted: false,
    targeting_type: targetingType,
  });
  recordHistory(ctx, 'TARGETING_CRITERIA', 'CREATE', row);
  return row;
}

/** Deletes the criterion `id` of the path's account (a deleted one is a 404). */
function deleteCriterion(ctx: ApiContext, id: string, param: string): Row {
  const row = findRow(ctx, 'targeting_criterion', id, LABEL, param);
  const before = row.rec;
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  recordHistory(ctx, 'TARGETING_CRITERIA', 'DELETE', row, before);
  return row;
}

function postCriterion(ctx: ApiContext): HandlerResult {
  const row = createCriterion(ctx, ctx.params);
  return { status: 201, body: single(ctx.params, { ...row.rec }) };
}

function deleteOne(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = deleteCriterion(ctx, ctx.pathParams['targeting_criterion_id'] ?? '', 'targeting_criterion_id');
  return { body: single(ctx.params, { ...row.rec }) };
}

function batch(ctx: ApiContext): HandlerResult {
  return runBatch(ctx, {
    max: 500,
    operations: {
      Create: (p) => ({ ...createCriterion(ctx, p).rec }),
      Delete: (p) => {
        const id = p.string('targeting_criterion_id', { required: true });
        p.finish();
        return { ...deleteCriterion(ctx, id!, 'targeting_criterion_id').rec };
      },
    },
  });
}

const COLLECTION = '/12/accounts/:account_id/targeting_criteria';

/** The targeting criteria endpoints, single and batch. */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'core_read', access: 'read', handler: listCriteria },
  { method: 'GET', path: `${COLLECTION}/:targeting_criterion_id`, family: 'core_read', access: 'read', handler: getCriterion },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'campaign', handler: postCriterion },
  { method: 'DELETE', path: `${COLLECTION}/:targeting_criterion_id`, family: 'write', access: 'campaign', handler: deleteOne },
  { method: 'POST', path: '/12/batch/accounts/:account_id/targeting_criteria', family: 'write', access: 'campaign', jsonBody: true, handler: batch },
];
