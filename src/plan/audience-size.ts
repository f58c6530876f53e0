/**
 * The plan's audience size check. The service targets an object only once it matches the users
 * its kind's descriptor says (`targetable`: a custom audience, 100), and refuses a value that
 * targets one too small (`targets`: a CUSTOM_AUDIENCE criterion) — at apply, after other writes
 * went out. So every such value the plan creates is refused at its manifest position when its
 * target will still be too small once the apply is done:
 * - an object of the manifest whose member file holds fewer valid distinct identifiers (the file
 *   is shown as a related position);
 * - a new object without members (no member file);
 * - a live object the service reports not targetable for its size, whose members this plan does
 *   not set (no member file in the manifest, or named by raw id).
 * A value already in place is refused when the plan's own upload leaves its target too small;
 * when the target is too small already and the plan does not change that, it is a warning.
 */
import { errorAt, warningAt, type Diagnostic, type RelatedLocation } from '../diag/diagnostic.js';
import type { ResourceChange } from '../diff/types.js';
import type { TargetableRule } from '../kinds/descriptor.js';
import { KINDS } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount, ResourceAddress, ResourceKind } from '../manifest/types.js';
import { sourceOf } from './source-of.js';

/** Why a target will be too small after the apply. */
interface Shortfall {
  /** Words that follow the target's name: ", whose member file … holds 50 …". */
  why: string;
  /** The plan's own writes leave it too small (its upload, or its create without members). */
  byPlan: boolean;
  related?: RelatedLocation;
}

/** What a value targets: its address in the manifest, its live id, and its kind. */
interface Target {
  address: ResourceAddress | undefined;
  id: string | undefined;
  kind: ResourceKind;
}

const plural = (n: number, noun: string): string => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** The shortfall of a target of the manifest that has members of its own there; undefined when it is large enough or its count is unknown. */
function manifestShortfall(rule: TargetableRule, membership: DesiredAccount['resources'][number], changes: ReadonlyMap<string, ResourceChange>): Shortfall | undefined {
  const count = rule.members.count(membership.attributes);
  if (count === undefined || count >= rule.minimum) return undefined;
  const file = membership.attributes['file'];
  const action = changes.get(formatAddress(membership.address))?.action;
  const range = membership.attributeSources['file'];
  return {
    why: `, whose member file ${typeof file === 'string' ? `${file} ` : ''}holds ${plural(count, 'valid distinct identifier')}`,
    byPlan: action === 'create' || action === 'update' || action === 'replace',
    ...(range === undefined ? {} : { related: { message: 'the member file is named here', range } }),
  };
}

/** Every value of one account's changes that targets an object the service will find too small to target. */
export function checkAudienceSizes(changes: readonly ResourceChange[], desired: DesiredAccount | undefined, live: LiveAccount): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byAddress = new Map(changes.map((c) => [formatAddress(c.address), c]));
  const resources = new Map((desired?.resources ?? []).map((r) => [formatAddress(r.address), r]));
  for (const change of changes) {
    if (change.action === 'delete' || change.after === null) continue;
    const wanted = KINDS[change.kind].targets?.(change.after);
    if (wanted === undefined) continue;
    const address = formatAddress(change.address);
    const value = change.after[wanted.field];
    const id = typeof value === 'string' ? value : undefined;
    // named by logical name, or by the id of an object the manifest binds
    const named = resources.get(address)?.references[wanted.field] ?? changes.find((c) => c.kind === wanted.kind && id !== undefined && c.id === id && c.action !== 'delete')?.address;
    const target: Target = { address: named, id, kind: named?.kind ?? wanted.kind };
    const rule = KINDS[target.kind].targetable;
    if (rule === undefined) continue;
    const shortfall = shortfallOf(target, rule, desired, live, byAddress);
    if (shortfall === undefined) continue;
    const noun = KINDS[target.kind].noun;
    const name = target.address !== undefined ? formatAddress(target.address) : `${noun} ${target.id ?? ''}${nameOf(live, target)}`;
    const message = `${address} targets ${name}${shortfall.why}: the service targets a ${noun} only once it matches at least ${rule.minimum} users`;
    const range = sourceOf(desired, change, wanted.field);
    if (change.action === 'create' || change.action === 'replace' || shortfall.byPlan) out.push(errorAt('audience-too-small', message, range, shortfall.related === undefined ? [] : [shortfall.related]));
    else out.push({ ...warningAt('audience-too-small', `${message}; it is in place already, and this plan does not change that`, range), ...(shortfall.related === undefined ? {} : { related: [shortfall.related] }) });
  }
  return out;
}

/** `(“Name”)` of a live target, for a target named by raw id. */
function nameOf(live: LiveAccount, target: Target): string {
  const name = target.id === undefined ? undefined : live.resources.get(target.kind)?.get(target.id)?.record['name'];
  return typeof name === 'string' ? ` ("${name}")` : '';
}

/** Why `target` will be too small once the apply is done; undefined when it will not be, or when that is not known. */
function shortfallOf(target: Target, rule: TargetableRule, desired: DesiredAccount | undefined, live: LiveAccount, changes: ReadonlyMap<string, ResourceChange>): Shortfall | undefined {
  if (target.address !== undefined) {
    const parent = formatAddress(target.address);
    const membership = desired?.resources.find((r) => r.kind === rule.members.kind && r.parent !== undefined && formatAddress(r.parent) === parent);
    if (membership !== undefined) return manifestShortfall(rule, membership, changes);
    if (target.id === undefined) return { why: ', which is created without members (it has no users.file)', byPlan: true };
  }
  const record = target.id === undefined ? undefined : live.resources.get(target.kind)?.get(target.id)?.record;
  if (record === undefined || !rule.tooSmall(record)) return undefined;
  const reasons = record['reasons_not_targetable'];
  const said = Array.isArray(reasons) ? ` (${reasons.join(', ')})` : '';
  return { why: `, which the service reports not targetable${said}, and this plan uploads no members to it`, byPlan: false };
}
