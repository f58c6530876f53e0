/**
 * The golden harness's live fixtures (test/golden/plan/live-fixture.ts): a record that is not
 * what the wire schema says the emulator returns is refused, and the fixture served as the API
 * answers and counts reads as the real client would, so the plans' read counts mean something.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkLiveFixture, fixtureApi, type LiveFixture, type WireRecord } from '../golden/plan/live-fixture.js';

const noChanges = JSON.parse(readFileSync(new URL('../golden/plan/no-changes/live.json', import.meta.url), 'utf8')) as LiveFixture;
const campaign = noChanges.campaign?.[0];
if (campaign === undefined) throw new Error('the no-changes fixture has no campaign');

const without = (record: WireRecord, field: string): WireRecord => Object.fromEntries(Object.entries(record).filter(([k]) => k !== field));

describe('checkLiveFixture', () => {
  const rows: Array<{ name: string; fixture: unknown; problem: string | undefined }> = [
    { name: 'every committed record of a fixture', fixture: noChanges, problem: undefined },
    { name: 'not an object', fixture: [campaign], problem: 'not an object of records by kind' },
    { name: 'an unknown kind', fixture: { campaigns: [campaign] }, problem: 'unknown kind "campaigns"' },
    { name: 'records not in a list', fixture: { campaign }, problem: 'campaign must be a list of records' },
    { name: 'a required field missing', fixture: { campaign: [without(campaign, 'servable')] }, problem: "must have required property 'servable'" },
    { name: 'a field the API does not have', fixture: { campaign: [{ ...campaign, daily_budget: '50.00' }] }, problem: 'must NOT have additional properties' },
    { name: 'money as a decimal string', fixture: { campaign: [{ ...campaign, daily_budget_amount_local_micro: '50000000' }] }, problem: 'daily_budget_amount_local_micro must be integer,null' },
    { name: 'a timestamp with milliseconds', fixture: { campaign: [{ ...campaign, updated_at: '2026-11-20T09:00:00.000Z' }] }, problem: 'updated_at must match pattern' },
    { name: 'a deleted record', fixture: { campaign: [{ ...campaign, deleted: true }] }, problem: 'deleted records are never listed' },
    { name: 'an id twice', fixture: { campaign: [campaign, campaign] }, problem: `id ${String(campaign['id'])} appears twice` },
    { name: 'feature keys that are not strings', fixture: { features: [1] }, problem: 'features must be a list of feature keys' },
  ];
  it.each(rows)('$name', ({ fixture, problem }) => {
    const problems = checkLiveFixture(fixture, 'live.json');
    if (problem === undefined) expect(problems).toEqual([]);
    else expect(problems.join('\n')).toContain(problem);
  });
});

describe('fixtureApi', () => {
  const campaigns = (n: number, status = 'PAUSED'): WireRecord[] => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, entity_status: status }));
  const criteria: WireRecord[] = [
    { id: 't1', line_item_id: 'l1' },
    { id: 't2', line_item_id: 'l2' },
    { id: 't3', line_item_id: 'l1' },
  ];

  const rows: Array<{ name: string; fixture: LiveFixture; read: (api: ReturnType<typeof fixtureApi>['api']) => Promise<unknown[]>; records: number; reads: number }> = [
    { name: 'a list: one read per 1,000 records', fixture: { campaign: campaigns(2500) }, read: (api) => api.list('campaign', 'acct', { with_draft: true }), records: 2500, reads: 3 },
    { name: 'an empty list still costs a read', fixture: {}, read: (api) => api.list('promoted_tweet', 'acct'), records: 0, reads: 1 },
    { name: 'drafts only with with_draft', fixture: { campaign: [...campaigns(2), ...campaigns(1, 'DRAFT').map((c) => ({ ...c, id: 'd' }))] }, read: (api) => api.list('campaign', 'acct'), records: 2, reads: 1 },
    {
      name: 'an id filter: one read per 200 distinct ids',
      fixture: { campaign: campaigns(500) },
      read: (api) => api.listWhere('campaign', 'acct', 'campaign_ids', [...campaigns(450).map((c) => String(c['id'])), 'c0', 'c1']),
      records: 450,
      reads: 3,
    },
    { name: 'targeting criteria by line item', fixture: { targeting_criterion: criteria }, read: (api) => api.targetingCriteria('acct', ['l1']), records: 2, reads: 1 },
    { name: 'the account', fixture: { account: [{ id: 'acct' }] }, read: async (api) => [await api.account('acct')], records: 1, reads: 1 },
  ];
  it.each(rows)('$name', async ({ fixture, read, records, reads }) => {
    const served = fixtureApi(fixture, 'acct');
    expect(await read(served.api)).toHaveLength(records);
    expect(served.reads()).toBe(reads);
  });

  it('refuses every operation refresh does not make, and other accounts', async () => {
    const { api } = fixtureApi({}, 'acct');
    expect(() => api.update('campaign', 'acct', 'c1', {})).toThrow('AdsApi.update');
    await expect(async () => api.list('campaign', 'other')).rejects.toThrow('not other');
  });
});
