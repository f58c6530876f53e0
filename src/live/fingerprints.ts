/**
 * Re-reading only the objects a saved plan touches, to tell whether any moved since the plan was
 * made: their ids listed through id filters (200 a request, in parallel), fingerprints compared.
 */
import type { AdsApi } from '../api/ads-api.js';
import { fingerprintOf } from './fingerprint.js';
import { isResourceKind, KINDS } from '../kinds/registry.js';


/** The current fingerprint of each id (absent when the object is gone), for ids grouped by kind. */
export async function fetchFingerprints(api: AdsApi, accountId: string, idsByKind: ReadonlyMap<string, readonly string[]>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const reads: Array<Promise<void>> = [];
  for (const [kind, ids] of idsByKind) {
    const spec = isResourceKind(kind) ? KINDS[kind].read : undefined;
    if (spec?.via === 'account') {
      reads.push(api.account(accountId).then((a) => void out.set(a.id, fingerprintOf(a as unknown as Record<string, unknown>))));
      continue;
    }
    if (spec?.via === 'custom') {
      // a nested kind's reader needs its parents, which a saved plan does not name; the top-level ones (cards, media, posts) are read by their ids
      if (!isResourceKind(kind) || (KINDS[kind].parent ?? 'account') !== 'account') continue;
      const idField = spec.idField ?? 'id';
      reads.push(
        spec.read(api, accountId, { bound: new Set(ids), parents: [] }).then((records) => {
          for (const r of records) if (r['deleted'] !== true) out.set(String(r[idField]), fingerprintOf(r));
        }),
      );
      continue;
    }
    // kinds that cannot be read by their own ids are never updated in place either: not checked
    if (spec?.via !== 'list' || spec.required === true) continue;
    reads.push(
      api.listWhere(spec.resource, accountId, spec.idsParam, ids, spec.flags ?? {}).then((records) => {
        for (const r of records as unknown as Array<Record<string, unknown>>) if (r['deleted'] !== true) out.set(String(r['id']), fingerprintOf(r));
      }),
    );
  }
  await Promise.all(reads);
  return out;
}
