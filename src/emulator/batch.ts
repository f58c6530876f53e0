/**
 * The batch endpoints' shared mechanics (Part A, Batch conventions): a JSON array of
 * `{operation_type, params}` items, at most `max` of them; request-level problems under `errors`;
 * each item run like the single-item endpoint; all-or-nothing — if any item fails, nothing is
 * kept and the answer is 400 with `operation_errors`, one slot per input item (empty for items
 * that were fine); on success `data` and `request` arrays in input order.
 */
import type { ApiContext, HandlerResult } from './context.js';
import { WireError, type WireErrorItem } from './errors.js';
import { ParamReader } from './params.js';
import type { Rec } from './store/row.js';

/** Runs one operation of a batch with its item's parameters; returns the resulting record. */
type BatchOperation = (p: ParamReader) => Rec;

interface BatchSpec {
  max: number;
  operations: Record<string, BatchOperation>;
}

const requestError = (ctx: ApiContext, message: string, parameter?: string): WireError => {
  const error: WireErrorItem = parameter === undefined ? { code: 'INVALID_PARAMETER', message } : { code: 'INVALID_PARAMETER', message, parameter };
  return new WireError(400, [error], {}, { errors: [error], request: { params: { account_id: ctx.pathParams['account_id'] } } });
};

export function runBatch(ctx: ApiContext, spec: BatchSpec): HandlerResult {
  ctx.params.finish();
  const items = ctx.json;
  if (!Array.isArray(items)) throw requestError(ctx, 'The request body must be a JSON array of operations');
  if (items.length === 0) throw requestError(ctx, 'A minimum of 1 items must be provided');
  if (items.length > spec.max) throw requestError(ctx, `A maximum of ${spec.max} items can be provided, got ${items.length}`);

  const accountId = ctx.pathParams['account_id'] ?? '';
  const data: Rec[] = [];
  const request: Rec[] = [];
  const operationErrors: WireErrorItem[][] = [];
  let failed = false;
  const types = Object.keys(spec.operations);

  for (const item of items) {
    const errors: WireErrorItem[] = [];
    const obj = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Rec) : undefined;
    const type = obj?.['operation_type'];
    const rawParams = obj?.['params'];
    const params = typeof rawParams === 'object' && rawParams !== null && !Array.isArray(rawParams) ? { ...(rawParams as Rec) } : undefined;
    const reader = new ParamReader(params ?? {}, { account_id: accountId });
    request.push({ params: reader.echo, operation_type: typeof type === 'string' ? type : null });
    if (obj === undefined) errors.push({ code: 'INVALID_PARAMETER', message: 'Each operation must be a JSON object' });
    else if (type === undefined) errors.push({ code: 'MISSING_PARAMETER', message: '"operation_type" is a required parameter', parameter: 'operation_type' });
    else if (typeof type !== 'string' || !types.includes(type)) {
      errors.push({ code: 'INVALID_PARAMETER', message: `Expected a value in ${types.join(', ')}, got ${JSON.stringify(type)} for operation_type`, parameter: 'operation_type' });
    }
    if (obj !== undefined && params === undefined) errors.push({ code: 'MISSING_PARAMETER', message: '"params" is a required parameter', parameter: 'params' });
    if (params !== undefined && 'account_id' in params) {
      if (params['account_id'] !== accountId) errors.push({ code: 'INVALID_PARAMETER', message: 'account_id must match the account in the path', parameter: 'account_id' });
      delete params['account_id'];
    }
    if (errors.length === 0) {
      try {
        const op = spec.operations[type as string]!;
        data.push(ctx.store.savepoint(() => op(reader)));
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
        errors.push(...error.items);
      }
    }
    if (errors.length > 0) failed = true;
    operationErrors.push(errors);
  }
  if (failed) throw new WireError(400, operationErrors.flat(), {}, { operation_errors: operationErrors, request });
  return { body: { data, request } };
}
