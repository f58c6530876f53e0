/**
 * Batch writes: operations cut to the endpoint's limit (40 campaigns, 40 line items, 500
 * targeting criteria), one request per chunk, and every answer mapped back to the caller's item.
 * A batch is all-or-nothing on the service: when one item is refused, its chunk's other items are
 * reported as not applied (`rejectedBy: 'sibling'`) so the caller can send them again.
 */
import type { ApiClient } from './client.js';
import { ApiError, errorItems, type ApiErrorItem } from './errors.js';
import { chunk } from './pagination.js';

type OperationType = 'Create' | 'Update' | 'Delete';

export interface BatchOperation {
  operation_type: OperationType;
  params: Record<string, unknown>;
}

export type BatchResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: ApiError; rejectedBy: 'own' | 'sibling' | 'request' };

interface BatchTarget {
  /** e.g. `/12/batch/accounts/abc/campaigns` */
  path: string;
  endpoint: string;
  accountId: string;
  limit: number;
}

/** Sends `operations` in chunks of `target.limit`; resolves with one result per operation, in order. */
export async function runBatches<T>(client: ApiClient, target: BatchTarget, operations: readonly BatchOperation[]): Promise<Array<BatchResult<T>>> {
  const parts = chunk(operations, target.limit);
  const results = await Promise.all(parts.map((ops) => sendChunk<T>(client, target, ops)));
  return results.flat();
}

async function sendChunk<T>(client: ApiClient, target: BatchTarget, ops: BatchOperation[]): Promise<Array<BatchResult<T>>> {
  const creates = ops.some((op) => op.operation_type === 'Create');
  try {
    const res = await client.send<{ data: T[] }>({
      method: 'POST',
      path: target.path,
      json: ops,
      endpoint: target.endpoint,
      accountId: target.accountId,
      idempotent: !creates,
    });
    return ops.map((_, i) => ({ ok: true, data: res.body.data[i] as T }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const perItem = operationErrors(error);
    if (perItem === undefined || perItem.length !== ops.length) return ops.map(() => ({ ok: false, error, rejectedBy: 'request' }));
    return perItem.map((items) =>
      items.length > 0
        ? { ok: false, error: new ApiError({ status: error.status, items, retryable: false, outcome: 'rejected', request: error.request }), rejectedBy: 'own' }
        : {
            ok: false,
            error: new ApiError({ status: error.status, items: [{ code: 'BATCH_REJECTED', message: 'not applied: another operation of the same batch was refused' }], retryable: true, outcome: 'rejected', request: error.request }),
            rejectedBy: 'sibling',
          },
    );
  }
}

/** The `operation_errors` slots of a failed batch, if the error body had them. */
function operationErrors(error: ApiError): ApiErrorItem[][] | undefined {
  const body = error.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const slots = (body as { operation_errors?: unknown }).operation_errors;
  if (!Array.isArray(slots)) return undefined;
  return slots.map((slot) => (Array.isArray(slot) && slot.length > 0 ? errorItems({ errors: slot }, error.status) : []));
}
