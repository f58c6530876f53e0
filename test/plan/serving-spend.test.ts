/**
 * Serving spend (src/plan/serving-spend.ts): what a campaign can spend per day, over the status of
 * the campaign and of its line item, its budget optimization, the line item's flight ended or not
 * and its funding instrument able to fund or not, in USD and JPY; and what a plan moves: an
 * activation is an increase, a pause a decrease, a paused create nothing but dormant budget; and
 * what serves commits over its flight (whole days left, at most the total budget, 30 days open-ended).
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import type { LiveAccount, LiveResource } from '../../src/live/types.js';
import { accountServing, liveServes } from '../../src/plan/serving-spend.js';

/** Serving spend as the plan counts it. */
const servingSpendOf = (changes: ResourceChange[], account: LiveAccount, now: Date) => accountServing(changes, account, now).spend;

const NOW = new Date('2026-11-23T12:00:00Z');
const PAST = '2026-11-01T00:00:00Z';
const FUTURE = '2027-01-01T00:00:00Z';
/** Whole days from NOW to FUTURE, a part of a day counted whole: what a serving campaign commits for. */
const DAYS_LEFT = 39;

const campaignAddress = (key: string): ResourceChange['address'] => ({ kind: 'campaign', steps: [{ collection: 'campaigns', key }] }) as unknown as ResourceChange['address'];
const lineItemAddress = (campaign: string, key: string): ResourceChange['address'] =>
  ({ kind: 'line_item', steps: [{ collection: 'campaigns', key: campaign }, { collection: 'line_items', key }] }) as unknown as ResourceChange['address'];

/** A change of `kind` at `address`: a no-op of `values` unless `action` and `after` say otherwise. */
function change(kind: 'campaign' | 'line_item', address: ResourceChange['address'], currency: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null, action?: ResourceChange['action']): ResourceChange {
  const decided = action ?? (before === null ? 'create' : after === null ? 'delete' : JSON.stringify(before) === JSON.stringify(after) ? 'noop' : 'update');
  return { account: 'a', address, kind, action: decided, ...(before === null ? {} : { id: 'x' }), before, after, changes: [], drift: false, protected: false, currency };
}

/** The live account: funding instruments `able` (able to fund) and `broke` (not). */
function live(): LiveAccount {
  const fi = (id: string, able: boolean): [string, LiveResource] => [id, { kind: 'funding_instrument', id, record: { id, able_to_fund: able }, fingerprint: '' }];
  return { account: 'a', accountId: '18ce54d4x5t', currencies: {}, resources: new Map([['funding_instrument', new Map([fi('able', true), fi('broke', false)])]]), missing: new Set() };
}

const DAILY = 'daily_budget_amount_local_micro';

interface Row {
  campaign: 'ACTIVE' | 'PAUSED';
  lineItem: 'ACTIVE' | 'PAUSED';
  optimization: 'CAMPAIGN' | 'LINE_ITEM';
  ended: boolean;
  fundingInstrument: 'able' | 'broke';
  /** Serving, else dormant. */
  serves: boolean;
  /** What it spends (or would: dormant), in units of the currency's budget. */
  spends: number;
}

// a campaign of daily budget 100 with one line item of daily budget 40 (its own under LINE_ITEM)
const ROWS: Row[] = [];
for (const campaign of ['ACTIVE', 'PAUSED'] as const) {
  for (const lineItem of ['ACTIVE', 'PAUSED'] as const) {
    for (const optimization of ['CAMPAIGN', 'LINE_ITEM'] as const) {
      for (const ended of [false, true]) {
        for (const fundingInstrument of ['able', 'broke'] as const) {
          const serves = campaign === 'ACTIVE' && lineItem === 'ACTIVE' && !ended && fundingInstrument === 'able';
          // dormant under LINE_ITEM: the budgets of the line items whose flight has not ended
          const spends = optimization === 'CAMPAIGN' ? 100 : serves || !ended ? 40 : 0;
          ROWS.push({ campaign, lineItem, optimization, ended, fundingInstrument, serves, spends });
        }
      }
    }
  }
}

describe('what one campaign can spend, by status, budget optimization, flight and funding', () => {
  for (const [currency, unit] of [['USD', 1_000_000], ['JPY', 1]] as const) {
    for (const row of ROWS) {
      const name = `${currency}: campaign ${row.campaign}, line item ${row.lineItem}, ${row.optimization}, flight ${row.ended ? 'ended' : 'running'}, funding instrument ${row.fundingInstrument}`;
      it(name, () => {
        const c = { entity_status: row.campaign, budget_optimization: row.optimization, [DAILY]: 100 * unit, funding_instrument_id: row.fundingInstrument };
        const l = { entity_status: row.lineItem, [DAILY]: 40 * unit, end_time: row.ended ? PAST : FUTURE };
        const spend = servingSpendOf([change('campaign', campaignAddress('c'), currency, c, c), change('line_item', lineItemAddress('c', 'l'), currency, l, l)], live(), NOW);
        const expected =
          row.spends === 0
            ? []
            : [{ currency, servingBeforeMicros: row.serves ? row.spends * unit : 0, servingAfterMicros: row.serves ? row.spends * unit : 0, dormantAfterMicros: row.serves ? 0 : row.spends * unit, committedAfterMicros: row.serves ? row.spends * unit * DAYS_LEFT : 0, openEnded: false }];
        expect(spend).toEqual(expected);
      });
    }
  }
});

/** `live()` with a campaign `c` and its line item `l` as the service shows them. */
function liveWith(campaign: Record<string, unknown>, lineItem: Record<string, unknown> | undefined): LiveAccount {
  const account = live();
  const record = (kind: 'campaign' | 'line_item', values: Record<string, unknown>): LiveResource => ({ kind, id: String(values['id']), record: values, fingerprint: '' });
  account.resources.set('campaign', new Map([['c', record('campaign', { id: 'c', ...campaign })]]));
  if (lineItem !== undefined) account.resources.set('line_item', new Map([['l', record('line_item', { id: 'l', campaign_id: 'c', ...lineItem })]]));
  return account;
}

describe('whether an object adsctl does not manage serves, by the same rule on its live records', () => {
  for (const row of ROWS.filter((r) => r.optimization === 'CAMPAIGN')) {
    const name = `campaign ${row.campaign}, line item ${row.lineItem}, flight ${row.ended ? 'ended' : 'running'}, funding instrument ${row.fundingInstrument}`;
    it(name, () => {
      const serves = liveServes(liveWith({ entity_status: row.campaign, [DAILY]: 100, funding_instrument_id: row.fundingInstrument }, { entity_status: row.lineItem, [DAILY]: 40, end_time: row.ended ? PAST : FUTURE }), NOW);
      // the campaign serves by the plan's rule; its line item exactly when the campaign does
      expect([serves('campaign', 'c'), serves('line_item', 'l')]).toEqual([row.serves, row.serves]);
    });
  }
  it('an ACTIVE campaign without line items does not serve', () => {
    expect(liveServes(liveWith({ entity_status: 'ACTIVE', funding_instrument_id: 'able' }, undefined), NOW)('campaign', 'c')).toBe(false);
  });
  it('an object the refresh did not find does not serve', () => {
    expect(liveServes(live(), NOW)('campaign', 'gone')).toBe(false);
  });
});

describe('what a plan moves', () => {
  const active = { entity_status: 'ACTIVE', budget_optimization: 'CAMPAIGN', [DAILY]: 100_000_000, funding_instrument_id: 'able' };
  const paused = { ...active, entity_status: 'PAUSED' };
  const lineItem = { entity_status: 'ACTIVE', [DAILY]: 40_000_000, end_time: FUTURE };
  const li = change('line_item', lineItemAddress('c', 'l'), 'USD', lineItem, lineItem);
  const rows: Array<{ name: string; changes: ResourceChange[]; before: number; after: number; dormant: number; committed?: number; openEnded?: boolean }> = [
    { name: 'activating a paused campaign is an increase', changes: [change('campaign', campaignAddress('c'), 'USD', paused, active), li], before: 0, after: 100, dormant: 0 },
    { name: 'pausing a serving campaign is a decrease, its budget dormant', changes: [change('campaign', campaignAddress('c'), 'USD', active, paused), li], before: 100, after: 0, dormant: 100 },
    { name: 'a paused create serves nothing; its budget is dormant', changes: [change('campaign', campaignAddress('c'), 'USD', null, paused), change('line_item', lineItemAddress('c', 'l'), 'USD', null, lineItem)], before: 0, after: 0, dormant: 100 },
    { name: 'an active create with a serving line item is an increase', changes: [change('campaign', campaignAddress('c'), 'USD', null, active), change('line_item', lineItemAddress('c', 'l'), 'USD', null, lineItem)], before: 0, after: 100, dormant: 0 },
    { name: 'an active campaign without a line item serves nothing', changes: [change('campaign', campaignAddress('c'), 'USD', null, active)], before: 0, after: 0, dormant: 100 },
    { name: 'raising the budget of a serving campaign', changes: [change('campaign', campaignAddress('c'), 'USD', active, { ...active, [DAILY]: 150_000_000 }), li], before: 100, after: 150, dormant: 0 },
    { name: 'deleting a serving campaign', changes: [change('campaign', campaignAddress('c'), 'USD', active, null), change('line_item', lineItemAddress('c', 'l'), 'USD', lineItem, null)], before: 100, after: 0, dormant: 0 },
    { name: 'an end date moved into the past stops it', changes: [change('campaign', campaignAddress('c'), 'USD', active, active), change('line_item', lineItemAddress('c', 'l'), 'USD', lineItem, { ...lineItem, end_time: PAST })], before: 100, after: 0, dormant: 100 },
    { name: 'commits no more than its total budget', changes: [change('campaign', campaignAddress('c'), 'USD', active, { ...active, total_budget_amount_local_micro: 1_000_000_000 }), li], before: 100, after: 100, dormant: 0, committed: 1000 },
    { name: 'a line item without an end: the flight counts 30 days, and says so', changes: [change('campaign', campaignAddress('c'), 'USD', active, active), change('line_item', lineItemAddress('c', 'l'), 'USD', { ...lineItem, end_time: null }, { ...lineItem, end_time: null })], before: 100, after: 100, dormant: 0, committed: 3000, openEnded: true },
    {
      name: 'the last end of its serving line items',
      changes: [change('campaign', campaignAddress('c'), 'USD', active, active), li, change('line_item', lineItemAddress('c', 'm'), 'USD', { ...lineItem, end_time: '2026-11-25T12:00:00Z' }, { ...lineItem, end_time: '2026-11-25T12:00:00Z' })],
      before: 100,
      after: 100,
      dormant: 0,
    },
    {
      name: 'under LINE_ITEM, serving line items capped by the campaign',
      changes: [
        change('campaign', campaignAddress('c'), 'USD', { ...active, budget_optimization: 'LINE_ITEM', [DAILY]: 60_000_000 }, { ...active, budget_optimization: 'LINE_ITEM', [DAILY]: 60_000_000 }),
        li,
        change('line_item', lineItemAddress('c', 'm'), 'USD', lineItem, lineItem),
        change('line_item', lineItemAddress('c', 'p'), 'USD', { ...lineItem, entity_status: 'PAUSED' }, { ...lineItem, entity_status: 'PAUSED' }),
      ],
      before: 60,
      after: 60,
      dormant: 0,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const [spend] = servingSpendOf(row.changes, live(), NOW);
      const committed = row.committed ?? row.after * DAYS_LEFT;
      expect(spend).toEqual({ currency: 'USD', servingBeforeMicros: row.before * 1_000_000, servingAfterMicros: row.after * 1_000_000, dormantAfterMicros: row.dormant * 1_000_000, committedAfterMicros: committed * 1_000_000, openEnded: row.openEnded ?? false });
    });
  }

  it('keeps currencies apart', () => {
    const jpy = { ...active, [DAILY]: 5000 };
    const spend = servingSpendOf(
      [change('campaign', campaignAddress('u'), 'USD', paused, active), change('line_item', lineItemAddress('u', 'l'), 'USD', lineItem, lineItem), change('campaign', campaignAddress('j'), 'JPY', jpy, jpy), change('line_item', lineItemAddress('j', 'l'), 'JPY', { ...lineItem, [DAILY]: 1000 }, { ...lineItem, [DAILY]: 1000 })],
      live(),
      NOW,
    );
    expect(spend).toEqual([
      { currency: 'JPY', servingBeforeMicros: 5000, servingAfterMicros: 5000, dormantAfterMicros: 0, committedAfterMicros: 5000 * DAYS_LEFT, openEnded: false },
      { currency: 'USD', servingBeforeMicros: 0, servingAfterMicros: 100_000_000, dormantAfterMicros: 0, committedAfterMicros: 100_000_000 * DAYS_LEFT, openEnded: false },
    ]);
  });
});

describe('what serves before the plan (what protect_serving guards)', () => {
  const lineItem = { entity_status: 'ACTIVE', [DAILY]: 40_000_000, end_time: FUTURE };
  const rows: Array<{ name: string; campaign: Record<string, unknown>; lineItem: Record<string, unknown>; serving: string[] }> = [
    { name: 'a serving campaign and its serving line item', campaign: { entity_status: 'ACTIVE', [DAILY]: 1, funding_instrument_id: 'able' }, lineItem, serving: ['campaigns.c', 'campaigns.c.line_items.l'] },
    { name: 'an ACTIVE line item under a paused campaign: neither', campaign: { entity_status: 'PAUSED', [DAILY]: 1, funding_instrument_id: 'able' }, lineItem, serving: [] },
    { name: 'an ACTIVE campaign whose only line item ended: neither', campaign: { entity_status: 'ACTIVE', [DAILY]: 1, funding_instrument_id: 'able' }, lineItem: { ...lineItem, end_time: PAST }, serving: [] },
    { name: 'an ACTIVE campaign on a funding instrument that cannot fund: neither', campaign: { entity_status: 'ACTIVE', [DAILY]: 1, funding_instrument_id: 'broke' }, lineItem, serving: [] },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const changes = [change('campaign', campaignAddress('c'), 'USD', row.campaign, null), change('line_item', lineItemAddress('c', 'l'), 'USD', row.lineItem, null)];
      expect([...accountServing(changes, live(), NOW).servingBefore].sort()).toEqual(row.serving);
    });
  }
});
