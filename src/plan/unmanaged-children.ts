/**
 * The objects adsctl does not manage (src/diff/unmanaged.ts) under one a plan deletes or
 * replaces: a line item made by hand in a campaign `destroy` deletes. What the deletion does to
 * each is its kind's descriptor's word (`retiredWithParent`, from the spec): it goes with its
 * parent, or stays — for a campaign's line items the spec describes no cascade, so they stay,
 * under a deleted campaign that no later plan reads. Named in the plan so they do not vanish from
 * every report unseen. Pure.
 */
import type { ResourceChange } from '../diff/types.js';
import type { UnmanagedObject } from '../diff/unmanaged.js';
import { KINDS, ROOT_KIND } from '../kinds/registry.js';
import { formatAddress } from '../manifest/address.js';
import type { UnmanagedChild } from './types.js';

/** The unmanaged objects of `unmanaged` whose parent `changes` delete (a replacement deletes its old object too), in their order. */
export function unmanagedChildren(changes: readonly ResourceChange[], unmanaged: readonly UnmanagedObject[]): UnmanagedChild[] {
  const deleted = new Set(changes.filter((c) => c.action === 'delete' || c.action === 'replace').map((c) => formatAddress(c.address)));
  if (deleted.size === 0) return [];
  const out: UnmanagedChild[] = [];
  for (const u of unmanaged) {
    // an object under the account itself sits under the account's address
    const parent = u.parentAddress ?? (KINDS[u.kind].parent === ROOT_KIND.kind ? ROOT_KIND.kind : undefined);
    if (parent === undefined || !deleted.has(parent)) continue;
    out.push({
      kind: u.kind,
      id: u.id,
      name: u.name,
      status: u.status,
      parentId: u.parentId,
      parentAddress: parent,
      dailyBudgetMicros: u.dailyBudgetMicros,
      currency: u.currency,
      serves: u.serves,
      withParent: KINDS[u.kind].retiredWithParent ? 'goes' : 'stays',
    });
  }
  return out;
}
