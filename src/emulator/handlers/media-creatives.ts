/**
 * Media creatives (Part A, Media creatives): an account media object associated with a line item,
 * for pre-roll video or display image ads. `creative_type` comes from the account media;
 * `landing_url` is required when the line item's objective is WEBSITE_CLICKS and is ignored (null)
 * for pre-roll assets. The private `campaign_id` of each record feeds the `campaign_id` filter.
 * No PUT.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { invalidParameter, missingParameter } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import { accountIdOf, findRow, getOne, now, softDelete } from './common.js';
import { childCandidates, findLineItem } from './line-item-children.js';

const SORTABLE = ['created_at', 'updated_at', 'deleted', 'landing_url'] as const;
const LABEL = 'Media Creative';
const PREROLL_TYPES: ReadonlySet<string> = new Set(['PREROLL', 'VAST_PREROLL']);

function listMediaCreatives(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  const campaignId = p.string('campaign_id', { min: 1 }) ?? undefined;
  const lineItemIds = p.list('line_item_ids', { max: 200 });
  const ids = p.list('media_creative_ids', { max: 200 });
  p.finish();
  const filtered = lineItemIds !== undefined || ids !== undefined;
  const rows =
    campaignId !== undefined && !filtered
      ? ctx.store.table('media_creative').under('campaign', campaignId).filter((r) => r.accountId === accountIdOf(ctx))
      : childCandidates(ctx, 'media_creative', { ...(lineItemIds === undefined ? {} : { lineItemIds }), ...(ids === undefined ? {} : { ids }) });
  return { body: listPage(p, q, rows, (row) => campaignId === undefined || row.ext['campaign_id'] === campaignId) };
}

function postMediaCreative(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const mediaId = p.string('account_media_id', { required: true });
  const lineItemId = p.string('line_item_id', { required: true });
  const landingUrl = p.string('landing_url', { nullable: true });
  if (typeof landingUrl === 'string' && !/^https?:\/\/[^\s/]+\S*$/i.test(landingUrl)) {
    p.fail(invalidParameter('landing_url', `Expected an http or https URL, got ${JSON.stringify(landingUrl)} for landing_url`));
  }
  p.finish();
  const lineItem = findLineItem(ctx, lineItemId!);
  const media = findRow(ctx, 'account_media', mediaId!, 'Account Media', 'account_media_id');
  if (lineItem.rec['objective'] === 'WEBSITE_CLICKS' && (landingUrl === undefined || landingUrl === null)) throw missingParameter('landing_url');
  const creativeType = String(media.rec['creative_type']);
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert(
    'media_creative',
    id,
    accountIdOf(ctx),
    {
      line_item_id: lineItem.id,
      landing_url: PREROLL_TYPES.has(creativeType) ? null : (landingUrl ?? null),
      creative_type: creativeType,
      id,
      entity_status: 'ACTIVE',
      created_at: time,
      account_media_id: media.id,
      updated_at: time,
      approval_status: 'ACCEPTED',
      deleted: false,
    },
    { campaign_id: lineItem.rec['campaign_id'] },
  );
  return { status: 201, body: single(p, { ...row.rec }) };
}

const COLLECTION = '/12/accounts/:account_id/media_creatives';

/** The media creatives endpoints (no PUT). */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'core_read', access: 'read', handler: listMediaCreatives },
  { method: 'GET', path: `${COLLECTION}/:media_creative_id`, family: 'core_read', access: 'read', handler: (ctx) => getOne(ctx, 'media_creative', 'media_creative_id', LABEL) },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'campaign', handler: postMediaCreative },
  { method: 'DELETE', path: `${COLLECTION}/:media_creative_id`, family: 'write', access: 'campaign', handler: (ctx) => softDelete(ctx, 'media_creative', 'media_creative_id', LABEL) },
];
