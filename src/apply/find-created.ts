/**
 * Recognising an object whose create had no answer: re-read the candidates under the same parent
 * and pick the one whose identifying fields equal what was sent, created no earlier than the
 * request (less a minute of clock skew), and not already bound to another address.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { ResourceName } from '../api/resources.js';

interface Finder {
  resource: ResourceName;
  /** The list filter and the sent parameter that fills it. */
  filter: [param: string, from: string];
  /** Fields that must be equal between the sent parameters and the record. */
  identity: string[];
  extra?: Record<string, boolean>;
}

const FINDERS: Record<string, Finder> = {
  campaign: { resource: 'campaign', filter: ['funding_instrument_ids', 'funding_instrument_id'], identity: ['name', 'funding_instrument_id'], extra: { with_draft: true } },
  line_item: { resource: 'line_item', filter: ['campaign_ids', 'campaign_id'], identity: ['campaign_id', 'name', 'product_type', 'objective'], extra: { with_draft: true } },
  targeting_criterion: { resource: 'targeting_criterion', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'targeting_type', 'targeting_value'] },
  // a promoted-only repost answers with a new tweet_id; those are matched by the repost's id in state on the next plan
  promoted_post: { resource: 'promoted_tweet', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'tweet_id'] },
  promoted_account: { resource: 'promoted_account', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'user_id'] },
  media_creative: { resource: 'media_creative', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'account_media_id'] },
  line_item_curated_category: { resource: 'line_item_curated_category', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'curated_category_id'] },
};

const SKEW_MS = 60_000;

const same = (a: unknown, b: unknown): boolean => (a ?? null) === (b ?? null) || String(a ?? '') === String(b ?? '');

/**
 * The id of the object a create of `kind` with `params` made, if the service has it.
 * `taken` holds ids already bound in state. Kinds it cannot recognise resolve to undefined.
 */
export async function findCreated(api: AdsApi, accountId: string, kind: string, params: Record<string, unknown>, sentAt: number, taken: ReadonlySet<string>): Promise<string | undefined> {
  const finder = FINDERS[kind];
  if (finder === undefined) return undefined;
  const parent = params[finder.filter[1]];
  if (parent === undefined || parent === null) return undefined;
  const records = (await api.listWhere(finder.resource, accountId, finder.filter[0], [String(parent)], finder.extra ?? {})) as unknown as Array<Record<string, unknown>>;
  const match = records.find((r) => {
    if (taken.has(String(r['id']))) return false;
    if (Date.parse(String(r['created_at'])) < sentAt - SKEW_MS) return false;
    if (kind === 'targeting_criterion' && !same(r['operator_type'] ?? 'EQ', params['operator_type'] ?? 'EQ')) return false;
    return finder.identity.every((f) => same(r[f], params[f]));
  });
  return match === undefined ? undefined : String(match['id']);
}
