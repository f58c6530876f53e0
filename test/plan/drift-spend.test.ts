/**
 * The spend drift moved (src/plan/drift-spend.ts), what `plan --refresh-only` reports per account
 * and the drift digest shows: a budget changed by hand moves it by live minus last applied, an
 * object deleted by hand removes its budgets, one added by hand adds them, a serving object not
 * managed by adsctl that appeared adds its daily budget (a dormant one nothing); per currency, exactly.
 */
import { describe, expect, it } from 'vitest';
import { driftSpendOf } from '../../src/plan/drift-spend.js';
import type { UnmanagedObject } from '../../src/diff/unmanaged.js';
import { attr, change } from '../render/plan-builder.js';

const DAILY = 'daily_budget_amount_local_micro';
const TOTAL = 'total_budget_amount_local_micro';

/** An unmanaged campaign; it serves when ACTIVE unless `serves` says otherwise (its line items paused, say). */
const appeared = (status: string, isNew: boolean, daily: number | null, currency = 'USD', serves = status === 'ACTIVE'): UnmanagedObject => ({ kind: 'campaign', id: 'u1', name: 'By hand', status, parentId: null, parentAddress: null, dailyBudgetMicros: daily, serves, currency, new: isNew });

describe('driftSpendOf', () => {
  it.each([
    ['a daily budget lowered by hand', [change('campaigns.a', 'update', { currency: 'USD', changes: [attr(DAILY, 5_000_000, 10_000_000, { drift: true })] })], [], [{ currency: 'USD', dailyMicros: -5_000_000, totalMicros: 0 }]],
    ['a total budget raised by hand, the manifest moved too (from the value applied)', [change('campaigns.a', 'update', { currency: 'EUR', changes: [{ ...attr(TOTAL, 900_000_000, 700_000_000, { drift: true }), applied: 500_000_000 }] })], [], [{ currency: 'EUR', dailyMicros: 0, totalMicros: 400_000_000 }]],
    ['a manifest edit of a budget is not drift', [change('campaigns.a', 'update', { currency: 'USD', changes: [attr(DAILY, 5_000_000, 10_000_000)] })], [], []],
    ['a campaign deleted by hand', [change('campaigns.a', 'create', { reason: 'deleted_outside', drift: true, currency: 'USD', after: { [DAILY]: 7_500_000, [TOTAL]: 100_000_000 } })], [], [{ currency: 'USD', dailyMicros: -7_500_000, totalMicros: -100_000_000 }]],
    ['a line item added by hand to an owned collection', [change('campaigns.a.line_items.x', 'delete', { reason: 'added_outside', drift: true, currency: 'JPY', before: { [DAILY]: 1_000_000_000 } })], [], [{ currency: 'JPY', dailyMicros: 1_000_000_000, totalMicros: 0 }]],
    ['a kind without budgets', [change('campaigns.a.line_items.x.targeting["LOCATION:1"]', 'delete', { reason: 'added_outside', drift: true, before: { targeting_value: '1' } })], [], []],
    ['an ACTIVE campaign that appeared', [], [appeared('ACTIVE', true, 500_000_000)], [{ currency: 'USD', dailyMicros: 500_000_000, totalMicros: 0 }]],
    ['an ACTIVE campaign that appeared but does not serve (dormant)', [], [appeared('ACTIVE', true, 500_000_000, 'USD', false)], []],
    ['a PAUSED one that appeared, one seen at the last apply, one without a budget', [], [appeared('PAUSED', true, 1), appeared('ACTIVE', false, 2), appeared('ACTIVE', true, null)], []],
    [
      'several currencies, sorted, deltas summed',
      [change('campaigns.a', 'update', { currency: 'USD', changes: [attr(DAILY, 15_000_000, 10_000_000, { drift: true })] }), change('campaigns.b', 'update', { currency: 'EUR', changes: [attr(DAILY, 1_000_000, 3_000_000, { drift: true })] })],
      [appeared('ACTIVE', true, 20_000_000, 'EUR')],
      [
        { currency: 'EUR', dailyMicros: 18_000_000, totalMicros: 0 },
        { currency: 'USD', dailyMicros: 5_000_000, totalMicros: 0 },
      ],
    ],
  ] as const)('%s', (_, drifted, unmanaged, expected) => {
    expect(driftSpendOf([...drifted], [...unmanaged])).toEqual(expected);
  });
});
