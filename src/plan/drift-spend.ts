/**
 * The money moved outside adsctl: per currency, the change of daily and total budgets that drift
 * made since the last apply, counted as `spendOf` counts a plan's (spend.ts), over the kinds that
 * have budgets; and the serving spend it moved (serving-spend.ts), from the account as last applied
 * to the account as it is: a campaign activated by hand is an increase, one paused by hand a
 * decrease. What `plan --refresh-only` reports as each account's spend, and the drift digest
 * shows per account (src/render/drift-digest.ts).
 */
import type { ResourceChange } from '../diff/types.js';
import type { UnmanagedObject } from '../diff/unmanaged.js';
import { KINDS } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { accountServing } from './serving-spend.js';
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
 * `change` seen from the account as last applied (before) to the account as it is (after): an
 * object deleted by hand was there, one added by hand was not, one changed by hand had the values
 * last applied; undefined for what exists on neither side (a create the plan would make).
 */
function asDrifted(change: ResourceChange): ResourceChange | undefined {
  if (change.reason === 'deleted_outside') return { ...change, action: 'delete', before: change.after, after: null };
  if (change.reason === 'added_outside') return { ...change, action: 'create', before: null, after: change.before };
  if (change.action === 'create' || change.before === null) return undefined;
  const applied: Record<string, unknown> = { ...change.before };
  for (const a of change.changes) if (a.origin === 'drift') applied[a.path] = 'applied' in a ? a.applied : a.after;
  return { ...change, action: 'update', before: applied, after: change.before };
}

/** The serving spend drift moved in the account of `changes` (all of them, drifted or not): from as last applied to as it is. */
export function driftServingOf(changes: readonly ResourceChange[], live: LiveAccount, now: Date): Map<string, NonNullable<SpendDelta['serving']>> {
  const seen = changes.flatMap((c) => asDrifted(c) ?? []);
  return new Map(accountServing(seen, live, now).spend.map((s) => [s.currency, { beforeMicros: s.servingBeforeMicros, afterMicros: s.servingAfterMicros, dormantMicros: s.dormantAfterMicros }]));
}

/**
 * Spend deltas of `drifted` (changes that record something done outside adsctl) and of the
 * unmanaged objects that appeared since the last apply and serve (their daily budgets, as the
 * `Not managed by adsctl` section counts them), with the serving spend the drift moved
 * (`driftServingOf`) when given; one per currency that moves, sorted by currency.
 */
export function driftSpendOf(drifted: readonly ResourceChange[], unmanaged: readonly UnmanagedObject[], serving?: ReadonlyMap<string, NonNullable<SpendDelta['serving']>>): SpendDelta[] {
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
  const appeared = new Map<string, number>();
  for (const u of unmanaged) {
    if (!u.new || !u.serves || u.dailyBudgetMicros === null) continue;
    add(u.currency, u.dailyBudgetMicros, 0);
    appeared.set(u.currency, (appeared.get(u.currency) ?? 0) + u.dailyBudgetMicros);
  }
  // what serves now beside what served as last applied: the managed objects' serving spend, and what appeared serving
  for (const [currency, moved] of serving ?? []) {
    const after = moved.afterMicros + (appeared.get(currency) ?? 0);
    // a currency where neither the budgets nor what serves moved says nothing
    if (after === moved.beforeMicros && !by.has(currency)) continue;
    const d = by.get(currency) ?? { currency, dailyMicros: 0, totalMicros: 0 };
    d.serving = { ...moved, afterMicros: after };
    by.set(currency, d);
  }
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
