/**
 * What refresh reads for imports that adopt children (docs/architecture.md, "Imports adopt
 * children"): the children of an object an import binds are read as if the object were bound,
 * and so are those of its live children, at every depth an import adopts (an imported campaign's
 * line items' criteria and promotions). The diff then picks among them the ones the manifest
 * declares. Children kept on a list read by bound ids (media creatives) are listed under those
 * parents through the kind's `find` filter. Read-only.
 */
import type { AdsApi } from '../api/ads-api.js';
import { ADOPTED, ADOPTING_PARENTS } from '../kinds/adoption.js';
import { DECISION_RANK, DESCRIPTORS } from '../kinds/registry.js';
import type { DesiredAccount, ResourceKind } from '../manifest/types.js';
import type { LiveAccount } from './types.js';

/** Live ids, by kind, of the objects whose children an import adopts. */
export type AdoptingParents = ReadonlyMap<ResourceKind, ReadonlySet<string>>;

const BY_RANK = [...DESCRIPTORS].sort((a, b) => DECISION_RANK[a.kind] - DECISION_RANK[b.kind]);

/**
 * The objects whose children an import adopts: those the manifest's imports bind, then, kind
 * after kind from parents down, the live records already read under them. Empty (and nothing
 * computed) when no import binds a parent of an adopted kind.
 */
export function adoptingParents(desired: DesiredAccount | undefined, live: LiveAccount): AdoptingParents {
  const out = new Map<ResourceKind, Set<string>>();
  for (const r of desired?.resources ?? []) {
    if (r.importId === undefined || !ADOPTING_PARENTS.has(r.kind)) continue;
    const ids = out.get(r.kind) ?? new Set<string>();
    ids.add(r.importId);
    out.set(r.kind, ids);
  }
  if (out.size === 0) return out;
  for (const d of BY_RANK) {
    if (!ADOPTED.has(d.kind) || !ADOPTING_PARENTS.has(d.kind) || d.parent === undefined || d.parentField === undefined) continue;
    const parents = out.get(d.parent);
    if (parents === undefined) continue;
    const ids = out.get(d.kind) ?? new Set<string>();
    for (const r of live.resources.get(d.kind)?.values() ?? []) if (parents.has(String(r.record[d.parentField]))) ids.add(r.id);
    if (ids.size > 0) out.set(d.kind, ids);
  }
  return out;
}

/**
 * The children read by bound ids only (a list `ids` scope) under the adopting parents, for the
 * kinds the manifest declares (`declared`): one filtered list of the kind's `find` resource each.
 */
export async function readAdoptedChildren(api: AdsApi, accountId: string, declared: ReadonlySet<ResourceKind>, adopting: AdoptingParents): Promise<Array<[ResourceKind, Array<Record<string, unknown>>]>> {
  const reads: Array<Promise<[ResourceKind, Array<Record<string, unknown>>]>> = [];
  for (const d of DESCRIPTORS) {
    const parents = d.parent === undefined ? undefined : adopting.get(d.parent);
    const filter = d.find?.filter;
    if (parents === undefined || !declared.has(d.kind) || !ADOPTED.has(d.kind) || d.read.via !== 'list' || d.read.scope !== 'ids') continue;
    if (d.find === undefined || filter === undefined || filter[1] !== d.parentField) continue;
    const { resource, flags } = d.find;
    reads.push(api.listWhere(resource, accountId, filter[0], [...parents], flags ?? {}).then((records) => [d.kind, records as unknown as Array<Record<string, unknown>>]));
  }
  return Promise.all(reads);
}
