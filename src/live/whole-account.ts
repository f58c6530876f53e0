/**
 * A whole account read the way refresh reads the kinds its descriptors say (src/kinds/, `read`),
 * for `adsctl generate`, which has no manifest and no state to say which objects matter: every
 * listed kind through its list endpoint at the largest page (kinds whose list needs a parent
 * filter, under every parent read), the kinds with their own reader under every parent read, or
 * through their `whole` reader when they sit under the account. A kind without a way to be read
 * whole is left out and named in `unread`. Read-only; as many requests as a refresh of every
 * object, or fewer.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { ResourceKind } from '../kinds/kind.js';
import { DESCRIPTORS } from '../kinds/registry.js';
import { fingerprintOf } from './fingerprint.js';
import type { LiveAccount, LiveResource } from './types.js';

/** A whole account, and the kinds that could not be read whole. */
interface WholeAccount {
  live: LiveAccount;
  unread: ResourceKind[];
}

function put(live: LiveAccount, kind: ResourceKind, record: Record<string, unknown>, idField = 'id'): void {
  if (record['deleted'] === true) return;
  const id = String(record[idField]);
  let byId = live.resources.get(kind);
  if (byId === undefined) {
    byId = new Map<string, LiveResource>();
    live.resources.set(kind, byId);
  }
  byId.set(id, { kind, id, record, get fingerprint() { return fingerprintOf(record); } });
}

/**
 * Reads every object of account `accountId` of the kinds `wanted` (and of those above them),
 * parents before children; `progress` is told the count of each kind as it is read.
 */
export async function fetchWholeAccount(api: AdsApi, account: string, accountId: string, wanted: ReadonlySet<ResourceKind>, progress: (kind: ResourceKind, count: number) => void = () => {}): Promise<WholeAccount> {
  const live: LiveAccount = { account, accountId, currencies: {}, resources: new Map(), missing: new Set() };
  const unread: ResourceKind[] = [];
  const idsOf = (kind: ResourceKind): string[] => [...(live.resources.get(kind)?.keys() ?? [])];
  // registry order puts a kind after the kinds it sits under
  for (const d of DESCRIPTORS) {
    if (!wanted.has(d.kind)) continue;
    const spec = d.read;
    const before = live.resources.get(d.kind)?.size ?? 0;
    if (spec.via === 'account') put(live, d.kind, (await api.account(accountId)) as unknown as Record<string, unknown>);
    else if (spec.via === 'features') (await api.features(accountId)).forEach((key) => put(live, d.kind, { id: key, feature_key: key }));
    else if (spec.via === 'list') {
      const flags = spec.flags ?? {};
      const parents = d.parent === undefined || d.parent === 'account' ? undefined : idsOf(d.parent).filter((id) => spec.parentWhere?.(live.resources.get(d.parent as ResourceKind)?.get(id)?.record ?? {}) ?? true);
      if (parents !== undefined && parents.length === 0) continue;
      const records = spec.required === true && parents !== undefined ? await api.listWhere(spec.resource, accountId, spec.parentParam ?? '', parents, flags) : await api.list(spec.resource, accountId, flags);
      const under = parents === undefined ? undefined : new Set(parents);
      for (const r of records as Array<Record<string, unknown>>) if (under === undefined || under.has(String(r[d.parentField ?? '']))) put(live, d.kind, r);
    } else if (d.parent !== undefined && d.parent !== 'account') {
      const parents = idsOf(d.parent);
      if (parents.length > 0) (await spec.read(api, accountId, { bound: new Set(parents), parents })).forEach((r) => put(live, d.kind, r, spec.idField));
    } else if (spec.whole !== undefined) (await spec.whole(api, accountId)).forEach((r) => put(live, d.kind, r, spec.idField));
    else {
      unread.push(d.kind);
      continue;
    }
    progress(d.kind, (live.resources.get(d.kind)?.size ?? 0) - before);
  }
  // the kinds read always give every amount its currency (funding instruments), as in a refresh
  for (const d of DESCRIPTORS) {
    if (d.read.via !== 'list' || d.read.always !== true) continue;
    for (const r of live.resources.get(d.kind)?.values() ?? []) if (typeof r.record['currency'] === 'string') live.currencies[r.id] = r.record['currency'];
  }
  return { live, unread };
}
