/**
 * The money a plan moves: per currency, the change of daily and total budgets over the kinds
 * that have budgets (their descriptors' `budgets`): a create adds its budgets, a delete removes
 * them, an update adds the difference.
 */
import type { ResourceChange } from '../diff/types.js';
import { KINDS } from '../kinds/registry.js';
import type { SpendDelta } from './types.js';

const micros = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Spend deltas of the changes, one per currency that moves, sorted by currency. */
export function spendOf(changes: readonly ResourceChange[]): SpendDelta[] {
  const by = new Map<string, SpendDelta>();
  for (const c of changes) {
    const budgets = KINDS[c.kind].budgets;
    if (budgets === undefined || c.action === 'noop') continue;
    const before = c.action === 'create' ? {} : (c.before ?? {});
    const after = c.action === 'delete' ? {} : (c.after ?? {});
    const daily = micros(after[budgets.daily]) - micros(before[budgets.daily]);
    const total = micros(after[budgets.total]) - micros(before[budgets.total]);
    if (daily === 0 && total === 0) continue;
    const currency = c.currency ?? 'USD';
    const d = by.get(currency) ?? { currency, dailyMicros: 0, totalMicros: 0 };
    d.dailyMicros += daily;
    d.totalMicros += total;
    by.set(currency, d);
  }
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
