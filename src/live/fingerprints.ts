/**
 * Re-reading only the objects a saved plan touches, to tell whether any moved since the plan was
 * made: their ids listed through id filters (200 a request, in parallel), fingerprints compared.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { ResourceName } from '../api/resources.js';

const RESOURCE: Partial<Record<string, { resource: ResourceName; idsParam: string; extra?: Record<string, boolean> }>> = {
  campaign: { resource: 'campaign', idsParam: 'campaign_ids', extra: { with_draft: true } },
  line_item: { resource: 'line_item', idsParam: 'line_item_ids', extra: { with_draft: true } },
  promoted_post: { resource: 'promoted_tweet', idsParam: 'promoted_tweet_ids' },
  promoted_account: { resource: 'promoted_account', idsParam: 'promoted_account_ids' },
  media_creative: { resource: 'media_creative', idsParam: 'media_creative_ids' },
  line_item_curated_category: { resource: 'line_item_curated_category', idsParam: 'line_item_curated_category_ids' },
  funding_instrument: { resource: 'funding_instrument', idsParam: 'funding_instrument_ids' },
};

/** The current fingerprint of each id (absent when the object is gone), for ids grouped by kind. */
export async function fetchFingerprints(api: AdsApi, accountId: string, idsByKind: ReadonlyMap<string, readonly string[]>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const reads: Array<Promise<void>> = [];
  for (const [kind, ids] of idsByKind) {
    if (kind === 'account') {
      reads.push(api.account(accountId).then((a) => void out.set(a.id, a.updated_at)));
      continue;
    }
    if (kind === 'targeting_criterion' || kind === 'account_feature') continue; // no updates: a change recreates them
    const spec = RESOURCE[kind];
    if (spec === undefined) continue;
    reads.push(
      api.listWhere(spec.resource, accountId, spec.idsParam, ids, spec.extra ?? {}).then((records) => {
        for (const r of records as unknown as Array<Record<string, unknown>>) if (r['deleted'] !== true) out.set(String(r['id']), String(r['updated_at']));
      }),
    );
  }
  await Promise.all(reads);
  return out;
}
