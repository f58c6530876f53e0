/**
 * Custom audiences (Part B, Custom audiences). POST takes `name` (required, unique among the
 * account's audiences that are not deleted, 255) and `description` (255); PUT changes either
 * (the name stays unique; an empty description unsets it); only the owning account may change
 * or delete an audience (403 `ACTION_NOT_ALLOWED` for an account it is shared with). The list
 * takes `permission_scope` OWNER (default: the account's own audiences) or SHARED (audiences
 * other accounts shared with it), `count` 200 (1..1000), `cursor`, `q` (name prefix, 1..255),
 * `sort_by`, `custom_audience_ids` (200), `with_deleted`, `with_total_count`. `targeted` lists the
 * account's campaigns with their line items that target the audience (CUSTOM_AUDIENCE or
 * CUSTOM_AUDIENCE_EXPANDED criteria that are not deleted); a line item is servable when it and
 * its campaign are ACTIVE and not deleted, and `with_active` (default true) leaves the others out.
 * Records: see custom-audience-model.ts.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { invalidParameter } from '../errors.js';
import { listPage, readListParams, rowsByIds } from '../list.js';
import type { Row } from '../store/row.js';
import { accountIdOf, now } from './common.js';
import { audienceView, findAudience, findOwnedAudience } from './custom-audience-model.js';

const SORTABLE = ['created_at', 'updated_at', 'name', 'deleted'] as const;
/** Longest audience name and description the emulator takes (the spec states none). */
export const AUDIENCE_NAME_MAX = 255;
const DESCRIPTION_MAX = 255;

/** Refuses `name` when another live audience of the account (other than `self`) has it. */
export function checkUniqueName(ctx: ApiContext, name: string, self?: string): void {
  const taken = ctx.store
    .table('custom_audience')
    .ofAccount(accountIdOf(ctx))
    .some((r) => r.id !== self && r.rec['deleted'] !== true && r.rec['name'] === name);
  if (taken) throw invalidParameter('name', `A custom audience named ${JSON.stringify(name)} already exists for Account ${accountIdOf(ctx)}`);
}

function listAudiences(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE, q: { field: 'name', max: 255 } });
  const scope = p.oneOf('permission_scope', ['OWNER', 'SHARED'] as const) ?? 'OWNER';
  const ids = p.list('custom_audience_ids', { max: 200 });
  p.finish();
  const accountId = accountIdOf(ctx);
  const table = ctx.store.table('custom_audience');
  let rows: readonly Row[];
  if (scope === 'OWNER') {
    rows = ids === undefined ? table.ofAccount(accountId) : rowsByIds((id) => table.get(id), ids, accountId);
  } else {
    const shared = new Map<string, Row>();
    for (const grant of ctx.store.table('audience_permission').under('granted', accountId)) {
      if (grant.rec['deleted'] === true) continue;
      const row = table.get(String(grant.rec['custom_audience_id']));
      if (row !== undefined && (ids === undefined || ids.includes(row.id))) shared.set(row.id, row);
    }
    rows = [...shared.values()].sort((a, b) => a.seq - b.seq);
  }
  return { body: listPage(p, q, rows, () => true, (row) => audienceView(ctx, row, accountId)) };
}

function getAudience(ctx: ApiContext): HandlerResult {
  const withDeleted = ctx.params.bool('with_deleted') ?? false;
  ctx.params.finish();
  const { row } = findAudience(ctx, 'custom_audience_id', withDeleted);
  return { body: single(ctx.params, audienceView(ctx, row, accountIdOf(ctx))) };
}

function postAudience(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const name = p.string('name', { required: true, max: AUDIENCE_NAME_MAX });
  const description = p.string('description', { max: DESCRIPTION_MAX, nullable: true });
  p.finish();
  checkUniqueName(ctx, name!);
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert(
    'custom_audience',
    id,
    accountIdOf(ctx),
    { id, name, description: description ?? null, audience_type: 'CRM', created_at: time, updated_at: time, deleted: false },
    { uploaded: false, unmatched: 0 },
  );
  return { status: 201, body: single(p, audienceView(ctx, row, accountIdOf(ctx))) };
}

function putAudience(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const name = p.string('name', { max: AUDIENCE_NAME_MAX });
  const description = p.string('description', { max: DESCRIPTION_MAX, nullable: true });
  p.finish();
  const row = findOwnedAudience(ctx, 'custom_audience_id');
  if (typeof name === 'string') checkUniqueName(ctx, name, row.id);
  const patch: Record<string, unknown> = { updated_at: now(ctx) };
  if (typeof name === 'string') patch['name'] = name;
  if (description !== undefined) patch['description'] = description;
  ctx.store.update(row, patch);
  return { body: single(p, audienceView(ctx, row, accountIdOf(ctx))) };
}

function deleteAudience(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findOwnedAudience(ctx, 'custom_audience_id');
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  return { body: single(ctx.params, audienceView(ctx, row, accountIdOf(ctx))) };
}

const TARGETED_PAGE = 200;
const live = (row: Row | undefined): row is Row => row !== undefined && row.rec['deleted'] !== true;

function targeted(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const withActive = p.bool('with_active') ?? true;
  const cursor = p.string('cursor');
  const start = typeof cursor === 'string' && /^t[0-9a-z]{1,8}$/.test(cursor) ? parseInt(cursor.slice(1), 36) : 0;
  if (typeof cursor === 'string' && !/^t[0-9a-z]{1,8}$/.test(cursor)) p.fail(invalidParameter('cursor', `Invalid cursor ${JSON.stringify(cursor)}`));
  p.finish();
  const { row: audience } = findAudience(ctx, 'custom_audience_id');
  const accountId = accountIdOf(ctx);
  const byCampaign = new Map<string, { campaign: Row; lineItems: Row[] }>();
  for (const criterion of ctx.store.table('targeting_criterion').ofAccount(accountId)) {
    const type = criterion.rec['targeting_type'];
    if ((type !== 'CUSTOM_AUDIENCE' && type !== 'CUSTOM_AUDIENCE_EXPANDED') || criterion.rec['targeting_value'] !== audience.id || criterion.rec['deleted'] === true) continue;
    const lineItem = ctx.store.get('line_item', String(criterion.rec['line_item_id']));
    const campaign = lineItem === undefined ? undefined : ctx.store.get('campaign', String(lineItem.rec['campaign_id']));
    if (!live(lineItem) || !live(campaign)) continue;
    const entry = byCampaign.get(campaign.id) ?? { campaign, lineItems: [] };
    if (!entry.lineItems.includes(lineItem)) entry.lineItems.push(lineItem);
    byCampaign.set(campaign.id, entry);
  }
  const servable = (li: Row, campaign: Row): boolean => li.rec['entity_status'] === 'ACTIVE' && campaign.rec['entity_status'] === 'ACTIVE';
  const entries = [...byCampaign.values()]
    .map(({ campaign, lineItems }) => ({
      campaign,
      lineItems: lineItems.filter((li) => !withActive || servable(li, campaign)).sort((a, b) => a.seq - b.seq),
    }))
    .filter((e) => e.lineItems.length > 0)
    .sort((a, b) => a.campaign.seq - b.campaign.seq);
  const data = entries.slice(start, start + TARGETED_PAGE).map(({ campaign, lineItems }) => ({
    campaign_id: campaign.id,
    campaign_name: campaign.rec['name'] ?? null,
    line_items: lineItems.map((li) => ({ id: li.id, name: li.rec['name'] ?? null, servable: servable(li, campaign) })),
  }));
  const next = start + TARGETED_PAGE < entries.length ? `t${(start + TARGETED_PAGE).toString(36)}` : null;
  return { body: { request: { params: p.echo }, next_cursor: next, data } };
}

const COLLECTION = '/12/accounts/:account_id/custom_audiences';

/** The custom audience endpoints (the users, permissions and batch endpoints live beside them). */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'account_read', access: 'any', handler: listAudiences },
  { method: 'GET', path: `${COLLECTION}/:custom_audience_id`, family: 'account_read', access: 'any', handler: getAudience },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'audience', handler: postAudience },
  { method: 'PUT', path: `${COLLECTION}/:custom_audience_id`, family: 'write', access: 'audience', handler: putAudience },
  { method: 'DELETE', path: `${COLLECTION}/:custom_audience_id`, family: 'write', access: 'audience', handler: deleteAudience },
  { method: 'GET', path: `${COLLECTION}/:custom_audience_id/targeted`, family: 'account_read', access: 'any', handler: targeted },
];

