/**
 * The money moved outside adsctl: per currency, the change of daily and total budgets that drift
 * made since the last apply, counted as `spendOf` counts a plan's (spend.ts), over the kinds that
 * have budgets. What `plan --refresh-only` reports as each account's spend, and the drift digest
 * shows per account (src/render/drift-digest.ts).
 */
import type { ResourceChange } from '../diff/types.js';
import type { UnmanagedObject } from '../diff/unmanaged.js';
import { KINDS } from '../kinds/registry.js';
import type { SpendDelta } from './types.js';

const micros = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The daily and total budget moved by one drifted change, or undefined for a kind without budgets. */
function moved(c: ResourceChange): { daily: number; total: number } | undefined {
  const budgets = KINDS[c.kind].budgets;
  if (budgets === undefined) return undefined;
  const both = (value: (field: string) => number): { daily: number; total: number } => ({ daily: value(budgets.daily), total: value(budgets.total) });
  // deleted by hand: its budgets are gone; the plan knows them as the manifest gives them
  if (c.reason === 'deleted_outside') return both((f) => -micros(c.after?.[f]));
  // made by hand inside an owned collection: its live budgets are new
  if (c.reason === 'added_outside') return both((f) => micros(c.before?.[f]));
  // a field changed by hand: the live value minus the one last applied
  return both((f) => {
    const a = c.changes.find((x) => x.origin === 'drift' && x.path === f);
    return a === undefined ? 0 : micros(a.before) - micros('applied' in a ? a.applied : a.after);
  });
}

/**
 * Spend deltas of `drifted` (changes that record something done outside adsctl) and of the
 * unmanaged objects that appeared since the last apply and serve (their daily budgets, as the
 * `Not managed by adsctl` section counts them); one per currency that moves, sorted by currency.
 */
export function driftSpendOf(drifted: readonly ResourceChange[], unmanaged: readonly UnmanagedObject[]): SpendDelta[] {
  const by = new Map<string, SpendDelta>();
  const add = (currency: string, daily: number, total: number): void => {
    if (daily === 0 && total === 0) return;
    const d = by.get(currency) ?? { currency, dailyMicros: 0, totalMicros: 0 };
    d.dailyMicros += daily;
    d.totalMicros += total;
    by.set(currency, d);
  };
  for (const c of drifted) {
    const m = moved(c);
    if (m !== undefined) add(c.currency ?? 'USD', m.daily, m.total);
  }
  for (const u of unmanaged) {
    const serving = KINDS[u.kind].serving;
    if (u.new && serving !== undefined && u.status === serving.active && u.dailyBudgetMicros !== null) add(u.currency, u.dailyBudgetMicros, 0);
  }
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
