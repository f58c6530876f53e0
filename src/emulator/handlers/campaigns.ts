/**
 * Campaigns: list, lookup, create, update, delete and the batch endpoint (Part A, Campaigns).
 * Draft campaigns are left out of lists unless `with_draft=true`; deleted ones unless
 * `with_deleted=true`. The write rules live in campaign-write.ts, the serving fields in
 * campaign-serving.ts.
 */
import { runBatch } from '../batch.js';
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { listPage, mergeBySeq, readListParams, rowsByIds } from '../list.js';
import type { Row } from '../store/row.js';
import { accountIdOf, findRow } from './common.js';
import { campaignView } from './campaign-serving.js';
import { createCampaign, deleteCampaign, updateCampaign } from './campaign-write.js';

/** Attributes `sort_by` accepts for campaigns (docs/service-behaviour.md, "Lists and sorting"). */
const CAMPAIGN_SORTABLE = [
  'created_at',
  'updated_at',
  'deleted',
  'name',
  'start_time',
  'end_time',
  'daily_budget_amount_local_micro',
  'total_budget_amount_local_micro',
  'standard_delivery',
] as const;

/** Largest number of operations in one campaign batch. */
const CAMPAIGN_BATCH_MAX = 40;

function listCampaigns(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: CAMPAIGN_SORTABLE, q: { field: 'name', max: 255 } });
  const ids = p.list('campaign_ids', { max: 200 });
  const fis = p.list('funding_instrument_ids', { max: 200 });
  const withDraft = p.bool('with_draft') ?? false;
  p.finish();
  const accountId = accountIdOf(ctx);
  const table = ctx.store.table('campaign');
  let candidates: readonly Row[];
  if (ids !== undefined) candidates = rowsByIds((id) => table.get(id), ids, accountId);
  else if (fis !== undefined) candidates = mergeBySeq([...new Set(fis)].map((fi) => table.under('funding_instrument', fi)));
  else candidates = table.ofAccount(accountId);
  const fiSet = fis === undefined ? undefined : new Set(fis);
  const keep = (row: Row): boolean =>
    row.accountId === accountId &&
    (withDraft || row.rec['entity_status'] !== 'DRAFT') &&
    (fiSet === undefined || fiSet.has(String(row.rec['funding_instrument_id'])));
  return { body: listPage(p, q, candidates, keep, (row) => campaignView(ctx, row)) };
}

function getCampaign(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const withDeleted = p.bool('with_deleted') ?? false;
  p.finish();
  const row = findRow(ctx, 'campaign', ctx.pathParams['campaign_id'] ?? '', 'Campaign', 'campaign_id', withDeleted);
  return { body: single(p, campaignView(ctx, row)) };
}

function postCampaign(ctx: ApiContext): HandlerResult {
  const row = createCampaign(ctx, ctx.params);
  return { status: 201, body: single(ctx.params, campaignView(ctx, row)) };
}

function putCampaign(ctx: ApiContext): HandlerResult {
  const row = updateCampaign(ctx, ctx.params, ctx.pathParams['campaign_id'] ?? '');
  return { body: single(ctx.params, campaignView(ctx, row)) };
}

function removeCampaign(ctx: ApiContext): HandlerResult {
  const row = deleteCampaign(ctx, ctx.params, ctx.pathParams['campaign_id'] ?? '');
  return { body: single(ctx.params, campaignView(ctx, row)) };
}

function batchCampaigns(ctx: ApiContext): HandlerResult {
  return runBatch(ctx, {
    max: CAMPAIGN_BATCH_MAX,
    operations: {
      Create: (p) => campaignView(ctx, createCampaign(ctx, p)),
      Update: (p) => campaignView(ctx, updateCampaign(ctx, p, p.string('campaign_id', { required: true }) ?? '')),
      Delete: (p) => campaignView(ctx, deleteCampaign(ctx, p, p.string('campaign_id', { required: true }) ?? '')),
    },
  });
}

/** The campaign endpoints, registered in routes.ts. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/campaigns', family: 'core_read', access: 'read', handler: listCampaigns },
  { method: 'GET', path: '/12/accounts/:account_id/campaigns/:campaign_id', family: 'core_read', access: 'read', handler: getCampaign },
  { method: 'POST', path: '/12/accounts/:account_id/campaigns', family: 'write', access: 'campaign', handler: postCampaign },
  { method: 'PUT', path: '/12/accounts/:account_id/campaigns/:campaign_id', family: 'write', access: 'campaign', handler: putCampaign },
  { method: 'DELETE', path: '/12/accounts/:account_id/campaigns/:campaign_id', family: 'write', access: 'campaign', handler: removeCampaign },
  { method: 'POST', path: '/12/batch/accounts/:account_id/campaigns', family: 'write', access: 'campaign', jsonBody: true, handler: batchCampaigns },
];
