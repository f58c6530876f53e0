/**
 * The plan's warnings about the funding instruments that pay for what serves (src/plan/funding.ts):
 * committed spend over a funding instrument's credit left, and a campaign serving past its end.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import type { LiveAccount } from '../../src/live/types.js';
import { checkFunding } from '../../src/plan/funding.js';
import { accountServing } from '../../src/plan/serving-spend.js';

const NOW = new Date('2026-11-23T00:00:00Z');
const DAILY = 'daily_budget_amount_local_micro';

const campaign = { entity_status: 'ACTIVE', [DAILY]: 100_000_000, funding_instrument_id: 'fi' };
const changes = (end: string | null, status = 'ACTIVE'): ResourceChange[] => [
  { account: 'a', address: { kind: 'campaign', steps: [{ collection: 'campaigns', key: 'c' }] } as unknown as ResourceChange['address'], kind: 'campaign', action: 'noop', id: 'c1', before: { ...campaign, entity_status: status }, after: { ...campaign, entity_status: status }, changes: [], drift: false, protected: false, currency: 'USD' },
  {
    account: 'a',
    address: { kind: 'line_item', steps: [{ collection: 'campaigns', key: 'c' }, { collection: 'line_items', key: 'l' }] } as unknown as ResourceChange['address'],
    kind: 'line_item',
    action: 'noop',
    id: 'l1',
    before: { entity_status: 'ACTIVE', end_time: end },
    after: { entity_status: 'ACTIVE', end_time: end },
    changes: [],
    drift: false,
    protected: false,
    currency: 'USD',
  },
];

function live(fi: Record<string, unknown>): LiveAccount {
  return { account: 'a', accountId: 'x', currencies: {}, resources: new Map([['funding_instrument', new Map([['fi', { kind: 'funding_instrument', id: 'fi', record: { id: 'fi', currency: 'USD', able_to_fund: true, ...fi }, fingerprint: '' }]])]]), missing: new Set() };
}

describe('funding warnings', () => {
  const rows: Array<{ name: string; end: string | null; fi: Record<string, unknown>; status?: string; codes: string[]; says?: string }> = [
    { name: '10 days at 100.00 within 1000.00 of credit', end: '2026-12-03T00:00:00Z', fi: { credit_remaining_local_micro: 1_000_000_000 }, codes: [] },
    { name: '10 days at 100.00 over 999.99 of credit', end: '2026-12-03T00:00:00Z', fi: { credit_remaining_local_micro: 999_990_000 }, codes: ['committed-over-credit'], says: 'commit 1000.00 USD over their flights, more than the 999.99 USD of credit it has left: campaigns.c' },
    { name: 'open-ended: 30 days counted, and said', end: null, fi: { credit_remaining_local_micro: 2_000_000_000 }, codes: ['committed-over-credit'], says: 'commit 3000.00 USD over their flights (a flight without an end counted 30 days)' },
    { name: 'a card without a credit line: no credit to pass', end: null, fi: { credit_remaining_local_micro: null }, codes: [] },
    { name: 'serving past the funding instrument end', end: '2026-12-31T00:00:00Z', fi: { end_time: '2026-12-15T00:00:00Z' }, codes: ['serves-past-funding'], says: 'campaigns.c serves until 2026-12-31T00:00:00Z, after funding instrument fi ends at 2026-12-15T00:00:00Z' },
    { name: 'open-ended past the funding instrument end', end: null, fi: { end_time: '2026-12-15T00:00:00Z' }, codes: ['serves-past-funding'], says: 'campaigns.c has a line item without an end' },
    { name: 'ending with the funding instrument', end: '2026-12-15T00:00:00Z', fi: { end_time: '2026-12-15T00:00:00Z' }, codes: [] },
    { name: 'a paused campaign commits nothing', end: null, status: 'PAUSED', fi: { credit_remaining_local_micro: 0, end_time: '2026-12-15T00:00:00Z' }, codes: [] },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const account = live(row.fi);
      const found = checkFunding(accountServing(changes(row.end, row.status), account, NOW).commitments, account);
      expect(found.map((d) => d.code)).toEqual(row.codes);
      expect(found.every((d) => d.severity === 'warning')).toBe(true);
      if (row.says !== undefined) expect(found[0]?.message).toContain(row.says);
    });
  }
});
