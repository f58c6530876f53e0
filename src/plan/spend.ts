/**
 * The money a plan moves: per currency, the change of daily and total budgets over campaigns and
 * line items (a create adds its budgets, a delete removes them, an update adds the difference).
 */
import type { ResourceChange } from '../diff/types.js';
import type { SpendDelta } from './types.js';

const DAILY = 'daily_budget_amount_local_micro';
const TOTAL = 'total_budget_amount_local_micro';

const micros = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Spend deltas of the changes, one per currency that moves, sorted by currency. */
export function spendOf(changes: readonly ResourceChange[]): SpendDelta[] {
  const by = new Map<string, SpendDelta>();
  for (const c of changes) {
    if (c.kind !== 'campaign' && c.kind !== 'line_item') continue;
    if (c.action === 'noop') continue;
    const before = c.action === 'create' ? {} : (c.before ?? {});
    const after = c.action === 'delete' ? {} : (c.after ?? {});
    const daily = micros(after[DAILY]) - micros(before[DAILY]);
    const total = micros(after[TOTAL]) - micros(before[TOTAL]);
    if (daily === 0 && total === 0) continue;
    const currency = c.currency ?? 'USD';
    const d = by.get(currency) ?? { currency, dailyMicros: 0, totalMicros: 0 };
    d.dailyMicros += daily;
    d.totalMicros += total;
    by.set(currency, d);
  }
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
