/**
 * Creating, updating and deleting line items; shared by the single endpoints and the batch
 * endpoint. Choices where the spec is loose:
 * - `start_time` is required on create (the reference marks it required and every example sends
 *   it); `end_time` is optional (the reference's own example omits it and returns null).
 * - `campaign_id` must name a non-deleted campaign of the account: a deleted or unknown campaign
 *   answers 404 NOT_FOUND (deleted records are left out of lookups).
 * - All non-deleted line items of a campaign share product_type and objective.
 * - `advertiser_user_id` is the account's FULL promotable user (null when it has none);
 *   `funding_instrument_id` and `currency` come from the campaign; `creative_source` is MANUAL.
 * - An app store identifier adds PLATFORM targeting (line-item-platforms.ts).
 * - Limits: 100 non-deleted line items per campaign, 256 ACTIVE non-deleted line items per account
 *   (TOO_MANY_LINE_ITEMS), checked on create and when a PUT makes a line item ACTIVE.
 */
import type { ApiContext } from '../context.js';
import { WireError, combine, invalidParameter } from '../errors.js';
import { recordHistory } from '../history.js';
import { PLACEMENTS, PRODUCT_TYPES } from '../lookups/placements.js';
import type { ParamReader } from '../params.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf, findRow, fullPromotableUser, now, peekRow } from './common.js';
import { accountRow, bumpCounter, lineItemRoom } from './campaign-counters.js';
import { refreshServing } from './campaign-serving.js';
import { readWritable } from './line-item-params.js';
import { addPlatformTargeting } from './line-item-platforms.js';
import { GOALS_BY_OBJECTIVE, OBJECTIVES, PAY_BY_DEFAULT, lineItemProblems, type Objective } from './line-item-rules.js';

const raise = (problems: WireError[]): void => {
  if (problems.length > 0) throw combine(problems);
};

const isActive = (rec: Rec): boolean => rec['deleted'] !== true && rec['entity_status'] === 'ACTIVE';

/** The problem, if any, with a new line item's product_type/objective versus its campaign's other line items. */
function siblingProblems(ctx: ApiContext, campaign: Row, productType: string, objective: string): WireError[] {
  const sibling = ctx.store.table('line_item').under('campaign', campaign.id).find((r) => r.rec['deleted'] !== true);
  if (sibling === undefined) return [];
  const out: WireError[] = [];
  for (const [field, value] of [['product_type', productType], ['objective', objective]] as const) {
    if (sibling.rec[field] !== value) {
      out.push(invalidParameter(field, `All line items of campaign ${campaign.id} must share ${field} ${String(sibling.rec[field])}, got ${value}`));
    }
  }
  return out;
}

/** Moves the active and total line item counters of the campaign and the account by one line item's change. */
function recount(ctx: ApiContext, campaign: Row | undefined, before: Rec | undefined, after: Rec): void {
  const existed = before !== undefined && before['deleted'] !== true;
  const exists = after['deleted'] !== true;
  const activeDelta = (isActive(after) ? 1 : 0) - (before !== undefined && isActive(before) ? 1 : 0);
  bumpCounter(ctx, accountRow(ctx), 'active_line_items', activeDelta);
  if (campaign === undefined) return;
  bumpCounter(ctx, campaign, 'line_items', (exists ? 1 : 0) - (existed ? 1 : 0));
  bumpCounter(ctx, campaign, 'active_line_items', activeDelta);
  if (activeDelta !== 0) refreshServing(ctx, campaign);
}

/** POST line_items (and batch Create): validates `p`, inserts the line item, returns its row. */
export function createLineItem(ctx: ApiContext, p: ParamReader): Row {
  const campaignId = p.string('campaign_id', { required: true });
  const objective = p.oneOf('objective', OBJECTIVES, { required: true });
  const productType = p.oneOf('product_type', PRODUCT_TYPES, { required: true });
  const placements = p.list('placements', { required: true, max: PLACEMENTS.length });
  const unknown = placements?.find((v) => !(PLACEMENTS as readonly string[]).includes(v));
  if (unknown !== undefined) p.fail(invalidParameter('placements', `Expected a value in ${PLACEMENTS.join(', ')}, got ${JSON.stringify(unknown)} for placements`));
  const w = readWritable(p, 'create');
  p.finish();

  const campaign = findRow(ctx, 'campaign', campaignId!, 'Campaign', 'campaign_id');
  const obj = objective as Objective;
  const problems = siblingProblems(ctx, campaign, productType!, obj);
  if (w.payBySent && obj !== 'APP_INSTALLS') problems.push(invalidParameter('pay_by', `pay_by can only be set for objective APP_INSTALLS`));
  const at = now(ctx);
  const rec: Rec = {
    id: '',
    campaign_id: campaign.id,
    funding_instrument_id: campaign.rec['funding_instrument_id'],
    advertiser_user_id: fullPromotableUser(ctx),
    name: null,
    placements: placements!,
    product_type: productType!,
    objective: obj,
    goal: GOALS_BY_OBJECTIVE[obj][0],
    bid_strategy: 'AUTO',
    bid_amount_local_micro: null,
    target_cpa_local_micro: null,
    pay_by: PAY_BY_DEFAULT[obj],
    creative_source: 'MANUAL',
    start_time: null,
    end_time: null,
    duration_in_days: null,
    daily_budget_amount_local_micro: null,
    total_budget_amount_local_micro: null,
    standard_delivery: true,
    frequency_cap: null,
    entity_status: 'ACTIVE',
    automatic_tweet_promotion: null,
    advertiser_domain: null,
    primary_web_event_tag: null,
    android_app_store_identifier: null,
    ios_app_store_identifier: null,
    categories: [],
    currency: campaign.rec['currency'],
    created_at: at,
    updated_at: at,
    deleted: false,
  };
  Object.assign(rec, w.rec);
  problems.push(...lineItemProblems(rec, campaign.rec));
  raise(problems);
  const full = lineItemRoom(ctx, campaign, isActive(rec));
  if (full !== undefined) throw full;
  rec['id'] = ctx.store.newId();
  const row = ctx.store.insert('line_item', String(rec['id']), accountIdOf(ctx), rec, w.ext);
  recount(ctx, campaign, undefined, rec);
  recordHistory(ctx, 'LINE_ITEM', 'CREATE', row);
  addPlatformTargeting(ctx, row, undefined);
  return row;
}

/**
 * Line item attributes a PUT cannot set: sent back unchanged they are ignored, changed they are
 * refused (docs/service-behaviour.md, "Errors" and "Line items"). `advertiser_user_id` is not
 * among them: the service refuses it on every write outside allow-listed apps.
 */
const LINE_ITEM_READ_ONLY = [
  'id', 'campaign_id', 'funding_instrument_id', 'objective', 'product_type', 'placements', 'currency', 'creative_source',
  'target_cpa_local_micro', 'automatic_tweet_promotion', 'standard_delivery', 'primary_web_event_tag', 'created_at', 'updated_at', 'deleted',
] as const;

/** PUT line_items/:id (and batch Update): applies the sent writable fields of `p` to line item `id`. */
export function updateLineItem(ctx: ApiContext, p: ParamReader, id: string): Row {
  const current = peekRow(ctx, 'line_item', id)?.rec;
  p.readOnly(LINE_ITEM_READ_ONLY, current);
  // defaults the service chose (pay_by ENGAGEMENT, a goal only POST takes) are not the client's to set, but may come back
  p.ignoreUnchanged(['pay_by', 'goal'], current);
  const w = readWritable(p, 'update');
  p.finish();
  const row = findRow(ctx, 'line_item', id, 'Line Item', 'line_item_id');
  const campaign = ctx.store.get('campaign', String(row.rec['campaign_id']));
  const before = row.rec;
  const next: Rec = { ...before, ...w.rec, updated_at: now(ctx) };
  const problems: WireError[] = [];
  if (w.payBySent && next['objective'] !== 'APP_INSTALLS') problems.push(invalidParameter('pay_by', `pay_by can only be set for objective APP_INSTALLS`));
  problems.push(...lineItemProblems(next, campaign?.rec ?? { total_budget_amount_local_micro: null }));
  raise(problems);
  if (isActive(next) && !isActive(before)) {
    const full = lineItemRoom(ctx, undefined, true);
    if (full !== undefined) throw full;
  }
  ctx.store.update(row, next, w.ext);
  recount(ctx, campaign, before, next);
  recordHistory(ctx, 'LINE_ITEM', 'UPDATE', row, before);
  addPlatformTargeting(ctx, row, before);
  return row;
}

/** DELETE line_items/:id (and batch Delete): marks line item `id` deleted; a second time is a 404. */
export function deleteLineItem(ctx: ApiContext, p: ParamReader, id: string): Row {
  p.finish();
  const row = findRow(ctx, 'line_item', id, 'Line Item', 'line_item_id');
  const before = row.rec;
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  recount(ctx, ctx.store.get('campaign', String(before['campaign_id'])), before, row.rec);
  recordHistory(ctx, 'LINE_ITEM', 'DELETE', row, before);
  return row;
}
