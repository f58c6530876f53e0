import { describe, expect, it } from 'vitest';
import { budgetRule, lineItemRules } from '../../src/kinds/line-item-rules.js';

const BASE = { objective: 'ENGAGEMENTS', product_type: 'PROMOTED_TWEETS', placements: ['ALL_ON_SERVICE'], start_time: '2026-12-01T00:00:00Z' };

describe('the rules across a line item’s fields', () => {
  const rows: Array<[string, Record<string, unknown>, string[]]> = [
    ['a plain line item', {}, []],
    ['MAX with a bid', { bid_strategy: 'MAX', bid_amount_local_micro: 1_500_000 }, []],
    ['MAX without a bid', { bid_strategy: 'MAX' }, ['missing-bid']],
    ['TARGET without a bid, for an objective TARGET does not take', { bid_strategy: 'TARGET' }, ['bid-strategy', 'missing-bid']],
    ['MAX for REACH', { objective: 'REACH', bid_strategy: 'MAX', bid_amount_local_micro: 1_000_000 }, ['bid-strategy']],
    ['AUTO needs no bid', { bid_strategy: 'AUTO' }, []],
    ['a goal of another objective', { goal: 'LINK_CLICKS' }, ['goal-objective']],
    ['PUBLISHER_NETWORK without a domain or categories', { placements: ['PUBLISHER_NETWORK'] }, ['publisher-network', 'publisher-network']],
    ['PUBLISHER_NETWORK with both', { placements: ['PUBLISHER_NETWORK'], advertiser_domain: 'acme.example', categories: ['IAB3'] }, []],
    ['an app objective without an app', { objective: 'APP_INSTALLS' }, ['app-identifier']],
    ['an app objective with an iOS app', { objective: 'APP_INSTALLS', ios_app_store_identifier: '333903271' }, []],
    ['WEBSITE_CONVERSIONS without a tag', { objective: 'WEBSITE_CLICKS', goal: 'WEBSITE_CONVERSIONS' }, ['web-event-tag']],
    ['a frequency cap without its duration', { frequency_cap: 3 }, ['frequency-cap']],
    ['a duration without its cap', { duration_in_days: 7 }, ['frequency-cap']],
    ['a cap and a duration of 5 days', { frequency_cap: 3, duration_in_days: 5 }, ['frequency-cap']],
    ['a cap for an objective without one', { objective: 'WEBSITE_CLICKS', frequency_cap: 3, duration_in_days: 7 }, ['frequency-cap']],
    ['an end before the start', { end_time: '2026-11-01T00:00:00Z' }, ['time-order']],
    ['a daily budget above the total', { daily_budget_amount_local_micro: 20_000_000, total_budget_amount_local_micro: 10_000_000 }, ['budget-exceeds-total']],
    ['null fields are unset', { bid_strategy: 'AUTO', frequency_cap: null, duration_in_days: null, advertiser_domain: null }, []],
  ];
  it.each(rows)('%s', (_name, values, codes) => {
    expect(lineItemRules({ ...BASE, ...values }).map((p) => p.code)).toEqual(codes);
  });

  it('names the field at fault and says what to do', () => {
    expect(lineItemRules({ ...BASE, bid_strategy: 'MAX' })).toEqual([{ field: 'bid_strategy', code: 'missing-bid', message: 'bid_strategy MAX needs a bid: set bid_amount' }]);
    expect(budgetRule({ daily_budget_amount_local_micro: 2, total_budget_amount_local_micro: 1 })[0]?.field).toBe('daily_budget_amount_local_micro');
  });
});
