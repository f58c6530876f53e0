/**
 * What the service would refuse and the plan can know, checked before anything is written, each
 * at the manifest position of the value at fault: every attribute a kind's descriptor marks
 * required on create, for the resources the plan creates (a line item without `start_time`
 * passed validate and plan, and apply then created its funding instrument and campaign before the
 * service refused it), but for one read from a file the manifest names (a membership's members),
 * whose reading reported its own failure; the kind's rules across fields, on the values each
 * created or updated object will have (the manifest's over the live ones); and the times the
 * service takes only in the future (a scheduled post's `scheduled_at`), where a write sends
 * them: by the time of the plan, on the run's clock (a post scheduled for a time past created the
 * rest of the funnel before the service refused it).
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

/** The times of `change` a write sends that the service takes only after `now`, at or before it: field and value. */
function timesPast(change: ResourceChange, now: Date): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const a of KINDS[change.kind].attributes) {
    if (a.future !== true) continue;
    const value = change.action === 'update' ? change.changes.find((c) => c.path === a.field)?.after : change.after?.[a.field];
    if (typeof value !== 'string') continue;
    const at = Date.parse(value);
    if (Number.isFinite(at) && at <= now.getTime()) out.push([a.field, value]);
  }
  return out;
}

/** Every problem the descriptors' required fields, rules and future times find in one account's changes (times only when `now` is given). */
export function checkRules(changes: readonly ResourceChange[], desired: DesiredAccount | undefined, live: LiveAccount, now?: Date): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const change of changes) {
    if (change.action !== 'create' && change.action !== 'replace' && change.action !== 'update') continue;
    const d = KINDS[change.kind];
    const after = change.after ?? {};
    const address = formatAddress(change.address);
    if (change.action !== 'update') {
      const missing = d.attributes
        .filter((a) => a.requiredOnCreate === true && (after[a.field] === undefined || after[a.field] === null) && (a.readFrom === undefined || after[a.readFrom] === undefined))
        .map((a) => manifestName(change, a.field));
      if (missing.length > 0) {
        out.push(errorAt('missing-required', `${address}: the service creates no ${d.noun} without ${missing.join(' and ')}; set ${missing.length === 1 ? 'it' : 'them'} in the manifest`, sourceOf(desired, change, '')));
      }
    }
    if (now !== undefined) {
      for (const [field, value] of timesPast(change, now)) {
        const shown = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
        out.push(errorAt('time-past', `${address}: ${manifestName(change, field)} ${value} is not in the future (it is ${shown}), and the service takes only a later time; move it later`, sourceOf(desired, change, field)));
      }
    }
    if (d.rules === undefined) continue;
    const record = change.id === undefined ? undefined : live.resources.get(change.kind)?.get(change.id)?.record;
    const values = change.action === 'update' ? { ...(record ?? {}), ...after } : after;
    for (const problem of d.rules(values)) out.push(errorAt(problem.code, `${address}: ${problem.message}`, sourceOf(desired, change, problem.field)));
  }
  return out;
}
