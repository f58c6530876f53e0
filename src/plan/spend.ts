/**
 * The money a plan moves: per currency, the change of daily and total budgets over the kinds
 * that have budgets (their descriptors' `budgets`): a create adds its budgets, a delete removes
 * them, an update adds the difference; and, beside it, serving spend before and after the plan
 * (serving-spend.ts), which is what the plan's Spend line and the spend guardrails use.
 */
import type { ResourceChange } from '../diff/types.js';
import { KINDS } from '../kinds/registry.js';
import type { accountServing } from './serving-spend.js';
import type { SpendDelta } from './types.js';

const micros = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Spend deltas of the changes, one per currency that moves, sorted by currency. */
function spendOf(changes: readonly ResourceChange[]): SpendDelta[] {
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

/** The spend of one account's plan: the budgets it moves and its serving spend (`accountServing`), per currency that has either, sorted by currency. */
export function accountSpend(changes: readonly ResourceChange[], serving: ReturnType<typeof accountServing>['spend']): SpendDelta[] {
  const by = new Map<string, SpendDelta>(spendOf(changes).map((d) => [d.currency, d]));
  for (const s of serving) {
    const d = by.get(s.currency) ?? { currency: s.currency, dailyMicros: 0, totalMicros: 0 };
    d.serving = { beforeMicros: s.servingBeforeMicros, afterMicros: s.servingAfterMicros, dormantMicros: s.dormantAfterMicros, committedMicros: s.committedAfterMicros, openEnded: s.openEnded };
    by.set(s.currency, d);
  }
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
