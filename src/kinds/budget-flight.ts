/**
 * The budget and flight rules campaigns, line items and funding instruments share, written once:
 * the descriptors name their fields (`budgets`, `flight`), the plan checks them on the values an
 * object will have (`rules`), and the manifest checks them offline on what a file declares.
 */
import type { BudgetFields, FlightFields, RuleProblem } from './descriptor.js';

/** The budget fields of campaigns and line items. */
export const BUDGETS: BudgetFields = { daily: 'daily_budget_amount_local_micro', total: 'total_budget_amount_local_micro' };

/** The flight fields of line items and funding instruments. */
export const FLIGHT: FlightFields = { start: 'start_time', end: 'end_time' };

/**
 * A daily budget within the total: a problem at the daily field when it is more. `amount` shows
 * the amounts in the message (the manifest's check has them in currency units).
 */
export function dailyWithinTotal(fields: BudgetFields, v: Readonly<Record<string, unknown>>, amount?: (micros: number) => string): RuleProblem[] {
  const daily = v[fields.daily];
  const total = v[fields.total];
  if (typeof daily !== 'number' || typeof total !== 'number' || daily <= total) return [];
  const message = amount === undefined ? 'the daily budget is more than the total budget' : `daily budget ${amount(daily)} is more than the total budget ${amount(total)}`;
  return [{ field: fields.daily, code: 'budget-exceeds-total', message }];
}

/** A flight that ends after it starts: a problem at the end field when it does not. */
export function endAfterStart(fields: FlightFields, v: Readonly<Record<string, unknown>>): RuleProblem[] {
  const start = v[fields.start];
  const end = v[fields.end];
  if (typeof start !== 'string' || typeof end !== 'string' || Date.parse(end) > Date.parse(start)) return [];
  return [{ field: fields.end, code: 'time-order', message: `${fields.end} ${end} is not after ${fields.start} ${start}` }];
}
