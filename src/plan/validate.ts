/**
 * Checks a plan against the live lookups before anything is written: bids within the bidding
 * rules of their currency, placements among the combinations of the product type, line item
 * categories among the IAB categories, curated categories among the account's, permissions
 * that allow the writes, and the account limits of the kinds' descriptors, counted with what the
 * account already holds at every moment of the scheduled apply. Each problem is a diagnostic at the manifest position of the value at fault.
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import type { ResourceChange } from '../diff/types.js';
import { lookupField } from '../kinds/lookup-field.js';
import { KINDS } from '../kinds/registry.js';
import type { LookupNeed } from '../kinds/descriptor.js';
import { limitMoves } from './limits.js';
import { sourceOf } from './source-of.js';
import { checkTargetingValues } from './targeting-values.js';
import type { Step } from './types.js';
import type { LiveAccount } from '../live/types.js';
import type { Lookups } from '../live/lookups.js';
import { formatAddress } from '../manifest/address.js';
import { formatMicros } from '../manifest/money.js';
import type { DesiredAccount } from '../manifest/types.js';

const CAMPAIGN_WRITERS = ['ACCOUNT_ADMIN', 'AD_MANAGER'];

const sortedKey = (values: readonly string[]): string => [...values].sort().join(',');

interface ValidationInput {
  changes: readonly ResourceChange[];
  /** The scheduled steps: limits are checked at every moment of the apply they describe. */
  layers: readonly Step[][];
  desired: DesiredAccount | undefined;
  live: LiveAccount;
  lookups: Lookups;
  /** Addresses whose create an interrupted apply sent and the live account already shows (plan/in-flight.ts). */
  landed?: ReadonlySet<string>;
}

/**
 * Replays the schedule against the account limits of the descriptors: layer by layer, every
 * operation that needs room is counted before any that frees room in the same layer (they run
 * at once), so a limit is exceeded exactly when some moment of the apply may exceed it.
 */
function checkLimits(input: ValidationInput, sourceOfKey: (key: string) => SourceRange | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  const operations = input.layers.flat().flatMap((s) => s.operations);
  const changes = new Map(input.changes.filter((c) => c.action !== 'noop').map((c) => [formatAddress(c.address), c]));
  const layerOf = new Map<string, number>();
  input.layers.forEach((layer, i) => {
    for (const step of layer) for (const op of step.operations) layerOf.set(op.key, i);
  });
  const addressOf = new Map(operations.map((op) => [op.key, op]));
  // an in-flight create the service already shows is counted in what the account holds
  const landed = (key: string): boolean => {
    const op = addressOf.get(key);
    return op !== undefined && op.action === 'create' && input.landed?.has(op.address) === true;
  };
  for (const move of limitMoves(operations, changes, input.live)) {
    let count = move.initial;
    const needing = move.needing.filter((key) => !landed(key)).sort((a, b) => (layerOf.get(a) ?? 0) - (layerOf.get(b) ?? 0));
    const freeing = [...move.freeing].sort((a, b) => (layerOf.get(a) ?? 0) - (layerOf.get(b) ?? 0));
    let f = 0;
    for (const key of needing) {
      const at = layerOf.get(key) ?? 0;
      while (f < freeing.length && (layerOf.get(freeing[f]!) ?? 0) < at) {
        count--;
        f++;
      }
      count++;
      if (count > move.max) {
        const where = move.scope === '' ? 'the account' : `${move.limit.perParent?.replace(/_id$/, '').replace(/_/g, ' ')} ${move.scope}`;
        out.push(errorAt(move.code, `${where} would have ${count} ${move.limit.noun} during the apply; the limit is ${move.max}`, sourceOfKey(key)));
        break;
      }
    }
  }
  return out;
}

/** Every problem the lookups and the account limits reveal in one account's changes. */
export function validateAgainstLookups(input: ValidationInput): Diagnostic[] {
  const { changes, desired, live, lookups } = input;
  const out: Diagnostic[] = [];
  const writes = changes.filter((c) => c.action !== 'noop');
  if (writes.length === 0) return out;

  if (lookups.discarded !== undefined) {
    const what = lookups.discarded.entries.includes('*') ? 'was not a cache file' : `had damaged entries (${lookups.discarded.entries.join(', ')})`;
    out.push({ severity: 'warning', code: 'lookup-cache-damaged', message: `the lookup cache ${lookups.discarded.where} ${what}: they were discarded and read from the service again` });
  }
  for (const name of lookups.stale ?? []) {
    out.push({ severity: 'warning', code: 'lookup-stale', message: `the service's read budget for ${name.replace(/_/g, ' ')} is spent, so the plan checks against the copy cached in .adsctl/cache, which is past its lifetime` });
  }
  const accountId = live.accountId;
  const permissions = accountId === undefined ? undefined : lookups.permissions[accountId];
  if (permissions !== undefined && !permissions.some((p) => CAMPAIGN_WRITERS.includes(p))) {
    out.push(errorAt('permission-denied', `the credentials in use have ${permissions.join(', ') || 'no permissions'} on account ${accountId}; changing campaigns needs ACCOUNT_ADMIN or AD_MANAGER`, desired?.resources[0]?.source));
  }

  const combos = new Map<string, Set<string>>();
  for (const p of lookups.placements) combos.set(p.product_type, new Set(p.placements.map(sortedKey)));
  for (const c of writes) {
    if (c.action === 'delete') continue;
    const after = c.after ?? {};
    const checked = (need: LookupNeed): { field: string; value: unknown } | undefined => {
      const field = lookupField(c.kind, need);
      return field === undefined ? undefined : { field, value: after[field] };
    };
    const curated = checked('curated_categories');
    if (curated !== undefined && lookups.curatedCategories !== undefined && typeof curated.value === 'string' && !lookups.curatedCategories.includes(curated.value)) {
      out.push(errorAt('unknown-curated-category', `curated category ${curated.value} is not available to account ${accountId ?? '(new)'} (see GET curated_categories)`, sourceOf(desired, c, curated.field)));
    }
    const post = checked('posts');
    if (post !== undefined && lookups.posts !== undefined && typeof post.value === 'string' && lookups.posts.checked.includes(post.value) && !lookups.posts.found.includes(post.value) && c.action !== 'update') {
      out.push(errorAt('unknown-post', `post ${post.value} does not exist, or is not a published post of a promotable user of account ${accountId ?? '(new)'} (see GET tweets)`, sourceOf(desired, c, post.field)));
    }
    const author = checked('promotable_users');
    if (author !== undefined && lookups.promotableUsers !== undefined && typeof author.value === 'string' && !lookups.promotableUsers.includes(author.value) && c.action !== 'update') {
      out.push(errorAt('unknown-author', `${author.field} ${author.value} is not a promotable user of account ${accountId ?? '(new)'}; a post can be written only as one (see GET promotable_users)`, sourceOf(desired, c, author.field)));
    }
    const bidField = KINDS[c.kind].bid;
    const bid = bidField === undefined ? undefined : after[bidField];
    const rule = lookups.biddingRules.find((r) => r.currency === (c.currency ?? 'USD'));
    if (bidField !== undefined && typeof bid === 'number' && rule !== undefined) {
      if (bid < rule.minimum_cpe_bid_local_micro || bid > rule.maximum_cpe_bid_local_micro) {
        out.push(errorAt('bid-out-of-range', `bid ${formatMicros(bid, rule.currency)} ${rule.currency} is outside the bidding rules of ${rule.currency} (${formatMicros(rule.minimum_cpe_bid_local_micro, rule.currency)} to ${formatMicros(rule.maximum_cpe_bid_local_micro, rule.currency)})`, sourceOf(desired, c, bidField)));
      } else if (bid % rule.minimum_denomination !== 0) {
        out.push(errorAt('bid-denomination', `bid ${formatMicros(bid, rule.currency)} ${rule.currency} is not a multiple of the smallest denomination ${formatMicros(rule.minimum_denomination, rule.currency)} ${rule.currency}`, sourceOf(desired, c, bidField)));
      }
    }
    const categories = checked('iab_categories');
    if (categories !== undefined && lookups.iabCategories !== undefined && Array.isArray(categories.value)) {
      const known = new Set(lookups.iabCategories);
      const unknown = categories.value.map(String).filter((id) => !known.has(id));
      if (unknown.length > 0) {
        out.push(errorAt('unknown-iab-category', `${unknown.join(', ')} ${unknown.length === 1 ? 'is not an IAB category' : 'are not IAB categories'} (see GET iab_categories)`, sourceOf(desired, c, categories.field)));
      }
    }
    const placements = after['placements'];
    const product = after['product_type'];
    if (Array.isArray(placements) && typeof product === 'string' && (c.action === 'create' || c.action === 'replace')) {
      const valid = combos.get(product);
      if (valid !== undefined && !valid.has(sortedKey(placements.map(String)))) {
        out.push(errorAt('invalid-placements', `placements [${placements.join(', ')}] are not a valid combination for ${product}; valid: ${[...valid].map((v) => `[${v.split(',').join(', ')}]`).join(', ')}`, sourceOf(desired, c, 'placements')));
      }
    }
  }
  out.push(...checkTargetingValues(input));
  const byKey = new Map(input.layers.flat().flatMap((s) => s.operations).map((op) => [op.key, op.address]));
  const byAddress = new Map(writes.map((c) => [formatAddress(c.address), c]));
  out.push(...checkLimits(input, (key) => {
    const change = byAddress.get(byKey.get(key) ?? '');
    return change === undefined ? desired?.resources[0]?.source : (change.source ?? desired?.resources[0]?.source);
  }));
  return out;
}
