/**
 * The guardrails stage (src/guardrails/): every rule of adsctl.yaml read from a real file and
 * checked on plans built in code, at, just under and just over its limit, in two currencies whose
 * amounts differ by orders of magnitude (USD, whose smallest step here is a cent, and JPY, a yen);
 * the per-rule and per-account enforcement, the account overrides and `--allow`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import { checkGuardrails, percentageNotes } from '../../src/guardrails/check.js';
import { readGuardrails } from '../../src/guardrails/config.js';
import { policyFor, type GuardrailsConfig } from '../../src/guardrails/policy.js';
import type { LiveAccount } from '../../src/live/types.js';
import { accountServing } from '../../src/plan/serving-spend.js';
import { accountSpend } from '../../src/plan/spend.js';
import type { AccountPlan, GuardrailViolation, Plan } from '../../src/plan/types.js';
import { accountPlan, change } from '../render/plan-builder.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-guardrails-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The guardrails of an adsctl.yaml holding `yaml`; fails the test on any diagnostic. */
function config(yaml: string, accounts?: ReadonlySet<string>): GuardrailsConfig {
  writeFileSync(join(dir, 'adsctl.yaml'), yaml);
  const read = readGuardrails(dir, accounts);
  expect(read.diagnostics).toEqual([]);
  if (read.config === undefined) throw new Error('no guardrails read');
  return read.config;
}

const NOW = new Date('2030-06-01T00:00:00Z');

/** A live account with no records: the funding instruments the changes name are taken to fund. */
const LIVE: LiveAccount = { account: 'acct', accountId: 'acct', currencies: {}, resources: new Map(), missing: new Set() };

function check(yaml: string, changes: ResourceChange[], options: { allowed?: string[]; accountId?: string; retiring?: AccountPlan['retiring'] } = {}): GuardrailViolation[] {
  const cfg = config(yaml);
  // the spend as the plan counts it (src/plan/spend.ts)
  const spend = accountSpend(changes, accountServing(changes, LIVE, NOW).spend);
  const account = { ...accountPlan(changes, { spend, ...(options.accountId === undefined ? {} : { accountId: options.accountId }) }), ...(options.retiring === undefined ? {} : { retiring: options.retiring }) };
  const plan: Plan = { formatVersion: 'test', mode: 'plan', accounts: [account], diagnostics: [] };
  return checkGuardrails({ plan, policyOf: (a) => policyFor(cfg, a.accountId), allowed: new Set(options.allowed ?? []), now: NOW });
}

/** Micros of an amount in currency units written as a decimal (test data only). */
const m = (units: string): number => {
  const [whole, fraction = ''] = units.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
};

interface Currency {
  code: string;
  /** The limit as adsctl.yaml writes it. */
  limit: string;
  /** The limit, one step under and one step over, in currency units. */
  at: string;
  under: string;
  over: string;
}

const CURRENCIES: Currency[] = [
  { code: 'USD', limit: '"1000.00"', at: '1000.00', under: '999.99', over: '1000.01' },
  { code: 'JPY', limit: '"100000"', at: '100000', under: '99999', over: '100001' },
];

const STEPS = [
  { step: 'under', violates: false },
  { step: 'at', violates: false },
  { step: 'over', violates: true },
] as const;

/** The object each money rule judges, given the amount in micros. */
const MONEY_RULES: Array<{ rule: string; field: string; make: (micros: number, currency: string) => ResourceChange }> = [
  {
    rule: 'max_daily_budget',
    field: 'daily_budget_amount_local_micro',
    make: (micros, currency) => change('campaigns.sale', 'create', { currency, after: { name: 'sale', entity_status: 'PAUSED', daily_budget_amount_local_micro: micros } }),
  },
  {
    rule: 'max_total_budget',
    field: 'total_budget_amount_local_micro',
    make: (micros, currency) => change('campaigns.sale', 'update', { currency, before: { total_budget_amount_local_micro: 1_000_000 }, after: { total_budget_amount_local_micro: micros } }),
  },
  {
    rule: 'max_bid',
    field: 'bid_amount_local_micro',
    make: (micros, currency) => change('campaigns.sale.line_items.feed', 'create', { currency, after: { name: 'feed', entity_status: 'PAUSED', bid_amount_local_micro: micros } }),
  },
];

describe('money rules on an object', () => {
  for (const c of CURRENCIES) {
    for (const r of MONEY_RULES) {
      it.each(STEPS)(`${r.rule} in ${c.code}: $step the limit`, ({ step, violates }) => {
        const found = check(`guardrails:\n  ${r.rule}: ${c.limit}\n`, [r.make(m(c[step]), c.code)]);
        if (!violates) return expect(found).toEqual([]);
        const address = r.rule === 'max_bid' ? 'campaigns.sale.line_items.feed' : 'campaigns.sale';
        expect(found).toEqual([
          { rule: r.rule, address, account: 'acct', attribute: r.field, enforcement: 'mandatory', value: `${c.over} ${c.code}`, limit: `${c.at} ${c.code}`, allowed: false },
        ]);
      });
    }
  }

  it('checks only what the plan writes: an object left as it is, or deleted, is not judged by its budget', () => {
    const kept = change('campaigns.big', 'noop', { before: { daily_budget_amount_local_micro: m('5000') }, after: { daily_budget_amount_local_micro: m('5000') } });
    const gone = change('campaigns.old', 'delete', { before: { daily_budget_amount_local_micro: m('5000'), entity_status: 'PAUSED' } });
    expect(check('guardrails:\n  max_daily_budget: "1000.00"\n', [kept, gone])).toEqual([]);
  });
});

describe('the daily spend increase of an account', () => {
  /** A serving line item of campaign `campaign`: ACTIVE, its flight not ended. */
  const serving = (campaign: string, currency = 'USD'): ResourceChange => {
    const values = { entity_status: 'ACTIVE', end_time: '2031-01-01T00:00:00Z' };
    return change(`campaigns.${campaign}.line_items.all`, 'noop', { currency, before: values, after: values });
  };
  /** A campaign `name` of `status` before and after, daily budget `before` then `after` (currency units); undefined for none. */
  const campaign = (name: string, from: { status: string; daily: string } | undefined, to: { status: string; daily: string } | undefined, currency = 'USD'): ResourceChange => {
    const values = (v: { status: string; daily: string }): Record<string, unknown> => ({ entity_status: v.status, daily_budget_amount_local_micro: m(v.daily) });
    const action = from === undefined ? 'create' : to === undefined ? 'delete' : JSON.stringify(from) === JSON.stringify(to) ? 'noop' : 'update';
    return change(`campaigns.${name}`, action, { currency, ...(from === undefined ? {} : { before: values(from) }), ...(to === undefined ? {} : { after: values(to) }) });
  };
  /** An existing serving campaign whose daily budget goes from `before` to `after` (currency units), and its line item. */
  const raise = (before: string, after: string, currency: string): ResourceChange[] => [campaign('sale', { status: 'ACTIVE', daily: before }, { status: 'ACTIVE', daily: after }, currency), serving('sale', currency)];

  for (const c of CURRENCIES) {
    it.each(STEPS)(`max_daily_spend_increase in ${c.code}: $step the limit`, ({ step, violates }) => {
      const base = c.code === 'JPY' ? '5000' : '50.00';
      const after = c.code === 'JPY' ? String(Number(c[step]) + 5000) : (Number(c[step]) + 50).toFixed(2);
      const found = check(`guardrails:\n  max_daily_spend_increase: ${c.limit}\n`, raise(base, after, c.code));
      expect(found).toEqual(violates ? [{ rule: 'max_daily_spend_increase', address: 'account', account: 'acct', enforcement: 'mandatory', value: `+${c.over} ${c.code}/day`, limit: `+${c.at} ${c.code}/day`, allowed: false }] : []);
    });

    it.each([
      { step: 'under', after: c.code === 'JPY' ? '149999' : '1499.99', violates: false },
      { step: 'at', after: c.code === 'JPY' ? '150000' : '1500.00', violates: false },
      { step: 'over', after: c.code === 'JPY' ? '150001' : '1500.01', violates: true },
    ])(`max_daily_spend_increase_percent in ${c.code}: $step the limit`, ({ after, violates }) => {
      const before = c.code === 'JPY' ? '100000' : '1000.00';
      const found = check('guardrails:\n  max_daily_spend_increase_percent: 50\n', raise(before, after, c.code));
      expect(found.map((v) => [v.rule, v.limit])).toEqual(violates ? [['max_daily_spend_increase_percent', '+50%']] : []);
      if (violates) expect(found[0]!.value).toBe(c.code === 'JPY' ? '+50.01% (+50001 JPY/day on 100000 JPY/day)' : '+50.01% (+500.01 USD/day on 1000.00 USD/day)');
    });
  }

  it('counts what serves: an activation and a serving create add, a deletion takes away, a paused create or a paused budget count in neither', () => {
    const changes = [
      campaign('kept', { status: 'ACTIVE', daily: '100' }, { status: 'ACTIVE', daily: '100' }),
      serving('kept'),
      campaign('woken', { status: 'PAUSED', daily: '60' }, { status: 'ACTIVE', daily: '60' }),
      serving('woken'),
      campaign('new', undefined, { status: 'ACTIVE', daily: '20' }),
      serving('new'),
      campaign('parked', undefined, { status: 'PAUSED', daily: '500' }),
      serving('parked'),
      campaign('asleep', { status: 'PAUSED', daily: '900' }, { status: 'PAUSED', daily: '900' }),
      serving('asleep'),
      campaign('old', { status: 'ACTIVE', daily: '30' }, undefined),
      change('campaigns.old.line_items.all', 'delete', { before: { entity_status: 'ACTIVE' } }),
    ];
    // served before: kept 100 + old 30 = 130; after: kept 100 + woken 60 + new 20 = 180; +50 is 38.46...%
    expect(check('guardrails:\n  max_daily_spend_increase: "49.99"\n  max_daily_spend_increase_percent: 38.46\n', changes).map((v) => [v.rule, v.value])).toEqual([
      ['max_daily_spend_increase', '+50.00 USD/day'],
      ['max_daily_spend_increase_percent', '+38.47% (+50.00 USD/day on 130.00 USD/day)'],
    ]);
    expect(check('guardrails:\n  max_daily_spend_increase: "50.00"\n  max_daily_spend_increase_percent: 38.47\n', changes)).toEqual([]);
  });

  it('holds an activation to the limit: a paused 100/day campaign made ACTIVE is +100/day', () => {
    const changes = [campaign('sale', { status: 'PAUSED', daily: '100' }, { status: 'ACTIVE', daily: '100' }), serving('sale')];
    expect(check('guardrails:\n  max_daily_spend_increase: "50.00"\n', changes).map((v) => [v.rule, v.value])).toEqual([['max_daily_spend_increase', '+100.00 USD/day']]);
  });

  it('takes the percentage on what served before, not on paused budgets: 273.50 a day written, 140.50 serving', () => {
    const changes = [
      campaign('a', { status: 'ACTIVE', daily: '100.50' }, { status: 'ACTIVE', daily: '150.50' }),
      serving('a'),
      campaign('b', { status: 'ACTIVE', daily: '40' }, { status: 'ACTIVE', daily: '40' }),
      serving('b'),
      campaign('c', { status: 'PAUSED', daily: '133' }, { status: 'PAUSED', daily: '133' }),
      serving('c'),
    ];
    // +50 on 140.50 is 35.59%; on the 273.50 written it would have been 18.28%
    expect(check('guardrails:\n  max_daily_spend_increase_percent: 25\n', changes).map((v) => [v.rule, v.value])).toEqual([['max_daily_spend_increase_percent', '+35.59% (+50.00 USD/day on 140.50 USD/day)']]);
    expect(check('guardrails:\n  max_daily_spend_increase_percent: 35.59\n', changes)).toEqual([]);
  });

  it('holds what serves after the plan to max_committed_spend: 100.00 a day for 10 days is 1000.00 committed', () => {
    const tenDays = { entity_status: 'ACTIVE', end_time: '2030-06-11T00:00:00Z' };
    for (const [currency, limit, over] of [['USD', '"1000.00"', '"999.99"'], ['JPY', '"100000"', '"99999"']] as const) {
      const daily = currency === 'USD' ? '100' : '10000';
      const changes = [campaign('sale', { status: 'PAUSED', daily }, { status: 'ACTIVE', daily }, currency), change('campaigns.sale.line_items.all', 'noop', { currency, before: tenDays, after: tenDays })];
      expect(check(`guardrails:\n  max_committed_spend: ${limit}\n`, changes), currency).toEqual([]);
      const found = check(`guardrails:\n  max_committed_spend: ${over}\n`, changes);
      expect(found.map((v) => [v.rule, v.address, v.value]), currency).toEqual([['max_committed_spend', 'account', currency === 'USD' ? '1000.00 USD committed' : '100000 JPY committed']]);
    }
  });

  it('holds the percentage only where the account spent before, and says so', () => {
    const first = [campaign('first', undefined, { status: 'ACTIVE', daily: '10' }), serving('first')];
    expect(check('guardrails:\n  max_daily_spend_increase_percent: 1\n', first)).toEqual([]);
    const notes = (yaml: string): string[] => {
      const cfg = config(yaml);
      const plan: Plan = { formatVersion: 'test', mode: 'plan', accounts: [accountPlan(first, { spend: accountSpend(first, accountServing(first, LIVE, NOW).spend) })], diagnostics: [] };
      return percentageNotes({ plan, policyOf: () => policyFor(cfg, undefined), allowed: new Set(), now: NOW }).map((d) => `${d.severity} ${d.code}: ${d.message}`);
    };
    expect(notes('guardrails:\n  max_daily_spend_increase_percent: 1\n')).toEqual([
      'warning guardrail-no-base: max_daily_spend_increase_percent does not apply to account acct: nothing served in USD before the plan, which makes +10.00 USD/day serve; no max_daily_spend_increase is set to hold it',
    ]);
    expect(notes('guardrails:\n  max_daily_spend_increase_percent: 1\n  max_daily_spend_increase: "20.00"\n')[0]).toContain('max_daily_spend_increase (+20.00 USD/day) still holds it');
    expect(notes('guardrails:\n  max_daily_spend_increase: "20.00"\n')).toEqual([]);
  });
});

describe('create_paused', () => {
  const yaml = 'guardrails:\n  create_paused: true\n';
  it.each([
    { name: 'a campaign created PAUSED', c: change('campaigns.a', 'create', { after: { name: 'a', entity_status: 'PAUSED' } }), found: [] },
    { name: 'a campaign created ACTIVE', c: change('campaigns.a', 'create', { after: { name: 'a', entity_status: 'ACTIVE' } }), found: [['campaigns.a', 'ACTIVE']] },
    { name: 'a line item created without a status (the API default, ACTIVE)', c: change('campaigns.a.line_items.b', 'create', { after: { name: 'b' } }), found: [['campaigns.a.line_items.b', 'ACTIVE']] },
    { name: 'a replacement created ACTIVE', c: change('campaigns.a', 'replace', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }), found: [['campaigns.a', 'ACTIVE']] },
    { name: 'an existing campaign switched to ACTIVE (not a create)', c: change('campaigns.a', 'update', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'ACTIVE' } }), found: [] },
    { name: 'a kind that does not serve', c: change('custom_audiences.a', 'create', { after: { name: 'a' } }), found: [] },
  ])('$name', ({ c, found }) => {
    const violations = check(yaml, [c]).filter((v) => v.rule !== 'protect_serving');
    expect(violations.map((v) => [v.address, v.value])).toEqual(found);
    for (const v of violations) expect(v).toMatchObject({ attribute: 'entity_status', limit: 'PAUSED' });
  });
});

describe('protect_serving', () => {
  const yaml = 'guardrails:\n  protect_serving: true\n';
  const del = (status: string, end?: string): ResourceChange => change('campaigns.a.line_items.b', 'delete', { before: { entity_status: status, ...(end === undefined ? {} : { end_time: end }) } });
  it.each([
    { name: 'the delete of a serving line item', c: del('ACTIVE'), found: ['ACTIVE, deleted'] },
    { name: 'the delete of a paused one', c: del('PAUSED'), found: [] },
    { name: 'the delete of an ACTIVE one whose flight ended', c: del('ACTIVE', '2030-05-31T23:59:59Z'), found: [] },
    { name: 'the delete of an ACTIVE one whose flight ends at this very moment', c: del('ACTIVE', '2030-06-01T00:00:00Z'), found: [] },
    { name: 'the delete of an ACTIVE one whose flight ends a second later', c: del('ACTIVE', '2030-06-01T00:00:01Z'), found: ['ACTIVE, deleted'] },
    { name: 'an update of a serving one', c: change('campaigns.a', 'update', { before: { entity_status: 'ACTIVE', name: 'a' }, after: { entity_status: 'ACTIVE', name: 'b' } }), found: [] },
  ])('$name', ({ c, found }) => {
    expect(check(yaml, [c]).map((v) => v.value)).toEqual(found);
  });

  it('reads a replacement\'s live status from what the plan recorded of it (its before holds only what the manifest manages)', () => {
    const replaced = change('campaigns.a', 'replace', { before: { funding_instrument_id: 'f1' }, after: { funding_instrument_id: 'f2' } });
    expect(check(yaml, [replaced], { retiring: [{ address: 'campaigns.a', status: 'ACTIVE', end: null, serves: true }] }).map((v) => [v.rule, v.value])).toEqual([['protect_serving', 'ACTIVE, replaced']]);
    expect(check(yaml, [replaced], { retiring: [{ address: 'campaigns.a', status: 'PAUSED', end: null, serves: false }] })).toEqual([]);
  });

  it('guards only what serves, as the plan recorded it: an ACTIVE line item under a paused campaign goes', () => {
    const gone = change('campaigns.a.line_items.b', 'delete', { before: { entity_status: 'ACTIVE' } });
    expect(check(yaml, [gone], { retiring: [{ address: 'campaigns.a.line_items.b', status: 'ACTIVE', end: null, serves: false }] })).toEqual([]);
    expect(check(yaml, [gone], { retiring: [{ address: 'campaigns.a.line_items.b', status: 'ACTIVE', end: null, serves: true }] }).map((v) => v.value)).toEqual(['ACTIVE, deleted']);
  });
});

describe('names', () => {
  const yaml = 'guardrails:\n  names: { campaigns: "^[A-Z]{2}-", line_items: "^[a-z]" }\n';
  it.each([
    { name: 'a campaign name that matches', c: change('campaigns.a', 'create', { after: { name: 'US-sale', entity_status: 'PAUSED' } }), found: [] },
    { name: 'one that does not', c: change('campaigns.a', 'create', { after: { name: 'sale', entity_status: 'PAUSED' } }), found: [['campaigns.a', 'sale', '/^[A-Z]{2}-/']] },
    { name: 'a renamed campaign', c: change('campaigns.a', 'update', { before: { name: 'US-a' }, after: { name: 'a' } }), found: [['campaigns.a', 'a', '/^[A-Z]{2}-/']] },
    { name: 'a line item', c: change('campaigns.a.line_items.b', 'create', { after: { name: 'Feed', entity_status: 'PAUSED' } }), found: [['campaigns.a.line_items.b', 'Feed', '/^[a-z]/']] },
    { name: 'a collection without a pattern', c: change('custom_audiences.x', 'create', { after: { name: 'anything' } }), found: [] },
  ])('$name', ({ c, found }) => {
    expect(check(yaml, [c]).map((v) => [v.address, v.value, v.limit])).toEqual(found);
  });
});

describe('enforcement, accounts and --allow', () => {
  const over = change('campaigns.a', 'create', { after: { name: 'a', entity_status: 'PAUSED', daily_budget_amount_local_micro: m('2000') } });

  it.each([
    { name: 'mandatory by default', yaml: 'guardrails:\n  max_daily_budget: "1000.00"\n', enforcement: 'mandatory' },
    { name: 'advisory for the whole block', yaml: 'guardrails:\n  enforcement: advisory\n  max_daily_budget: "1000.00"\n', enforcement: 'advisory' },
    { name: 'advisory for one rule', yaml: 'guardrails:\n  max_daily_budget: { value: "1000.00", enforcement: advisory }\n', enforcement: 'advisory' },
    { name: 'a rule\'s own enforcement over the block\'s', yaml: 'guardrails:\n  enforcement: advisory\n  max_daily_budget: { value: "1000.00", enforcement: mandatory }\n', enforcement: 'mandatory' },
  ])('$name', ({ yaml, enforcement }) => {
    expect(check(yaml, [over]).map((v) => v.enforcement)).toEqual([enforcement]);
  });

  it('lays an account\'s entry over the block: its own limit, its own enforcement, a rule switched off', () => {
    const yaml = [
      'guardrails:',
      '  max_daily_budget: "1000.00"',
      '  create_paused: true',
      '  accounts:',
      '    "18ce54d4x5t":',
      '      max_daily_budget: "2500.00"',
      '      create_paused: false',
      '    "abc1":',
      '      enforcement: advisory',
      '',
    ].join('\n');
    const active = change('campaigns.b', 'create', { after: { name: 'b', entity_status: 'ACTIVE', daily_budget_amount_local_micro: m('2000') } });
    expect(check(yaml, [active], { accountId: '18ce54d4x5t' })).toEqual([]);
    expect(check(yaml, [active], { accountId: 'other' }).map((v) => [v.rule, v.enforcement])).toEqual([
      ['max_daily_budget', 'mandatory'],
      ['create_paused', 'mandatory'],
    ]);
    expect(check(yaml, [active], { accountId: 'abc1' }).map((v) => [v.rule, v.enforcement])).toEqual([
      ['max_daily_budget', 'advisory'],
      ['create_paused', 'advisory'],
    ]);
  });

  it('marks the violations of a rule lifted by --allow as allowed, and only those', () => {
    const both = change('campaigns.a', 'create', { after: { name: 'a', entity_status: 'ACTIVE', daily_budget_amount_local_micro: m('2000') } });
    const found = check('guardrails:\n  max_daily_budget: "1000.00"\n  create_paused: true\n', [both], { allowed: ['max_daily_budget'] });
    expect(found.map((v) => [v.rule, v.allowed])).toEqual([
      ['max_daily_budget', true],
      ['create_paused', false],
    ]);
  });
});

describe('bad settings in adsctl.yaml', () => {
  it.each([
    { name: 'an unknown rule', text: 'guardrails:\n  max_budget: "10.00"\n', code: 'guardrails-rule', line: 2, column: 3, says: 'has no rule max_budget' },
    { name: 'an amount with a comma', text: 'guardrails:\n  max_daily_budget: "1,000.00"\n', code: 'guardrails-number', line: 2, column: 21, says: 'is not an amount in currency units' },
    { name: 'an amount below a micro', text: 'guardrails:\n  max_bid: "0.0000001"\n', code: 'guardrails-number', line: 2, column: 12, says: 'at most 6 are allowed' },
    { name: 'a negative amount', text: 'guardrails:\n  max_bid: "-5"\n', code: 'guardrails-number', line: 2, column: 12, says: 'out of range' },
    { name: 'an amount written as a YAML number in exponent form', text: 'guardrails:\n  max_daily_spend_increase: 1e9\n', code: 'guardrails-number', line: 2, column: 29, says: 'guardrails.max_daily_spend_increase 1e9 is a YAML number; amounts are strings in currency units, like budgets: quote it: "1000000000.00"' },
    { name: 'an amount written as a YAML integer', text: 'guardrails:\n  max_committed_spend: 20000\n', code: 'guardrails-number', line: 2, column: 24, says: 'quote it: "20000.00"' },
    { name: 'an amount written as a YAML decimal, under value', text: 'guardrails:\n  max_bid: { value: 2.5, enforcement: advisory }\n', code: 'guardrails-number', line: 2, column: 21, says: 'guardrails.max_bid 2.5 is a YAML number' },
    { name: 'a negative YAML number', text: 'guardrails:\n  max_daily_budget: -5\n', code: 'guardrails-number', line: 2, column: 21, says: 'is a YAML number; amounts are strings in currency units, like budgets: write a quoted amount such as "1000.00"' },
    { name: 'an account\'s amount written as a YAML number', text: 'guardrails:\n  accounts:\n    "18ce54d4x5t":\n      max_total_budget: 5000\n', code: 'guardrails-number', line: 4, column: 25, says: 'guardrails.accounts.18ce54d4x5t.max_total_budget 5000 is a YAML number' },
    { name: 'a percentage that is not a number', text: 'guardrails:\n  max_daily_spend_increase_percent: lots\n', code: 'guardrails-number', line: 2, column: 37, says: 'is not a percentage' },
    { name: 'a switch that is not a boolean', text: 'guardrails:\n  create_paused: yes please\n', code: 'guardrails-value', line: 2, column: 18, says: 'true or false' },
    { name: 'an unknown enforcement', text: 'guardrails:\n  enforcement: strict\n', code: 'guardrails-enforcement', line: 2, column: 16, says: 'mandatory or advisory, not strict' },
    { name: 'an unknown key in a rule', text: 'guardrails:\n  max_bid: { value: "1.00", level: advisory }\n', code: 'guardrails-key', line: 2, column: 29, says: 'not level' },
    { name: 'a regular expression that does not compile', text: 'guardrails:\n  names:\n    campaigns: "^[A-Z"\n', code: 'guardrails-regex', line: 3, column: 16, says: 'names.campaigns' },
    { name: 'a collection whose objects have no name', text: 'guardrails:\n  names:\n    targeting: "^x"\n', code: 'guardrails-collection', line: 3, column: 5, says: 'collection targeting' },
    { name: 'an account id no manifest has', text: 'guardrails:\n  accounts:\n    "18ce54d4x5u":\n      max_bid: "1.00"\n', code: 'guardrails-account', line: 3, column: 5, says: 'account 18ce54d4x5u, which no manifest of this root has (they have 18ce54d4x5t)' },
    { name: 'an unknown section of adsctl.yaml', text: 'guardrail:\n  max_bid: "1.00"\n', code: 'config-key', line: 1, column: 1, says: 'holds only state: and guardrails:' },
  ])('refuses $name at its line and column', ({ text, code, line, column, says }) => {
    writeFileSync(join(dir, 'adsctl.yaml'), text);
    const read = readGuardrails(dir, new Set(['18ce54d4x5t']));
    expect(read.config).toBeUndefined();
    expect(read.diagnostics[0]).toMatchObject({ severity: 'error', code, range: { start: { line, column } } });
    expect(read.diagnostics[0]?.message).toContain(says);
    expect(read.diagnostics[0]?.range?.file).toMatch(/adsctl\.yaml$/);
  });

  it('reports every bad setting, not only the first', () => {
    writeFileSync(join(dir, 'adsctl.yaml'), 'guardrails:\n  max_bid: abc\n  names: { campaigns: "(" }\n  nope: 1\n');
    expect(readGuardrails(dir).diagnostics.map((d) => [d.code, d.range?.start.line])).toEqual([
      ['guardrails-number', 2],
      ['guardrails-regex', 3],
      ['guardrails-rule', 4],
    ]);
  });

  it('reads amounts exactly, as written, and percentages as numbers or strings', () => {
    const cfg = config('guardrails:\n  max_bid: "0.1"\n  max_daily_budget: "123456789.123456"\n  max_daily_spend_increase_percent: 12.5\n');
    expect(policyFor(cfg, undefined)).toMatchObject({ max_bid: { value: 100_000 }, max_daily_budget: { value: 123_456_789_123_456 }, max_daily_spend_increase_percent: { value: 12_500_000 } });
    expect(policyFor(config('guardrails:\n  max_daily_spend_increase_percent: "12.5"\n'), undefined)).toMatchObject({ max_daily_spend_increase_percent: { value: 12_500_000 } });
  });
});
