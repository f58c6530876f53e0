/**
 * `--target` as a transform of the plan's changes (Terraform's `-target`): the changes under the
 * targets are kept with what they need that is yet to be made, and a target naming nothing is an
 * error with the closest address.
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { didYouMean } from '../diag/suggest.js';
import { isUnknownRef, type ResourceChange } from '../diff/types.js';
import { KINDS } from '../kinds/registry.js';
import { formatAddress, parseAddress } from '../manifest/address.js';
import type { DesiredAccount, ResourceAddress } from '../manifest/types.js';
import type { AccountState } from '../state/state-file.js';

const isWithin = (address: ResourceAddress, target: ResourceAddress): boolean =>
  target.steps.length <= address.steps.length && target.steps.every((s, i) => address.steps[i]?.collection === s.collection && address.steps[i]?.key === s.key);

/**
 * Keeps the changes under the targets, plus what they need that is yet to be made: the creates of
 * their ancestors and of every resource their values refer to (a campaign's new funding
 * instrument), transitively; a serving object created comes with everything under it.
 */
export function filterTargets(changes: readonly ResourceChange[], targets: readonly ResourceAddress[]): ResourceChange[] {
  if (targets.length === 0) return [...changes];
  const byAddress = new Map(changes.map((c) => [formatAddress(c.address), c]));
  const kept = new Set(changes.filter((c) => targets.some((t) => isWithin(c.address, t))));
  const queue = [...kept];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    const needed = changes.filter((c) => (c.action === 'create' || c.action === 'replace') && isWithin(next.address, c.address));
    // a serving object created here comes whole: activated with only part of what is under it,
    // it would serve more widely than the manifest says (docs/architecture.md, "Serving safety")
    if ((next.action === 'create' || next.action === 'replace') && KINDS[next.kind].serving !== undefined) needed.push(...changes.filter((c) => c !== next && isWithin(c.address, next.address)));
    for (const value of Object.values(next.after ?? {})) {
      const ref = isUnknownRef(value) ? byAddress.get(value.$ref) : undefined;
      if (ref !== undefined) needed.push(ref);
    }
    for (const c of needed) {
      if (kept.has(c)) continue;
      kept.add(c);
      queue.push(c);
    }
  }
  return changes.filter((c) => kept.has(c));
}

/** Terraform's warning for a plan limited by `-target`. */
const TARGETING_WARNING =
  'Resource targeting is in effect: this plan is limited to the targeted resources and what they need, so it may not represent all of the changes the manifests ask for. ' +
  '--target is for exceptional situations (recovering from errors or mistakes), not for routine use.';

/**
 * Every target must name a resource, or contain some, of the manifests or the state: a typo is an
 * error with the closest address, and a targeted plan carries Terraform's warning.
 */
export function targetProblems(accounts: ReadonlyArray<{ desired: DesiredAccount | undefined; state: AccountState }>, targets: readonly ResourceAddress[]): Diagnostic[] {
  if (targets.length === 0) return [];
  const known = new Map<string, ResourceAddress>();
  for (const a of accounts) {
    for (const r of a.desired?.resources ?? []) known.set(formatAddress(r.address), r.address);
    for (const text of Object.keys(a.state.resources)) {
      const parsed = parseAddress(text).value;
      if (parsed !== undefined) known.set(text, parsed);
    }
  }
  const out: Diagnostic[] = [];
  for (const target of targets) {
    if ([...known.values()].some((address) => isWithin(address, target))) continue;
    const text = formatAddress(target);
    out.push(errorAt('unknown-target', `--target ${text} matches no resource of the manifests or the state${didYouMean(text, known.keys())}`));
  }
  out.push({ severity: 'warning', code: 'targeting-in-effect', message: TARGETING_WARNING });
  return out;
}
