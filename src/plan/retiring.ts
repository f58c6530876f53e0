/**
 * The serving objects a plan takes down: every change that deletes or replaces an object of a
 * kind with `serving` (campaigns, line items), with its serving status and flight end as the
 * live record has them, and whether it serves (`serving`, the addresses serving-spend.ts finds
 * serving before the plan: an ACTIVE line item under a paused campaign does not). The plan carries them (`AccountPlan.retiring`) so that the
 * `protect_serving` guardrail judges a saved plan by what the service showed when it was made,
 * as it judges a fresh one; a replacement's `before` holds only the fields the manifest manages.
 */
import type { ResourceChange } from '../diff/types.js';
import { KINDS } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { RetiringObject } from './types.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The objects of serving kinds that `changes` delete or replace, in change order. */
export function retiringObjects(changes: readonly ResourceChange[], live: LiveAccount, serving: ReadonlySet<string>): RetiringObject[] {
  const out: RetiringObject[] = [];
  for (const change of changes) {
    const descriptor = KINDS[change.kind];
    const spec = descriptor.serving;
    if (spec === undefined || (change.action !== 'delete' && change.action !== 'replace')) continue;
    const record = change.id === undefined ? undefined : live.resources.get(change.kind)?.get(change.id)?.record;
    const status = text(record?.[spec.field]) ?? text(change.before?.[spec.field]);
    const endField = descriptor.flight?.end;
    const end = endField === undefined ? null : (text(record?.[endField]) ?? text(change.before?.[endField]));
    const address = formatAddress(change.address);
    out.push({ address, status, end, serves: serving.has(address) });
  }
  return out;
}
