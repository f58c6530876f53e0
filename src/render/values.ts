/**
 * How attribute names and values read in human output: money fields under their short manifest
 * name (`daily_budget`) in currency units with the currency (`50.00 USD`), values known only
 * after apply as `(known after apply)`, strings quoted, lists and maps on one line.
 */
import { DESCRIPTORS } from '../kinds/registry.js';
import { formatMicros } from '../manifest/money.js';
import { marksUnknown, type UnknownMask } from './unknowns.js';

/** How a value known only after apply reads, in Terraform's words. */
export const KNOWN_AFTER_APPLY = '(known after apply)';

const MONEY_SUFFIX = '_local_micro';

/** API micros field → short manifest name, from the manifest's own field rules. */
const SHORT_MONEY_NAMES: ReadonlyMap<string, string> = new Map(
  DESCRIPTORS.flatMap((d) => Object.entries(d.manifest.money).map(([short, api]) => [api, short] as const)),
);

/** Whether an API field holds money in micros. */
function isMoneyField(path: string): boolean {
  return path.endsWith(MONEY_SUFFIX);
}

/**
 * The name shown for an attribute: money fields by their short manifest name
 * (`daily_budget_amount_local_micro` → `daily_budget`, `target_cpa_local_micro` → `target_cpa`),
 * every other field by its API name.
 */
export function displayName(path: string): string {
  if (!isMoneyField(path)) return path;
  return SHORT_MONEY_NAMES.get(path) ?? path.slice(0, -MONEY_SUFFIX.length);
}

/** Integer micros given as a number or as a string of digits; undefined for anything else. */
function micros(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

/** Micros in currency units, exactly: the currency's decimals (two when it is not known), up to six, with the currency when known. */
export function formatMoney(value: number, currency: string | null): string {
  const amount = formatMicros(value, currency);
  return currency === null ? amount : `${amount} ${currency}`;
}

/** One known value in human form. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(formatValue).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    const key = (k: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k));
    return `{ ${entries.map(([k, v]) => `${key(k)} = ${formatValue(v)}`).join(', ')} }`;
  }
  return String(value);
}

/**
 * The value of attribute `path`: `(known after apply)` when its mask marks any part of it unknown
 * (the known part of such a value is not shown), money in currency units when it is integer
 * micros, else `formatValue`.
 */
export function formatAttributeValue(path: string, value: unknown, currency: string | null, unknown?: UnknownMask, side: 'before' | 'after' = 'after'): string {
  if (marksUnknown(unknown)) return KNOWN_AFTER_APPLY;
  if (path === 'members') {
    const members = formatMembers(value, side === 'after');
    if (members !== undefined) return members;
  }
  const amount = isMoneyField(path) ? micros(value) : undefined;
  return amount === undefined ? formatValue(value) : formatMoney(amount, currency);
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * A membership (an audience's or the do-not-reach list's users) by its counts alone, never its
 * identifiers: the member count, and for the value a plan asks for the difference it sends,
 * `+1,203 members, −17 members, 98,780 unchanged (99,966 members)`.
 */
function formatMembers(value: unknown, withDifference: boolean): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m['count'] !== 'number') return undefined;
  const total = `${count(m['count'])} member${m['count'] === 1 ? '' : 's'}`;
  const { added, removed, unchanged } = m;
  if (!withDifference || typeof added !== 'number' || typeof removed !== 'number' || typeof unchanged !== 'number') return total;
  const members = (n: number): string => `${count(n)} member${n === 1 ? '' : 's'}`;
  const resend = m['resend'] === true ? ', every member sent again under the new window' : m['restore'] === true ? ', the member store written again' : '';
  return `+${members(added)}, −${members(removed)}, ${count(unchanged)} unchanged (${total}${resend})`;
}

/** A signed amount for spend lines: `+25.00 USD`, `-3.50 USD`, `0.00 USD`, `+1000 JPY`. */
export function formatSignedMoney(value: number, currency: string): string {
  return `${value > 0 ? '+' : ''}${formatMoney(value, currency)}`;
}
