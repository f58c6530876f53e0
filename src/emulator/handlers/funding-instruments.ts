/**
 * Funding instruments (Part A, Funding instrument): list and lookup, and the sandbox-only create
 * and delete.
 *
 * Where the spec leaves the sandbox create open ("required for some types", "some types only"):
 * - `end_time` is required for the types that run for a term (INSERTION_ORDER, CREDIT_LINE,
 *   AGENCY_CREDIT_LINE) and optional for CREDIT_CARD and PARTNER_MANAGED; when given it must be
 *   after `start_time` (400 INVALID_TIME_WINDOW).
 * - `credit_limit_local_micro` belongs to the credit types (CREDIT_CARD, CREDIT_LINE,
 *   AGENCY_CREDIT_LINE) and `funded_amount_local_micro` to the prepaid ones (INSERTION_ORDER,
 *   PARTNER_MANAGED); either sent for another type is INVALID_PARAMETER. Both are positive.
 * - A credit line's `credit_remaining_local_micro` starts at its credit limit (nothing is spent in
 *   the sandbox); other types show null, as the service's card and insertion order examples do.
 * - `description` is the service's "(no payment method has been set up yet)", `io_header` null,
 *   `entity_status` ACTIVE, `able_to_fund` true.
 * Delete sets `deleted`, makes `able_to_fund` false and adds DELETED to `reasons_not_able_to_fund`;
 * `entity_status` keeps its value, as in the service's example.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { WireError, invalidParameter, missingParameter } from '../errors.js';
import { listPage, readListParams, rowsByIds } from '../list.js';
import { isCurrencyCode } from '../lookups/currencies.js';
import { accountIdOf, findRow, getOne, now } from './common.js';

/** Values of a funding instrument's `type`. */
const FUNDING_INSTRUMENT_TYPES = ['AGENCY_CREDIT_LINE', 'CREDIT_CARD', 'CREDIT_LINE', 'INSERTION_ORDER', 'PARTNER_MANAGED'] as const;

/** One of `FUNDING_INSTRUMENT_TYPES`. */
type FundingInstrumentType = (typeof FUNDING_INSTRUMENT_TYPES)[number];

const END_TIME_REQUIRED: readonly FundingInstrumentType[] = ['INSERTION_ORDER', 'CREDIT_LINE', 'AGENCY_CREDIT_LINE'];
const CREDIT_LIMIT_TYPES: readonly FundingInstrumentType[] = ['CREDIT_CARD', 'CREDIT_LINE', 'AGENCY_CREDIT_LINE'];
const FUNDED_AMOUNT_TYPES: readonly FundingInstrumentType[] = ['INSERTION_ORDER', 'PARTNER_MANAGED'];
const CREDIT_LINES: readonly FundingInstrumentType[] = ['CREDIT_LINE', 'AGENCY_CREDIT_LINE'];

const SORTABLE = ['created_at', 'updated_at', 'deleted', 'funded_amount_local_micro', 'start_time', 'end_time'] as const;

const LABEL = 'Funding instrument';

function listFundingInstruments(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  const ids = p.list('funding_instrument_ids', { max: 200 });
  p.finish();
  const accountId = accountIdOf(ctx);
  const table = ctx.store.table('funding_instrument');
  const candidates = ids === undefined ? table.ofAccount(accountId) : rowsByIds((id) => table.get(id), ids, accountId);
  return { body: listPage(p, q, candidates) };
}

function notApplicable(parameter: string, type: FundingInstrumentType): WireError {
  return invalidParameter(parameter, `${parameter} is not applicable to funding instrument type ${type}`);
}

function createFundingInstrument(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const currency = p.string('currency', { required: true });
  const startTime = p.time('start_time', { required: true });
  const type = p.oneOf('type', FUNDING_INSTRUMENT_TYPES, { required: true });
  const endTime = p.time('end_time');
  const creditLimit = p.int('credit_limit_local_micro', { min: 1 });
  const fundedAmount = p.int('funded_amount_local_micro', { min: 1 });
  if (typeof currency === 'string' && !isCurrencyCode(currency)) {
    p.fail(invalidParameter('currency', `Expected an ISO 4217 currency code, got ${JSON.stringify(currency)} for currency`));
  }
  if (typeof type === 'string') {
    if (END_TIME_REQUIRED.includes(type) && !p.has('end_time')) p.fail(missingParameter('end_time'));
    if (p.has('credit_limit_local_micro') && !CREDIT_LIMIT_TYPES.includes(type)) p.fail(notApplicable('credit_limit_local_micro', type));
    if (p.has('funded_amount_local_micro') && !FUNDED_AMOUNT_TYPES.includes(type)) p.fail(notApplicable('funded_amount_local_micro', type));
  }
  if (typeof startTime === 'string' && typeof endTime === 'string' && endTime <= startTime) {
    p.fail(new WireError(400, [{ code: 'INVALID_TIME_WINDOW', message: 'end_time must be after start_time', parameter: 'end_time' }]));
  }
  p.finish();
  const fiType = type as FundingInstrumentType;
  const accountId = accountIdOf(ctx);
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert('funding_instrument', id, accountId, {
    id,
    account_id: accountId,
    type: fiType,
    description: '(no payment method has been set up yet)',
    currency,
    start_time: startTime,
    end_time: endTime ?? null,
    credit_limit_local_micro: creditLimit ?? null,
    funded_amount_local_micro: fundedAmount ?? null,
    credit_remaining_local_micro: CREDIT_LINES.includes(fiType) ? (creditLimit ?? null) : null,
    entity_status: 'ACTIVE',
    able_to_fund: true,
    reasons_not_able_to_fund: [],
    io_header: null,
    created_at: time,
    updated_at: time,
    deleted: false,
  });
  return { status: 201, body: single(p, { ...row.rec }) };
}

function deleteFundingInstrument(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.finish();
  const row = findRow(ctx, 'funding_instrument', ctx.pathParams['funding_instrument_id'] ?? '', LABEL, 'funding_instrument_id');
  const reasons = Array.isArray(row.rec['reasons_not_able_to_fund']) ? (row.rec['reasons_not_able_to_fund'] as string[]) : [];
  ctx.store.update(row, {
    deleted: true,
    able_to_fund: false,
    reasons_not_able_to_fund: reasons.includes('DELETED') ? [...reasons] : [...reasons, 'DELETED'],
    updated_at: now(ctx),
  });
  return { body: single(p, { ...row.rec }) };
}

const ITEM = '/12/accounts/:account_id/funding_instruments/:funding_instrument_id';

/** Funding instrument routes; POST and DELETE exist only at the sandbox base URL and need ACCOUNT_ADMIN. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/funding_instruments', family: 'account_read', access: 'any', handler: listFundingInstruments },
  { method: 'POST', path: '/12/accounts/:account_id/funding_instruments', family: 'write', access: 'admin', sandboxOnly: true, handler: createFundingInstrument },
  { method: 'GET', path: ITEM, family: 'account_read', access: 'any', handler: (ctx) => getOne(ctx, 'funding_instrument', 'funding_instrument_id', LABEL) },
  { method: 'DELETE', path: ITEM, family: 'write', access: 'admin', sandboxOnly: true, handler: deleteFundingInstrument },
];
