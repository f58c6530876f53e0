/**
 * Refresh (`fetchLiveState`): reads what the manifests and the state cover, at the least request
 * count — list endpoints at their largest page, id filters of 200 in parallel, nothing for kinds
 * no one mentions — and notices bound objects deleted outside adsctl (they are simply absent:
 * deleted records are never listed). Read-only.
 */
import type { AdsApi } from '../api/ads-api.js';
import { ApiError } from '../api/errors.js';
import type { DesiredAccount, ResourceKind } from '../manifest/types.js';
import type { AccountState } from '../state/state-file.js';
import { fingerprintOf } from './fingerprint.js';
import { LISTED_KINDS, type ListedKind } from './listed-kinds.js';
import { readNeeds } from './read-plan.js';
import type { LiveAccount, LiveResource } from './types.js';


/**
 * Up to this many bound ids a kind is read through its id filter (one request per 200); beyond
 * it, the whole account's list is cheaper per record (one request per 1,000). Campaigns and line
 * items are always read whole: the plan checks the account's limits against every active one.
 */
const ID_FILTER_MAX = 600;
const WHOLE_ACCOUNT: ReadonlySet<ResourceKind> = new Set(['campaign', 'line_item']);

function put(live: LiveAccount, kind: ResourceKind, record: Record<string, unknown>): void {
  if (record['deleted'] === true) return;
  const id = String(record['id']);
  let byId = live.resources.get(kind);
  if (byId === undefined) {
    byId = new Map();
    live.resources.set(kind, byId);
  }
  const resource: LiveResource = { kind, id, record, fingerprint: fingerprintOf(record) };
  byId.set(id, resource);
}

export interface FetchInput {
  api: AdsApi;
  /** The account key (manifest and state). */
  account: string;
  /** The live account id; undefined when the account does not exist yet (sandbox create). */
  accountId: string | undefined;
  desired: DesiredAccount | undefined;
  state: AccountState;
}

/** Reads the live state one account's plan needs. */
export async function fetchLiveState(input: FetchInput): Promise<LiveAccount> {
  const { api, accountId } = input;
  const live: LiveAccount = { account: input.account, accountId, currencies: {}, resources: new Map(), missing: new Set(), counts: { activeCampaigns: 0, activeLineItems: 0, lineItemsByCampaign: {} } };
  if (accountId === undefined) return live;
  const needs = readNeeds(input.desired, input.state);
  // campaigns and line items are needed for the account limits whenever either is managed
  if (needs.kinds.has('line_item') && !needs.kinds.has('campaign')) needs.kinds.set('campaign', new Set());
  if (needs.kinds.has('campaign') && !needs.kinds.has('line_item')) needs.kinds.set('line_item', new Set());

  try {
    put(live, 'account', (await api.account(accountId)) as unknown as Record<string, unknown>);
  } catch (error) {
    // an account deleted outside adsctl (or by a destroy) is absent, like any other object
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    live.missing.add(accountId);
    live.accountId = undefined;
    return live;
  }
  const reads: Array<Promise<void>> = [];
  reads.push(
    api.list('funding_instrument', accountId).then((fis) => {
      for (const fi of fis) {
        live.currencies[fi.id] = fi.currency;
        put(live, 'funding_instrument', fi as unknown as Record<string, unknown>);
      }
    }),
  );
  if (needs.kinds.has('account_feature')) {
    reads.push(
      api.features(accountId).then((keys) => {
        for (const key of keys) put(live, 'account_feature', { id: key, feature_key: key });
      }),
    );
  }
  for (const [kind, spec] of Object.entries(LISTED_KINDS) as Array<[ResourceKind, ListedKind]>) {
    if (kind === 'funding_instrument') continue; // listed whole above, for the currencies
    const bound = needs.kinds.get(kind);
    if (bound === undefined) continue;
    const read =
      WHOLE_ACCOUNT.has(kind)
        ? api.list(spec.resource, accountId, spec.extra ?? {})
        : bound.size === 0
        ? Promise.resolve([])
        : bound.size <= ID_FILTER_MAX
          ? api.listWhere(spec.resource, accountId, spec.idsParam, [...bound], spec.extra ?? {})
          : api.list(spec.resource, accountId, spec.extra ?? {});
    reads.push(read.then((records) => records.forEach((r) => put(live, kind, r as unknown as Record<string, unknown>))));
  }
  await Promise.all(reads);

  const targeting = needs.kinds.get('targeting_criterion');
  if (targeting !== undefined && targeting.size > 0) {
    // only the bound line items: the account may hold many that adsctl does not manage
    const found = live.resources.get('line_item');
    const lineItems = [...(needs.kinds.get('line_item') ?? [])].filter((id) => found?.has(id) === true);
    const criteria = await api.targetingCriteria(accountId, lineItems);
    for (const c of criteria) put(live, 'targeting_criterion', c as unknown as Record<string, unknown>);
  }

  countActive(live);
  for (const [kind, ids] of needs.kinds) {
    const found = live.resources.get(kind);
    for (const id of ids) if (found?.has(id) !== true) live.missing.add(id);
  }
  return live;
}

/** Counts the account's active campaigns and line items and line items per campaign (the limits of Part A). */
function countActive(live: LiveAccount): void {
  for (const c of live.resources.get('campaign')?.values() ?? []) if (c.record['entity_status'] === 'ACTIVE') live.counts.activeCampaigns++;
  for (const li of live.resources.get('line_item')?.values() ?? []) {
    const campaign = String(li.record['campaign_id']);
    live.counts.lineItemsByCampaign[campaign] = (live.counts.lineItemsByCampaign[campaign] ?? 0) + 1;
    if (li.record['entity_status'] === 'ACTIVE') live.counts.activeLineItems++;
  }
}
