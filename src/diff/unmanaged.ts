/**
 * Objects that spend money in a managed account without adsctl knowing them (docs/manifest.md,
 * "Objects not managed by adsctl"): the kinds that serve (their descriptors' `serving`: campaigns,
 * line items) whose live records no state entry, import or change binds — under the account
 * itself, every one; under another serving kind, only those of a parent adsctl manages (the
 * children of an unmanaged parent come with it). An object is new, and so drift, when the state
 * did not record it as unmanaged at the last apply (`unmanaged_seen`); one recorded then is
 * listed again but is not new. Whether each serves is the caller's judgement. Pure: reads the
 * refresh, the state and the diff's changes.
 */
import type { KindDescriptor } from '../kinds/descriptor.js';
import { DESCRIPTORS, KINDS, ROOT_KIND } from '../kinds/registry.js';
import type { ChangeAttribution } from '../live/attribution.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount, ResourceKind } from '../manifest/types.js';
import type { AccountState } from '../state/state-file.js';
import { DEFAULT_CURRENCY, recordCurrency } from './currency.js';
import { holderKey } from './diff-context.js';
import type { ResourceChange } from './types.js';

/** One live object adsctl does not manage, as the plan lists it. */
export interface UnmanagedObject {
  kind: ResourceKind;
  id: string;
  name: string | null;
  /** Its serving field's value (`entity_status`). */
  status: string | null;
  /** The id of the parent it sits under; null under the account. */
  parentId: string | null;
  /** The address adsctl manages that parent at; null under the account. */
  parentAddress: string | null;
  dailyBudgetMicros: number | null;
  /** It serves by the rule of serving spend (docs/manifest.md, "Spend"): its budget counts as spend; otherwise it is dormant. */
  serves: boolean;
  /** The currency of its money. */
  currency: string;
  /** Not recorded as unmanaged at the last apply: drift. */
  new: boolean;
  /** On a new one: who made or changed it, newest first, from the account history, when read. */
  attribution?: ChangeAttribution[];
}

interface UnmanagedInput {
  desired: DesiredAccount;
  live: LiveAccount;
  state: AccountState;
  /** The diff's changes: an import, or a child an import adopts, binds the id its change carries. */
  changes: readonly ResourceChange[];
  /** Whether a live object serves (src/plan/serving-spend.ts, `liveServes`). */
  serves: (kind: ResourceKind, id: string) => boolean;
}

/** The kinds listed when nobody manages them: those that serve, parents before children. */
const SPENDING: readonly KindDescriptor[] = DESCRIPTORS.filter((d) => d.serving !== undefined && d.parent !== undefined);

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The address of each id adsctl binds, by `holderKey`: the state's, the manifest's imports and every change's. */
function boundIds(input: UnmanagedInput): Map<string, string> {
  const bound = new Map<string, string>();
  const { resources } = input.state;
  for (const address in resources) {
    const s = resources[address]!;
    bound.set(holderKey(s.kind, s.id), address);
  }
  let imported = false;
  for (const r of input.desired.resources) {
    if (r.importId === undefined) continue;
    bound.set(holderKey(r.kind, r.importId), formatAddress(r.address));
    imported = true;
  }
  for (const c of input.changes) {
    if (c.id === undefined) continue;
    // most changes keep the object their state entry binds at the same address, as bound above
    const address = formatAddress(c.address);
    if (imported || resources[address]?.id !== c.id) bound.set(holderKey(c.kind, c.id), address);
  }
  return bound;
}

/** The unmanaged objects of one account, campaigns first, then line items by campaign; each by name, then id. */
export function findUnmanaged(input: UnmanagedInput): UnmanagedObject[] {
  const bound = boundIds(input);
  const out: UnmanagedObject[] = [];
  for (const d of SPENDING) {
    const records = input.live.resources.get(d.kind);
    if (records === undefined) continue;
    const parent = d.parent === ROOT_KIND.kind ? undefined : d.parent;
    const seen = new Set(input.state.unmanaged_seen?.[d.kind] ?? []);
    const listed: UnmanagedObject[] = [];
    for (const { id, record } of records.values()) {
      if (bound.has(holderKey(d.kind, id))) continue;
      let parentId: string | null = null;
      let parentAddress: string | null = null;
      let parentRecord: Record<string, unknown> | undefined;
      if (parent !== undefined) {
        parentId = text(record[d.parentField ?? '']);
        parentAddress = parentId === null ? null : (bound.get(holderKey(parent, parentId)) ?? null);
        if (parentAddress === null || parentId === null) continue;
        parentRecord = input.live.resources.get(parent)?.get(parentId)?.record;
      }
      const daily = d.budgets === undefined ? undefined : record[d.budgets.daily];
      listed.push({
        kind: d.kind,
        id,
        name: text(record['name']),
        status: text(record[KINDS[d.kind].serving?.field ?? '']),
        parentId,
        parentAddress,
        dailyBudgetMicros: typeof daily === 'number' ? daily : null,
        serves: input.serves(d.kind, id),
        currency: recordCurrency(record, input.live) ?? recordCurrency(parentRecord, input.live) ?? DEFAULT_CURRENCY,
        new: !seen.has(id),
      });
    }
    listed.sort((a, b) => order(a.parentId ?? '', b.parentId ?? '') || order(a.name ?? '', b.name ?? '') || order(a.id, b.id));
    out.push(...listed);
  }
  return out;
}

const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What the state records as seen at an apply: the ids of `unmanaged`, and of the objects of those
 * kinds that the apply stops managing while they stay live (`released`: released by the plan, or
 * named by a `removed` entry), by kind, sorted; undefined when there are none.
 */
export function seenRecord(unmanaged: readonly UnmanagedObject[], released: ReadonlyArray<{ kind: string; id: string }>): Record<string, string[]> | undefined {
  const byKind: Record<string, string[]> = {};
  for (const u of unmanaged) (byKind[u.kind] ??= []).push(u.id);
  const spending = new Set<string>(SPENDING.map((d) => d.kind));
  for (const r of released) if (spending.has(r.kind)) (byKind[r.kind] ??= []).push(r.id);
  const kinds = Object.keys(byKind);
  if (kinds.length === 0) return undefined;
  return Object.fromEntries(kinds.sort(order).map((k) => [k, [...new Set(byKind[k])].sort(order)]));
}
