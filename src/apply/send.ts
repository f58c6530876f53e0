/**
 * Sending one chunk of a step through the kind's write endpoint (src/kinds/descriptor.ts,
 * `WriteEndpoint`) and turning every answer into an outcome per operation, in order: a batch maps
 * `operation_errors` back to its items, a grouped POST maps the records it answers back to the
 * items it sent and a refusal to the items its errors name, a comma list succeeds or fails as one,
 * single requests answer one each. An error is never pinned on an item the service did not name.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { BatchOperation } from '../api/batch.js';
import { ApiError } from '../api/errors.js';
import type { WriteContext, WriteEndpoint, WriteItem } from '../kinds/descriptor.js';
import { KINDS } from '../kinds/registry.js';
import type { Operation } from '../plan/types.js';

/** What became of one operation. */
export type Outcome =
  | { status: 'ok'; id: string }
  | { status: 'failed'; error: ApiError }
  /** Not applied because another operation of its batch failed: safe to send again. */
  | { status: 'retry' }
  /** The request got no answer: the operation may or may not have happened. */
  | { status: 'unknown'; error: ApiError };

const OPERATION_TYPE = { create: 'Create', update: 'Update', delete: 'Delete' } as const;

const failure = (error: unknown): Outcome => {
  if (!(error instanceof ApiError)) throw error;
  return error.outcome === 'unknown' ? { status: 'unknown', error } : { status: 'failed', error };
};

/** A delete of something already gone is done. */
const alreadyGone = (op: Operation, error: unknown): boolean => op.action === 'delete' && error instanceof ApiError && error.status === 404;

const notTaken = (request: string): ApiError =>
  new ApiError({ status: 200, items: [{ code: 'NOT_TAKEN', message: 'the service answered fewer records than were sent' }], retryable: false, outcome: 'rejected', request });

/** The id of an item of a comma list: its id for a delete, else the identity attribute it adds (a feature's key). */
function itemKey(op: Operation, item: WriteItem): string {
  const identity = KINDS[op.kind].attributes.find((a) => a.identity === true)?.field;
  return op.id ?? String(identity === undefined ? '' : (item.params[identity] ?? ''));
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `message` names `key` as a whole word (`Tweet 123 was not found` names 123, not 12). */
const names = (message: string, key: string): boolean => key !== '' && new RegExp(`(?<![\\w-])${escape(key)}(?![\\w-])`).test(message);

/**
 * The outcomes of a grouped request the service refused. A grouped POST carries several items in
 * one list parameter (post ids of one line item) and the service answers a refusal as one error
 * body, whose errors name the items they are about (`Tweet 123 was not found`). The items named
 * failed, each with the errors that name it; the others were refused only because they came in
 * the same request, and are sent again without them. When no error names an item (the parent
 * was refused, no answer, a server error), every item has the request's outcome.
 */
function refusedGroup(endpoint: { by: string }, ops: readonly Operation[], items: readonly WriteItem[], error: unknown): Outcome[] {
  const outcome = failure(error);
  if (outcome.status !== 'failed' || outcome.error.status < 400 || outcome.error.status >= 500) return ops.map(() => outcome);
  const refused = outcome.error;
  const own = ops.map((op, i) => refused.items.filter((e) => e.parameter !== endpoint.by && names(e.message, itemKey(op, items[i]!))));
  if (own.every((errors) => errors.length === 0)) return ops.map(() => outcome);
  return own.map((errors): Outcome =>
    errors.length === 0 ? { status: 'retry' } : { status: 'failed', error: new ApiError({ status: refused.status, items: errors, retryable: false, outcome: 'rejected', request: refused.request, body: refused.body }) },
  );
}

/**
 * Sends `ops` (their resolved parameters in `params`) through `endpoint` for the account; resolves
 * with one outcome per operation, in order.
 */
export async function sendChunk(api: AdsApi, accountId: string, endpoint: WriteEndpoint, ops: readonly Operation[], params: ReadonlyArray<Record<string, unknown>>, ctx: WriteContext): Promise<Outcome[]> {
  const items: WriteItem[] = ops.map((op, i) => ({ ...(op.id === undefined ? {} : { id: op.id }), params: params[i] ?? {}, address: op.address }));
  switch (endpoint.via) {
    case 'batch': {
      const batch: BatchOperation[] = ops.map((op, i) => ({
        operation_type: OPERATION_TYPE[op.action],
        params: op.action === 'create' ? { ...items[i]!.params } : op.action === 'update' ? { ...items[i]!.params, [endpoint.idParam]: op.id } : { [endpoint.idParam]: op.id },
      }));
      const results = await api.batch(endpoint.resource, accountId, batch);
      return results.map((r, i): Outcome => {
        if (r.ok) return { status: 'ok', id: String((r.data as unknown as { id: string }).id) };
        if (r.rejectedBy === 'sibling') return { status: 'retry' };
        if (alreadyGone(ops[i]!, r.error)) return { status: 'ok', id: ops[i]!.id ?? '' };
        return r.error.outcome === 'unknown' ? { status: 'unknown', error: r.error } : { status: 'failed', error: r.error };
      });
    }
    case 'list':
      try {
        await endpoint.send(api, accountId, items);
        return ops.map((op, i) => ({ status: 'ok', id: itemKey(op, items[i]!) }));
      } catch (error) {
        const outcome = failure(error);
        return ops.map(() => outcome);
      }
    case 'grouped':
      try {
        const ids = await endpoint.send(api, accountId, String(items[0]?.params[endpoint.by] ?? ''), items);
        return ids.map((id): Outcome => (id === undefined ? { status: 'failed', error: notTaken(`${ops[0]?.kind ?? ''} ${ops[0]?.action ?? ''}`) } : { status: 'ok', id }));
      } catch (error) {
        return refusedGroup(endpoint, ops, items, error);
      }
    case 'single':
      return Promise.all(
        ops.map(async (op, i): Promise<Outcome> => {
          try {
            return { status: 'ok', id: await endpoint.send(api, accountId, items[i]!, ctx) };
          } catch (error) {
            if (alreadyGone(op, error)) return { status: 'ok', id: op.id ?? '' };
            return failure(error);
          }
        }),
      );
  }
}
