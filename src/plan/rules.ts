/**
 * What the service would refuse and the plan can know, checked before anything is written, each
 * at the manifest position of the value at fault: every attribute a kind's descriptor marks
 * required on create, for the resources the plan creates (a line item without `start_time`
 * passed validate and plan, and apply then created its funding instrument and campaign before the
 * service refused it), and the kind's rules across fields, on the values each created or updated
 * object will have (the manifest's over the live ones).
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { ResourceChange } from '../diff/types.js';
import { ignorableFields, KINDS } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount } from '../manifest/types.js';
import { sourceOf } from './source-of.js';

/** The name a manifest uses for an API field of a kind (`daily_budget`, `funding_instrument`), for messages. */
function manifestName(change: ResourceChange, field: string): string {
  for (const [name, api] of ignorableFields(KINDS[change.kind])) if (api === field && name !== field) return name;
  return field;
}

/** Every problem the descriptors' required fields and rules find in one account's changes. */
export function checkRules(changes: readonly ResourceChange[], desired: DesiredAccount | undefined, live: LiveAccount): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const change of changes) {
    if (change.action !== 'create' && change.action !== 'replace' && change.action !== 'update') continue;
    const d = KINDS[change.kind];
    const after = change.after ?? {};
    const address = formatAddress(change.address);
    if (change.action !== 'update') {
      const missing = d.attributes.filter((a) => a.requiredOnCreate === true && (after[a.field] === undefined || after[a.field] === null)).map((a) => manifestName(change, a.field));
      if (missing.length > 0) {
        out.push(errorAt('missing-required', `${address}: the service creates no ${d.noun} without ${missing.join(' and ')}; set ${missing.length === 1 ? 'it' : 'them'} in the manifest`, sourceOf(desired, change, '')));
      }
    }
    if (d.rules === undefined) continue;
    const record = change.id === undefined ? undefined : live.resources.get(change.kind)?.get(change.id)?.record;
    const values = change.action === 'update' ? { ...(record ?? {}), ...after } : after;
    for (const problem of d.rules(values)) out.push(errorAt(problem.code, `${address}: ${problem.message}`, sourceOf(desired, change, problem.field)));
  }
  return out;
}
