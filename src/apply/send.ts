/**
 * One kind's writes through the API: batch endpoints for campaigns, line items and targeting
 * criteria, one comma list for account features, 50 post ids a promoted-posts POST, and single
 * requests for the rest. Each function returns one outcome per operation, in order.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { BatchOperation } from '../api/batch.js';
import { ApiError } from '../api/errors.js';
import type { ResourceName } from '../api/resources.js';
import type { Operation } from '../plan/types.js';

/** What became of one operation. */
export type Outcome =
  | { status: 'ok'; id: string }
  | { status: 'failed'; error: ApiError }
  /** Not applied because another operation of its batch failed: safe to send again. */
  | { status: 'retry' }
  /** The request got no answer: the operation may or may not have happened. */
  | { status: 'unknown'; error: ApiError };

/** The API resource behind each manifest kind that has its own endpoints. */
export const RESOURCE_OF: Partial<Record<string, ResourceName>> = {
  campaign: 'campaign',
  line_item: 'line_item',
  targeting_criterion: 'targeting_criterion',
  promoted_post: 'promoted_tweet',
  promoted_account: 'promoted_account',
  media_creative: 'media_creative',
  line_item_curated_category: 'line_item_curated_category',
  funding_instrument: 'funding_instrument',
};

const ID_PARAM: Record<string, string> = { campaign: 'campaign_id', line_item: 'line_item_id', targeting_criterion: 'targeting_criterion_id' };
const OPERATION_TYPE = { create: 'Create', update: 'Update', delete: 'Delete' } as const;

const failure = (error: unknown): Outcome => {
  if (!(error instanceof ApiError)) throw error;
  return error.outcome === 'unknown' ? { status: 'unknown', error } : { status: 'failed', error };
};

/** A delete of something already gone is done. */
const alreadyGone = (op: Operation, error: unknown): boolean => op.action === 'delete' && error instanceof ApiError && error.status === 404;

/** Sends operations of one kind through its batch endpoint. */
export async function sendBatch(api: AdsApi, accountId: string, kind: string, ops: readonly Operation[], params: ReadonlyArray<Record<string, unknown>>): Promise<Outcome[]> {
  const resource = RESOURCE_OF[kind]!;
  const idParam = ID_PARAM[kind]!;
  const items: BatchOperation[] = ops.map((op, i) => ({
    operation_type: OPERATION_TYPE[op.action],
    params: op.action === 'create' ? { ...params[i] } : op.action === 'update' ? { ...params[i], [idParam]: op.id } : { [idParam]: op.id },
  }));
  const results = await api.batch(resource, accountId, items);
  return results.map((r, i): Outcome => {
    if (r.ok) return { status: 'ok', id: String((r.data as unknown as { id: string }).id) };
    if (r.rejectedBy === 'sibling') return { status: 'retry' };
    if (alreadyGone(ops[i]!, r.error)) return { status: 'ok', id: ops[i]!.id ?? '' };
    return r.error.outcome === 'unknown' ? { status: 'unknown', error: r.error } : { status: 'failed', error: r.error };
  });
}

/** Adds or removes account features: one request for every key. */
export async function sendFeatures(api: AdsApi, accountId: string, ops: readonly Operation[], keys: readonly string[]): Promise<Outcome[]> {
  try {
    await api.changeFeatures(accountId, ops[0]!.action === 'delete' ? 'DELETE' : 'POST', keys);
    return keys.map((k) => ({ status: 'ok', id: k }));
  } catch (error) {
    const outcome = failure(error);
    return ops.map(() => outcome);
  }
}

/** Promotes posts on one line item, 50 post ids a request; outcomes in the order of `ops`. */
export async function sendPromote(api: AdsApi, accountId: string, lineItemId: string, ops: readonly Operation[], tweetIds: readonly string[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < ops.length; i += 50) {
    const part = tweetIds.slice(i, i + 50);
    try {
      const created = await api.promoteTweets(accountId, lineItemId, part);
      part.forEach((_, j) => {
        const record = created[j];
        outcomes.push(record === undefined ? { status: 'failed', error: new ApiError({ status: 200, items: [{ code: 'NOT_PROMOTED', message: 'the service promoted fewer posts than sent' }], retryable: false, outcome: 'rejected', request: 'POST promoted_tweets' }) } : { status: 'ok', id: record.id });
      });
    } catch (error) {
      const outcome = failure(error);
      for (const _ of part) outcomes.push(outcome);
    }
  }
  return outcomes;
}

/** One request per operation (in parallel, bounded by the client). */
export async function sendSingles(api: AdsApi, accountId: string, kind: string, ops: readonly Operation[], params: ReadonlyArray<Record<string, unknown>>): Promise<Outcome[]> {
  return Promise.all(
    ops.map(async (op, i): Promise<Outcome> => {
      try {
        return { status: 'ok', id: await sendOne(api, accountId, kind, op, params[i]!) };
      } catch (error) {
        if (alreadyGone(op, error)) return { status: 'ok', id: op.id ?? '' };
        return failure(error);
      }
    }),
  );
}

async function sendOne(api: AdsApi, accountId: string, kind: string, op: Operation, params: Record<string, unknown>): Promise<string> {
  // planned parameters come from manifests the manifest schema validated, in API field names
  const p = params as never;
  if (kind === 'account') {
    // the command creates a new sandbox account before applying; its "create" sets its fields
    if (op.action === 'delete') return (await api.deleteSandboxAccount(accountId)).id;
    if (Object.keys(params).length === 0) return accountId;
    return (await api.updateAccount(accountId, p)).id;
  }
  if (kind === 'funding_instrument') {
    if (op.action === 'create') {
      const { id: _existing, ...fields } = params;
      return (await api.createSandboxFundingInstrument(accountId, fields as never)).id;
    }
    if (op.action === 'delete') return (await api.deleteSandboxFundingInstrument(accountId, op.id!)).id;
    throw new Error('funding instruments cannot be updated');
  }
  const resource = RESOURCE_OF[kind];
  if (resource === undefined) throw new Error(`no endpoint for ${kind}`);
  if (op.action === 'create') return String((await api.create(resource, accountId, p)).id);
  if (op.action === 'update') return String((await api.update(resource, accountId, op.id!, p)).id);
  return String((await api.delete(resource, accountId, op.id!)).id);
}
