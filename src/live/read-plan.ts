/**
 * Which reads a refresh needs: the kinds the manifest or the state mention, and for each the ids
 * the state binds, and the objects a value targets by raw id (a CUSTOM_AUDIENCE criterion's
 * audience: the plan checks the service will target it). A kind nobody mentions is not read at all.
 */
import { KINDS } from '../kinds/registry.js';
import type { DesiredAccount, ResourceKind } from '../manifest/types.js';
import type { AccountState } from '../state/state-file.js';

interface ReadNeeds {
  /** Kinds to read, with the ids bound to them (state and import entries). */
  kinds: Map<ResourceKind, Set<string>>;
}

/** Collects the kinds and bound ids a refresh of this account must read. */
export function readNeeds(desired: DesiredAccount | undefined, state: AccountState): ReadNeeds {
  const kinds = new Map<ResourceKind, Set<string>>();
  const need = (kind: ResourceKind): Set<string> => {
    let ids = kinds.get(kind);
    if (ids === undefined) {
      ids = new Set();
      kinds.set(kind, ids);
    }
    return ids;
  };
  for (const r of desired?.resources ?? []) {
    const ids = need(r.kind);
    if (r.importId !== undefined) ids.add(r.importId);
    const target = KINDS[r.kind].targets?.(r.attributes);
    const targetId = target === undefined ? undefined : r.attributes[target.field];
    if (target !== undefined && typeof targetId === 'string') need(target.kind).add(targetId);
  }
  for (const s of Object.values(state.resources)) need(s.kind as ResourceKind).add(s.id);
  return { kinds };
}
