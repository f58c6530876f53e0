/**
 * Creating, updating and deleting campaigns; shared by the single endpoints and the batch
 * endpoint. Choices where the spec is loose:
 * - `funding_instrument_id` must name a non-deleted funding instrument of the account (404
 *   NOT_FOUND otherwise) that is able to fund (400 INVALID_FUNDING_INSTRUMENT otherwise).
 * - `daily_budget_amount_local_micro` is required on create for CREDIT_CARD, CREDIT_LINE and
 *   AGENCY_CREDIT_LINE instruments; INSERTION_ORDER and PARTNER_MANAGED instruments carry their own
 *   funded amount, so it is optional there. A PUT may unset it only while a total budget remains
 *   (the campaign then spends evenly across its flight).
 * - `standard_delivery` defaults to true and is null under budget_optimization LINE_ITEM; sending
 *   it with LINE_ITEM is refused.
 * - Budgets are positive; daily never exceeds total; the total never drops below the total of a
 *   non-deleted line item of the campaign.
 * - Deleting a campaign does not delete its line items (the spec describes no cascade).
 */
import type { ApiContext } from '../context.js';
import { WireError, badRequest, combine, invalidParameter, missingParameter, notFound } from '../errors.js';
import type { ParamReader } from '../params.js';
import type { Rec, Row } from '../store/row.js';
import { recordHistory } from '../history.js';
import { accountIdOf, findRow, now, peekRow } from './common.js';
import { accountRow, activeCampaignRoom, bumpCounter, counter } from './campaign-counters.js';
import { campaignView, servingOf } from './campaign-serving.js';

/** Values of a campaign's `budget_optimization`; CAMPAIGN is the default. */
const BUDGET_OPTIMIZATIONS = ['CAMPAIGN', 'LINE_ITEM'] as const;
/** Funding instrument types for which a campaign needs a daily budget. */
const DAILY_BUDGET_REQUIRED_FOR: readonly string[] = ['CREDIT_CARD', 'CREDIT_LINE', 'AGENCY_CREDIT_LINE'];

const DAILY = 'daily_budget_amount_local_micro';
const TOTAL = 'total_budget_amount_local_micro';

function fundingInstrument(ctx: ApiContext, id: string): Row {
  const fi = ctx.store.get('funding_instrument', id);
  if (fi === undefined || fi.accountId !== accountIdOf(ctx) || fi.rec['deleted'] === true) {
    throw notFound('Funding Instrument', id, accountIdOf(ctx), 'funding_instrument_id');
  }
  if (fi.rec['able_to_fund'] === false) {
    throw badRequest('INVALID_FUNDING_INSTRUMENT', `Funding Instrument ${id} is not able to fund campaigns`, 'funding_instrument_id');
  }
  return fi;
}

/** Budget rules that hold for every campaign state (create and after a PUT). */
function budgetProblems(ctx: ApiContext, rec: Rec, campaignId: string | undefined): WireError[] {
  const out: WireError[] = [];
  const daily = rec[DAILY] as number | null;
  const total = rec[TOTAL] as number | null;
  if (daily !== null && total !== null && daily > total) out.push(invalidParameter(DAILY, `${DAILY} must not exceed ${TOTAL}`));
  if (campaignId !== undefined && total !== null) {
    for (const li of ctx.store.table('line_item').under('campaign', campaignId)) {
      const liTotal = li.rec[TOTAL];
      if (li.rec['deleted'] !== true && typeof liTotal === 'number' && liTotal > total) {
        out.push(invalidParameter(TOTAL, `${TOTAL} must not be less than the total budget of line item ${li.id}`));
        break;
      }
    }
  }
  return out;
}

const raise = (problems: WireError[]): void => {
  if (problems.length > 0) throw combine(problems);
};

/** POST campaigns (and batch Create): validates `p`, inserts the campaign, returns its row. */
export function createCampaign(ctx: ApiContext, p: ParamReader): Row {
  const fiId = p.string('funding_instrument_id', { required: true });
  const name = p.string('name', { required: true, max: 255 });
  const optimization = p.oneOf('budget_optimization', BUDGET_OPTIMIZATIONS) ?? 'CAMPAIGN';
  const daily = p.int(DAILY, { min: 1 });
  const total = p.int(TOTAL, { min: 1 });
  const status = p.oneOf('entity_status', ['ACTIVE', 'DRAFT', 'PAUSED'] as const) ?? 'ACTIVE';
  const po = p.string('purchase_order_number', { max: 50, nullable: true });
  const standard = p.bool('standard_delivery');
  p.finish();

  const fi = fundingInstrument(ctx, fiId!);
  const problems: WireError[] = [];
  if (standard !== undefined && optimization !== 'CAMPAIGN') {
    problems.push(invalidParameter('standard_delivery', 'standard_delivery is only allowed when budget_optimization is CAMPAIGN'));
  }
  if (daily === undefined && DAILY_BUDGET_REQUIRED_FOR.includes(String(fi.rec['type']))) problems.push(missingParameter(DAILY));
  const at = now(ctx);
  const id = ctx.store.newId();
  const rec: Rec = {
    id,
    name: name!,
    funding_instrument_id: fi.id,
    budget_optimization: optimization,
    daily_budget_amount_local_micro: daily ?? null,
    total_budget_amount_local_micro: total ?? null,
    standard_delivery: optimization === 'CAMPAIGN' ? (standard ?? true) : null,
    entity_status: status,
    servable: false,
    reasons_not_servable: [],
    effective_status: 'UNKNOWN',
    purchase_order_number: po ?? null,
    duration_in_days: null,
    frequency_cap: null,
    currency: fi.rec['currency'],
    created_at: at,
    updated_at: at,
    deleted: false,
  };
  problems.push(...budgetProblems(ctx, rec, undefined));
  raise(problems);
  if (status === 'ACTIVE') {
    const full = activeCampaignRoom(ctx);
    if (full !== undefined) throw full;
  }
  Object.assign(rec, servingOf(ctx, rec, 0));
  const row = ctx.store.insert('campaign', id, accountIdOf(ctx), rec, { line_items: 0, active_line_items: 0 });
  if (status === 'ACTIVE') bumpCounter(ctx, accountRow(ctx), 'active_campaigns', 1);
  recordHistory(ctx, 'CAMPAIGN', 'CREATE', row);
  return row;
}

/**
 * Campaign attributes a PUT cannot set: sent back unchanged they are ignored, changed they are
 * refused (docs/service-behaviour.md, "Errors").
 */
const CAMPAIGN_READ_ONLY = [
  'id', 'funding_instrument_id', 'currency', 'servable', 'reasons_not_servable', 'effective_status', 'duration_in_days', 'frequency_cap',
  'created_at', 'updated_at', 'deleted',
] as const;

/** PUT campaigns/:id (and batch Update): applies the sent fields of `p` to campaign `id`. */
export function updateCampaign(ctx: ApiContext, p: ParamReader, id: string): Row {
  const current = peekRow(ctx, 'campaign', id);
  p.readOnly(CAMPAIGN_READ_ONLY, current === undefined ? undefined : campaignView(ctx, current));
  const optimization = p.oneOf('budget_optimization', BUDGET_OPTIMIZATIONS);
  const daily = p.int(DAILY, { min: 1, nullable: true });
  const total = p.int(TOTAL, { min: 1, nullable: true });
  const status = p.oneOf('entity_status', ['ACTIVE', 'PAUSED'] as const);
  const name = p.string('name', { min: 1, max: 255 });
  const po = p.string('purchase_order_number', { max: 50, nullable: true });
  const standard = p.bool('standard_delivery');
  p.finish();

  const row = findRow(ctx, 'campaign', id, 'Campaign', 'campaign_id');
  const before = row.rec;
  const next: Rec = { ...before };
  if (optimization !== undefined && optimization !== null) next['budget_optimization'] = optimization;
  if (daily !== undefined) next[DAILY] = daily;
  if (total !== undefined) next[TOTAL] = total;
  if (status !== undefined && status !== null) next['entity_status'] = status;
  if (name !== undefined && name !== null) next['name'] = name;
  if (po !== undefined) next['purchase_order_number'] = po;

  const problems: WireError[] = [];
  if (next['budget_optimization'] === 'LINE_ITEM') {
    if (standard !== undefined) problems.push(invalidParameter('standard_delivery', 'standard_delivery is only allowed when budget_optimization is CAMPAIGN'));
    next['standard_delivery'] = null;
  } else if (standard !== undefined) next['standard_delivery'] = standard;
  else if (next['standard_delivery'] === null) next['standard_delivery'] = true;
  if (daily === null && next[TOTAL] === null) {
    const fi = ctx.store.get('funding_instrument', String(before['funding_instrument_id']));
    if (DAILY_BUDGET_REQUIRED_FOR.includes(String(fi?.rec['type']))) {
      problems.push(invalidParameter(DAILY, `${DAILY} can only be unset while ${TOTAL} is set`));
    }
  }
  problems.push(...budgetProblems(ctx, next, total !== undefined ? row.id : undefined));
  raise(problems);

  const wasActive = before['entity_status'] === 'ACTIVE';
  const isActive = next['entity_status'] === 'ACTIVE';
  if (isActive && !wasActive) {
    const full = activeCampaignRoom(ctx);
    if (full !== undefined) throw full;
  }
  next['updated_at'] = now(ctx);
  Object.assign(next, servingOf(ctx, next, counter(row, 'active_line_items')));
  ctx.store.update(row, next);
  if (isActive !== wasActive) bumpCounter(ctx, accountRow(ctx), 'active_campaigns', isActive ? 1 : -1);
  recordHistory(ctx, 'CAMPAIGN', 'UPDATE', row, before);
  return row;
}

/** DELETE campaigns/:id (and batch Delete): marks campaign `id` deleted; a second time is a 404. */
export function deleteCampaign(ctx: ApiContext, p: ParamReader, id: string): Row {
  p.finish();
  const row = findRow(ctx, 'campaign', id, 'Campaign', 'campaign_id');
  const before = row.rec;
  const next: Rec = { ...before, deleted: true, updated_at: now(ctx) };
  Object.assign(next, servingOf(ctx, next, 0));
  ctx.store.update(row, next);
  if (before['entity_status'] === 'ACTIVE') bumpCounter(ctx, accountRow(ctx), 'active_campaigns', -1);
  recordHistory(ctx, 'CAMPAIGN', 'DELETE', row, before);
  return row;
}
