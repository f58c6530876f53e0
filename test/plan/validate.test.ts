/**
 * Validation against the live lookups before anything is written (src/plan/validate.ts): bids
 * within the bidding rules of their currency and a multiple of its denomination, placements
 * among the combinations of the product type, permissions that allow the writes, and the three
 * account limits of Part A counted with what the account already holds, at every moment of the
 * scheduled apply (validation runs inside buildPlan, on its schedule).
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import { MAX_ACTIVE_CAMPAIGNS } from '../../src/kinds/campaign.js';
import { MAX_ACTIVE_LINE_ITEMS, MAX_LINE_ITEMS_PER_CAMPAIGN } from '../../src/kinds/line-item.js';
import type { Lookups } from '../../src/live/lookups.js';
import type { LiveAccount } from '../../src/live/types.js';
import type { ResourceKind } from '../../src/manifest/types.js';
import { buildPlan } from '../../src/plan/build.js';
import { validateAgainstLookups as validate } from '../../src/plan/validate.js';
import { emulatorLookups } from '../golden/plan/harness.js';
import { ACCOUNT_ID, change, liveAccount } from './builders.js';

const LOOKUPS = emulatorLookups(ACCOUNT_ID);

/** The problems the lookups find in the plan of `changes`, validated as `buildPlan` does: against its scheduled steps. */
function validateAgainstLookups(input: { changes: ResourceChange[]; desired: undefined; live: LiveAccount; lookups: Lookups }): Diagnostic[] {
  const planned = buildPlan('plan', [{ account: ACCOUNT_ID, accountId: ACCOUNT_ID, endpoint: 'local', desired: undefined, changes: input.changes, live: input.live, lookups: undefined, reads: 0, stateSerial: 0 }]);
  return validate({ ...input, layers: planned.accounts[0]?.layers ?? [] });
}

/** The account's live campaigns and line items, as many as the limits need. */
interface Holding {
  activeCampaigns?: number;
  activeLineItems?: number;
  lineItemsByCampaign?: Record<string, number>;
}

function holding(h: Holding): LiveAccount {
  const records: Array<[ResourceKind, Record<string, unknown>]> = [];
  for (let i = 0; i < (h.activeCampaigns ?? 0); i++) records.push(['campaign', { id: `live-c${i}`, entity_status: 'ACTIVE' }]);
  let n = 0;
  for (let i = 0; i < (h.activeLineItems ?? 0); i++) records.push(['line_item', { id: `live-l${n++}`, campaign_id: `live-c${i}`, entity_status: 'ACTIVE' }]);
  for (const [campaign, count] of Object.entries(h.lineItemsByCampaign ?? {})) {
    for (let i = 0; i < count; i++) records.push(['line_item', { id: `live-l${n++}`, campaign_id: campaign, entity_status: 'PAUSED' }]);
  }
  return liveAccount(records);
}

const codes = (changes: ResourceChange[], options: { permissions?: string[] | null; counts?: Holding } = {}): string[] => {
  const permissions: Record<string, string[]> = options.permissions === null ? {} : { [ACCOUNT_ID]: options.permissions ?? ['ACCOUNT_ADMIN'] };
  return validateAgainstLookups({ changes, desired: undefined, live: holding(options.counts ?? {}), lookups: { ...LOOKUPS, permissions } }).map((d) => d.code);
};

/** The fields a line item's create needs (so that only the row's problem is found). */
const CREATABLE = { product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: ['ALL_ON_SERVICE'], start_time: '2026-12-01T00:00:00Z' };

const lineItem = (text: string, after: Record<string, unknown>, action: 'create' | 'update' | 'replace' = 'create', currency?: string): ResourceChange =>
  change(text, action, { after: { campaign_id: 'c1', entity_status: 'PAUSED', ...CREATABLE, ...after }, before: action === 'create' ? null : { campaign_id: 'c1', entity_status: 'PAUSED' }, ...(currency === undefined ? {} : { currency }) });

describe('validateAgainstLookups: bids', () => {
  const rows: Array<{ name: string; bid: number; currency?: string; action?: 'create' | 'update'; codes: string[] }> = [
    { name: 'the USD minimum', bid: 10_000, currency: 'USD', codes: [] },
    { name: 'the USD maximum', bid: 1_000_000_000, currency: 'USD', codes: [] },
    { name: 'below the USD minimum', bid: 5_000, currency: 'USD', codes: ['bid-out-of-range'] },
    { name: 'above the USD maximum', bid: 1_000_010_000, currency: 'USD', codes: ['bid-out-of-range'] },
    { name: 'not a multiple of 0.01 USD', bid: 1_234_567, currency: 'USD', codes: ['bid-denomination'] },
    { name: 'no currency: the rules of USD', bid: 1_234_567, codes: ['bid-denomination'] },
    { name: 'a JPY bid of whole yen', bid: 2_000_000, currency: 'JPY', codes: [] },
    { name: 'a JPY bid with a fraction of a yen', bid: 1_500_000, currency: 'JPY', codes: ['bid-denomination'] },
    { name: 'below the JPY minimum, fine in USD', bid: 500_000, currency: 'JPY', codes: ['bid-out-of-range'] },
    { name: 'a currency without bidding rules is not checked', bid: 1, currency: 'CHF', codes: [] },
    { name: 'an update is checked like a create', bid: 1_234_567, currency: 'USD', action: 'update', codes: ['bid-denomination'] },
  ];
  it.each(rows)('$name', ({ bid, currency, action, codes: expected }) => {
    expect(codes([lineItem('campaigns.a.line_items.l', { bid_amount_local_micro: bid }, action ?? 'create', currency)])).toEqual(expected);
  });

  it.each([
    { currency: 'USD', bid: 123_456, message: 'bid 0.123456 USD is not a multiple of the smallest denomination 0.01 USD' },
    { currency: 'JPY', bid: 1_500_000, message: 'bid 1.5 JPY is not a multiple of the smallest denomination 1 JPY' },
    { currency: 'JPY', bid: 500_000, message: 'bid 0.5 JPY is outside the bidding rules of JPY (1 to 150000)' },
  ])("says the bid and the rule in units of $currency, with the currency's own decimals", ({ currency, bid, message }) => {
    const [d] = validateAgainstLookups({ changes: [lineItem('campaigns.a.line_items.l', { bid_amount_local_micro: bid }, 'create', currency)], desired: undefined, live: liveAccount(), lookups: LOOKUPS });
    expect(d?.message).toBe(message);
  });
});

describe('validateAgainstLookups: IAB categories', () => {
  const rows: Array<{ name: string; categories: string[]; known?: string[]; codes: string[] }> = [
    { name: 'known categories', categories: ['IAB3', 'IAB3-1'], codes: [] },
    { name: 'an unknown category', categories: ['IAB3-1', 'IAB99-9'], codes: ['unknown-iab-category'] },
    { name: 'no categories', categories: [], codes: [] },
    { name: 'not checked without the lookup (no change set categories)', categories: ['IAB99-9'], known: undefined, codes: [] },
  ];
  it.each(rows)('$name', ({ categories, codes: expected, ...row }) => {
    const known = 'known' in row ? row.known : ['IAB3', 'IAB3-1'];
    const lookups = { ...LOOKUPS, ...(known === undefined ? {} : { iabCategories: known }) };
    const found = validateAgainstLookups({ changes: [lineItem('campaigns.a.line_items.l', { categories })], desired: undefined, live: liveAccount(), lookups }).map((d) => d.code);
    expect(found).toEqual(expected);
  });
});

describe('validateAgainstLookups: curated categories', () => {
  const attach = (id: string): ResourceChange => change('campaigns.a.line_items.l.curated_categories["' + id + '"]', 'create', { after: { curated_category_id: id, line_item_id: 'li1' } });
  it.each([
    ['an available category', 'cc1', ['cc1', 'cc2'], []],
    ['a category the account cannot use', 'cc9', ['cc1', 'cc2'], ['unknown-curated-category']],
    ['not checked without the lookup', 'cc9', undefined, []],
  ] as const)('%s', (_name, id, available, expected) => {
    const lookups = { ...LOOKUPS, ...(available === undefined ? {} : { curatedCategories: [...available] }) };
    expect(validateAgainstLookups({ changes: [attach(id)], desired: undefined, live: liveAccount(), lookups }).map((d) => d.code)).toEqual(expected);
  });
});

describe('validateAgainstLookups: placements', () => {
  const rows: Array<{ name: string; product: string; placements: string[]; action?: 'create' | 'update' | 'replace'; codes: string[] }> = [
    { name: 'a valid combination', product: 'PROMOTED_TWEETS', placements: ['ALL_ON_SERVICE'], codes: [] },
    { name: 'a valid combination in any order', product: 'PROMOTED_TWEETS', placements: ['SERVICE_TIMELINE', 'SERVICE_SEARCH'], codes: [] },
    { name: 'a placement alone that only goes with another', product: 'PROMOTED_TWEETS', placements: ['SERVICE_PROFILE'], codes: ['invalid-placements'] },
    { name: 'a combination of another product type', product: 'PROMOTED_ACCOUNT', placements: ['PUBLISHER_NETWORK'], codes: ['invalid-placements'] },
    { name: 'too many placements', product: 'MEDIA', placements: ['ALL_ON_SERVICE', 'PUBLISHER_NETWORK'], codes: ['invalid-placements'] },
    { name: 'a replacement is checked like a create', product: 'PROMOTED_TWEETS', placements: ['SERVICE_PROFILE'], action: 'replace', codes: ['invalid-placements'] },
    { name: 'an update cannot change placements and is not checked', product: 'PROMOTED_TWEETS', placements: ['SERVICE_PROFILE'], action: 'update', codes: [] },
    { name: 'a product type the lookups do not know is not checked', product: 'NEW_PRODUCT', placements: ['ANYWHERE'], codes: [] },
  ];
  it.each(rows)('$name', ({ product, placements, action, codes: expected }) => {
    expect(codes([lineItem('campaigns.a.line_items.l', { product_type: product, placements }, action ?? 'create')])).toEqual(expected);
  });

  it('lists the valid combinations', () => {
    const [d] = validateAgainstLookups({ changes: [lineItem('campaigns.a.line_items.l', { product_type: 'MEDIA', placements: ['SERVICE_SEARCH'] })], desired: undefined, live: liveAccount(), lookups: LOOKUPS });
    expect(d?.message).toBe('placements [SERVICE_SEARCH] are not a valid combination for MEDIA; valid: [ALL_ON_SERVICE], [PUBLISHER_NETWORK]');
  });
});

describe('validateAgainstLookups: permissions', () => {
  const write = [change('campaigns.a', 'update', { after: { name: 'A' }, before: { name: 'B' } })];
  const rows: Array<{ name: string; permissions: string[] | null; changes?: ResourceChange[]; codes: string[] }> = [
    { name: 'an account admin', permissions: ['ACCOUNT_ADMIN'], codes: [] },
    { name: 'an ad manager', permissions: ['AD_MANAGER', 'TWEET_COMPOSER'], codes: [] },
    { name: 'a campaign analyst', permissions: ['CAMPAIGN_ANALYST'], codes: ['permission-denied'] },
    { name: 'a creative manager', permissions: ['CREATIVE_MANAGER'], codes: ['permission-denied'] },
    { name: 'no permissions at all', permissions: [], codes: ['permission-denied'] },
    { name: 'permissions not looked up for the account', permissions: null, codes: [] },
    { name: 'a plan that writes nothing needs no permission', permissions: ['CAMPAIGN_ANALYST'], changes: [change('campaigns.a', 'noop')], codes: [] },
  ];
  it.each(rows)('$name', ({ permissions, changes, codes: expected }) => {
    expect(codes(changes ?? write, { permissions })).toEqual(expected);
  });
});

describe('validateAgainstLookups: account limits with the live counts', () => {
  it('has the limits of Part A', () => {
    expect([MAX_ACTIVE_CAMPAIGNS, MAX_LINE_ITEMS_PER_CAMPAIGN, MAX_ACTIVE_LINE_ITEMS]).toEqual([200, 100, 256]);
  });

  const campaign = (key: string, action: 'create' | 'update' | 'delete', status?: { before?: string; after?: string }): ResourceChange =>
    change(`campaigns.${key}`, action, {
      ...(action === 'create' ? {} : { before: { entity_status: status?.before ?? 'ACTIVE' } }),
      ...(action === 'delete' ? {} : { after: status?.after === undefined ? {} : { entity_status: status.after } }),
    });
  const li = (key: string, action: 'create' | 'delete', campaignId: unknown = 'c1', status = 'PAUSED'): ResourceChange =>
    change(`campaigns.a.line_items.${key}`, action, {
      ...(action === 'create' ? { after: { campaign_id: campaignId, entity_status: status } } : { before: { campaign_id: campaignId, entity_status: status } }),
    });

  const rows: Array<{ name: string; counts: Holding; changes: ResourceChange[]; codes: string[] }> = [
    { name: '199 active campaigns and one more (ACTIVE by default)', counts: { activeCampaigns: 199 }, changes: [campaign('n', 'create')], codes: [] },
    { name: '200 active campaigns and one more', counts: { activeCampaigns: 200 }, changes: [campaign('n', 'create')], codes: ['limit-active-campaigns'] },
    { name: '200 active campaigns and a paused one', counts: { activeCampaigns: 200 }, changes: [campaign('n', 'create', { after: 'PAUSED' })], codes: [] },
    { name: '200 active campaigns and a paused one activated', counts: { activeCampaigns: 200 }, changes: [campaign('p', 'update', { before: 'PAUSED', after: 'ACTIVE' })], codes: ['limit-active-campaigns'] },
    {
      name: '200 active campaigns, one deleted and one activated',
      counts: { activeCampaigns: 200 },
      changes: [campaign('old', 'delete'), campaign('p', 'update', { before: 'PAUSED', after: 'ACTIVE' })],
      codes: [],
    },
    { name: '255 active line items and one more', counts: { activeLineItems: 255, lineItemsByCampaign: { c1: 1 } }, changes: [li('n', 'create', 'c1', 'ACTIVE')], codes: [] },
    { name: '256 active line items and one more', counts: { activeLineItems: 256, lineItemsByCampaign: { c1: 1 } }, changes: [li('n', 'create', 'c1', 'ACTIVE')], codes: ['limit-active-line-items'] },
    {
      name: '200 active campaigns, one paused and one created active (the pause runs first)',
      counts: { activeCampaigns: 200 },
      changes: [campaign('new', 'create'), campaign('old', 'update', { before: 'ACTIVE', after: 'PAUSED' })],
      codes: [],
    },
    { name: '99 line items in the campaign and one more', counts: { lineItemsByCampaign: { c1: 99 } }, changes: [li('n', 'create')], codes: [] },
    { name: '100 line items in the campaign and one more', counts: { lineItemsByCampaign: { c1: 100 } }, changes: [li('n', 'create')], codes: ['limit-line-items-per-campaign'] },
    { name: '100 line items in another campaign', counts: { lineItemsByCampaign: { c2: 100 } }, changes: [li('n', 'create')], codes: [] },
    {
      name: '100 line items in the campaign, one deleted and one created (the delete runs first whatever the address order)',
      counts: { lineItemsByCampaign: { c1: 100 } },
      changes: [li('a_new', 'create'), li('z_old', 'delete')],
      codes: [],
    },
    {
      name: '101 line items in a campaign yet to be created',
      counts: {},
      changes: Array.from({ length: 101 }, (_, i) => li(`n${i}`, 'create', { $ref: 'campaigns.new' })),
      codes: ['limit-line-items-per-campaign'],
    },
  ];
  it.each(rows)('$name', ({ counts, changes, codes: expected }) => {
    expect(codes(changes, { counts })).toEqual(expected);
  });
});
