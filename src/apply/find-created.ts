/**
 * Recognising objects whose creates had no answer: re-read the candidates under the parents the
 * creates name and pick, for each, the one whose identifying fields equal what was sent, created
 * no earlier than the request (less a minute of clock skew), and not already bound to another
 * address.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { ResourceName } from '../api/resources.js';

interface Finder {
  resource: ResourceName;
  /** The list filter and the sent parameter that fills it; absent: the account's whole list (few records). */
  filter?: [param: string, from: string];
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
  funding_instrument: { resource: 'funding_instrument', identity: ['type', 'currency', 'start_time'] },
};

/** The key all creates of a kind listed over the whole account share. */
const WHOLE = '';

const SKEW_MS = 60_000;

const same = (a: unknown, b: unknown): boolean => (a ?? null) === (b ?? null) || String(a ?? '') === String(b ?? '');

/** A create whose answer never came: its kind, the parameters sent, and when (epoch ms). */
export interface SentCreate {
  kind: string;
  params: Record<string, unknown>;
  sentAt: number;
}

const parentOf = (create: SentCreate): string | undefined => {
  const finder = FINDERS[create.kind];
  if (finder === undefined) return undefined;
  if (finder.filter === undefined) return WHOLE;
  const parent = create.params[finder.filter[1]];
  return parent === undefined || parent === null ? undefined : String(parent);
};

/**
 * The ids of the objects `creates` made, where the service has them (undefined where it does
 * not, or for kinds it cannot recognise), in the order of `creates`. The candidates of a kind are
 * listed once under every parent its creates name (200 parents a request), so resolving a whole
 * lost batch, or a journal of hundreds of creates, costs a request or two per kind rather than one
 * per create. `taken` holds the ids already bound in state; each id found is added to it, so two
 * identical creates never resolve to the same object.
 */
export async function findCreatedAll(api: AdsApi, accountId: string, creates: readonly SentCreate[], taken: Set<string>): Promise<Array<string | undefined>> {
  const parents = new Map<string, Set<string>>();
  for (const create of creates) {
    const parent = parentOf(create);
    if (parent === undefined) continue;
    const set = parents.get(create.kind) ?? new Set<string>();
    set.add(parent);
    parents.set(create.kind, set);
  }
  const candidates = new Map<string, Array<Record<string, unknown>>>();
  await Promise.all(
    [...parents].map(async ([kind, ids]) => {
      const finder = FINDERS[kind]!;
      const records =
        finder.filter === undefined
          ? await api.list(finder.resource, accountId, finder.extra ?? {})
          : await api.listWhere(finder.resource, accountId, finder.filter[0], [...ids], finder.extra ?? {});
      candidates.set(kind, records as unknown as Array<Record<string, unknown>>);
    }),
  );
  return creates.map((create) => {
    const finder = FINDERS[create.kind];
    if (finder === undefined || parentOf(create) === undefined) return undefined;
    const { kind, params, sentAt } = create;
    const match = (candidates.get(kind) ?? []).find((r) => {
      if (taken.has(String(r['id']))) return false;
      if (Date.parse(String(r['created_at'])) < sentAt - SKEW_MS) return false;
      if (kind === 'targeting_criterion' && !same(r['operator_type'] ?? 'EQ', params['operator_type'] ?? 'EQ')) return false;
      return finder.identity.every((f) => same(r[f], params[f]));
    });
    if (match === undefined) return undefined;
    taken.add(String(match['id']));
    return String(match['id']);
  });
}

/**
 * The sandbox accounts a `POST accounts` with no answer may have made: it takes no parameters, so
 * the candidates are the caller's accounts created since the request that no state of these
 * manifests binds. None: it did not happen; one: that is it; more: it cannot be told.
 */
export async function createdAccountCandidates(api: AdsApi, sentAt: number, bound: ReadonlySet<string>): Promise<string[]> {
  return (await api.accounts()).filter((a) => !bound.has(a.id) && Date.parse(a.created_at) >= sentAt - SKEW_MS).map((a) => a.id);
}
