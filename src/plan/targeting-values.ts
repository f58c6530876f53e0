/**
 * The plan's check of targeting values. The service creates a LOCATION, LANGUAGE, INTEREST,
 * PLATFORM, DEVICE, ... criterion only with a value its targeting lookup lists
 * (src/kinds/targeting-lookups.ts), and refuses any other at apply — after other writes went out,
 * possibly after the delete of the criterion it replaces. So every criterion the plan creates
 * whose value no live criterion already has is looked up before anything is written, and a value
 * the lookups do not list is an error at its manifest position, naming the closest values (and
 * their names) they do list. Values of criteria that exist are known good and never looked up.
 * The names of the values found are what the plan shows beside them (`targetingValueNames`).
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { quoteValue } from '../diag/quote.js';
import { closestMatch, nearestMatches } from '../diag/suggest.js';
import type { ResourceChange } from '../diff/types.js';
import { lookupField } from '../kinds/lookup-field.js';
import { targetingLookupOf } from '../kinds/targeting-lookups.js';
import type { Lookups } from '../live/lookups.js';
import type { TargetingOption } from '../live/targeting-values.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount } from '../manifest/types.js';
import { sourceOf } from './source-of.js';

/** How many of the nearest known values a refusal names when none is close enough to be a typo. */
const NEAREST_SHOWN = 3;

/** The lookup-backed type and the value of a criterion's record, when it has both. */
function criterion(record: Readonly<Record<string, unknown>> | null): { type: string; value: string } | undefined {
  const type = record?.['targeting_type'];
  const value = record?.['targeting_value'];
  if (typeof type !== 'string' || typeof value !== 'string' || targetingLookupOf(type) === undefined) return undefined;
  return { type, value };
}

const checks = (c: ResourceChange): boolean => lookupField(c.kind, 'targeting_values') !== undefined;
const creates = (c: ResourceChange): boolean => c.action === 'create' || c.action === 'replace';
const pair = (type: string, value: string): string => `${type}\u0000${value}`;

/**
 * The values to look up, by targeting type: those of the lookup-backed criteria the changes
 * create, but for values a live criterion of the account already has (those the service took).
 */
export function targetingValuesToLookUp(changes: readonly ResourceChange[]): Record<string, string[]> {
  const known = new Set<string>();
  for (const c of changes) {
    const live = checks(c) ? criterion(c.before) : undefined;
    if (live !== undefined) known.add(pair(live.type, live.value));
  }
  const out: Record<string, Set<string>> = {};
  for (const c of changes) {
    const wanted = checks(c) && creates(c) ? criterion(c.after) : undefined;
    if (wanted === undefined || known.has(pair(wanted.type, wanted.value))) continue;
    (out[wanted.type] ??= new Set()).add(wanted.value);
  }
  return Object.fromEntries(Object.entries(out).map(([type, values]) => [type, [...values].sort()]));
}

/** An option as a message names it: its value, and its name when that says more. */
const shown = (o: TargetingOption): string => (o.name === '' || o.name === o.value ? quoteValue(o.value) : `${quoteValue(o.value)} (${o.name})`);

/**
 * What to offer instead of `value`: the option whose value or name is close enough to be what was
 * meant ("did you mean"), else the few nearest there are.
 */
function suggestion(value: string, options: readonly TargetingOption[]): string {
  if (options.length === 0) return '; the lookup lists no values';
  const byText = new Map<string, TargetingOption>();
  for (const o of options) {
    if (!byText.has(o.value)) byText.set(o.value, o);
    if (o.name !== '' && !byText.has(o.name)) byText.set(o.name, o);
  }
  // a name written where its value belongs is the name itself (which closestMatch never offers)
  const named = options.find((o) => o.name !== '' && o.name.toLowerCase() === value.toLowerCase());
  const close = named === undefined ? closestMatch(value, byText.keys()) : undefined;
  const meant = named ?? (close === undefined ? undefined : byText.get(close));
  if (meant !== undefined) return `; did you mean ${shown(meant)}?`;
  const nearest: TargetingOption[] = [];
  for (const text of nearestMatches(value, byText.keys(), NEAREST_SHOWN * 2)) {
    const o = byText.get(text);
    if (o !== undefined && !nearest.includes(o)) nearest.push(o);
  }
  return `; the closest it lists: ${nearest.slice(0, NEAREST_SHOWN).map(shown).join(', ')}`;
}

/**
 * What the lookups the plan made call the values of its changes, by address, then field: a
 * targeting criterion's `targeting_value` `96683cc9126741d1` → `San Francisco, CA`, shown beside
 * the value. Only values the plan looked up have a name (a criterion it creates); no request is
 * made for one, and an option whose name is empty or the value itself names nothing.
 */
export function targetingValueNames(changes: readonly ResourceChange[], lookups: Lookups): Record<string, Record<string, string>> {
  const read = lookups.targetingValues ?? {};
  const names = new Map<string, Map<string, string>>();
  const out: Record<string, Record<string, string>> = {};
  for (const c of changes) {
    const field = c.action === 'noop' ? undefined : lookupField(c.kind, 'targeting_values');
    const wanted = field === undefined ? undefined : criterion(c.after ?? c.before);
    const options = wanted === undefined ? undefined : read[wanted.type]?.options;
    if (field === undefined || wanted === undefined || options === undefined) continue;
    let byValue = names.get(wanted.type);
    if (byValue === undefined) {
      byValue = new Map(options.filter((o) => o.name !== '' && o.name !== o.value).map((o) => [o.value, o.name]));
      names.set(wanted.type, byValue);
    }
    const name = byValue.get(wanted.value);
    if (name !== undefined) out[formatAddress(c.address)] = { [field]: name };
  }
  return out;
}

/** What the check reads: the account's changes, its manifest (for positions) and the lookups read for it. */
interface TargetingValueInput {
  changes: readonly ResourceChange[];
  desired: DesiredAccount | undefined;
  lookups: Lookups;
}

/**
 * One error per created criterion whose value was looked up and not found, at the criterion's
 * `targeting_value` in the manifest. Types the lookups were not read for are not checked.
 */
export function checkTargetingValues(input: TargetingValueInput): Diagnostic[] {
  const read = input.lookups.targetingValues;
  if (read === undefined) return [];
  const found = new Map<string, { checked: Set<string>; values: Set<string> }>();
  const said = new Map<string, string>();
  const out: Diagnostic[] = [];
  for (const c of input.changes) {
    const wanted = checks(c) && creates(c) ? criterion(c.after) : undefined;
    const lookup = wanted === undefined ? undefined : read[wanted.type];
    if (wanted === undefined || lookup === undefined) continue;
    let sets = found.get(wanted.type);
    if (sets === undefined) {
      sets = { checked: new Set(lookup.checked), values: new Set(lookup.options.map((o) => o.value)) };
      found.set(wanted.type, sets);
    }
    if (!sets.checked.has(wanted.value) || sets.values.has(wanted.value)) continue;
    const key = pair(wanted.type, wanted.value);
    let message = said.get(key);
    if (message === undefined) {
      message = `${wanted.type} ${quoteValue(wanted.value)} is not a value the service knows: GET targeting_criteria/${targetingLookupOf(wanted.type) ?? ''} lists no such value${suggestion(wanted.value, lookup.options)}`;
      said.set(key, message);
    }
    out.push(errorAt('unknown-targeting-value', message, sourceOf(input.desired, c, 'targeting_value')));
  }
  return out;
}
