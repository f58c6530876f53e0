/**
 * Members of owned collections made outside adsctl (src/kinds/descriptor.ts, `owned`): a live
 * targeting criterion, promoted post, promoted account or curated category of a line item the
 * manifest manages, which neither the state nor an import binds, is drift — the manifest says
 * what the collection holds as a whole — and is planned for removal, unless the line item's
 * `lifecycle.ignore_changes` names the collection. Its address is the one the manifest would
 * give it; one that an address of the manifest or the state already takes is left alone. Kinds
 * that read the same live records through other endpoints (`sameRecordsAs`) are one group here:
 * a record any of them binds or gives an address is not made outside adsctl, and an unbound one
 * is reported once, by the kind whose records they are.
 */
import { liveTargetingKey } from '../kinds/targeting-identity.js';
import { childAddress, formatAddress } from '../manifest/address.js';
import type { DesiredResource } from '../manifest/types.js';
import type { KindDescriptor } from '../kinds/descriptor.js';
import { DESCRIPTORS } from '../kinds/registry.js';
import { appliedValues } from './applied.js';
import { desiredIndex, holderKey, stateIndex, type DiffContext } from './diff-context.js';
import type { ResourceChange } from './types.js';

/** The key the manifest would give a member, from its live record. */
function memberKey(d: KindDescriptor, record: Readonly<Record<string, unknown>>): string | undefined {
  const shape = d.address;
  if (shape.key === 'targeting') return liveTargetingKey(record);
  if (shape.key === 'value') {
    const value = record[shape.field];
    return value === undefined || value === null ? undefined : String(value);
  }
  return undefined;
}

/** `d` and every kind that reads the same live records (`sameRecordsAs`), `d` first. */
function sameRecordKinds(d: KindDescriptor): KindDescriptor[] {
  const primary = d.sameRecordsAs ?? d.kind;
  return [d, ...DESCRIPTORS.filter((o) => o !== d && (o.kind === primary || o.sameRecordsAs === primary))];
}

/** The managed parents of `d`'s members (bound by state, by an import, or adopted under one), by their bound live id. */
function managedParents(ctx: DiffContext, d: KindDescriptor): Map<string, DesiredResource> {
  const parents = new Map<string, DesiredResource>();
  for (const r of ctx.input.desired.resources) {
    if (r.kind !== d.parent) continue;
    const text = formatAddress(r.address);
    const id = r.importId ?? ctx.input.state.resources[text]?.id ?? ctx.adopting.get(text);
    if (id !== undefined) parents.set(id, r);
  }
  return parents;
}

/** True when the manifest or the state gives `record` an address under `parent` as a member of kind `k`. */
function takenUnder(ctx: DiffContext, k: KindDescriptor, parent: DesiredResource, record: Readonly<Record<string, unknown>>): boolean {
  const key = memberKey(k, record);
  if (key === undefined || k.parent !== parent.kind) return false;
  const text = formatAddress(childAddress(parent.address, k.address.collection, key));
  return desiredIndex(ctx).has(text) || ctx.input.state.resources[text] !== undefined;
}

/** The removals of every unbound member of an owned collection (plan mode only). */
export function extraMembers(ctx: DiffContext): ResourceChange[] {
  const { input } = ctx;
  if (input.mode !== 'plan') return [];
  const out: ResourceChange[] = [];
  // the owned kinds share their parent kind: its managed resources are indexed once
  const parentsByKind = new Map<string, Map<string, DesiredResource>>();
  for (const d of DESCRIPTORS) {
    if (!d.owned || d.parent === undefined || d.parentField === undefined || d.sameRecordsAs !== undefined) continue;
    const records = input.live.resources.get(d.kind);
    if (records === undefined || records.size === 0) continue;
    let parents = parentsByKind.get(d.parent);
    if (parents === undefined) {
      parents = managedParents(ctx, d);
      parentsByKind.set(d.parent, parents);
    }
    const group = sameRecordKinds(d);
    for (const { id, record } of records.values()) {
      if (group.some((k) => stateIndex(ctx).has(holderKey(k.kind, id)) || ctx.imports.has(holderKey(k.kind, id)))) continue;
      const parent = parents.get(String(record[d.parentField]));
      if (parent === undefined || parent.lifecycle.ignoreChanges.includes(d.address.collection)) continue;
      const memberKeyText = memberKey(d, record);
      if (memberKeyText === undefined) continue;
      const address = childAddress(parent.address, d.address.collection, memberKeyText);
      const text = formatAddress(address);
      if (desiredIndex(ctx).has(text) || input.state.resources[text] !== undefined) continue;
      if (group.slice(1).some((k) => takenUnder(ctx, k, parent, record))) continue;
      const before = appliedValues(d.kind, record);
      out.push({
        account: input.desired.key,
        address,
        kind: d.kind,
        action: 'delete',
        id,
        before,
        after: null,
        changes: Object.entries(before).map(([path, value]) => ({ path, before: value, after: undefined, origin: 'drift', forcesReplacement: false })),
        reason: 'added_outside',
        drift: true,
        protected: false,
      });
    }
  }
  return out;
}
