/**
 * Reading who changed a drifted object (src/live/attribution.ts; the subjects, src/diff/drifted.ts):
 * each object's history is read from when adsctl last recorded it (`recorded_at` of its state
 * entry), else from the last apply — the hours of the window and the changes kept both count from
 * there, a change in the very second of the recording being adsctl's own; one refusal is all the
 * history costs when it cannot be read.
 */
import { describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import { ApiError } from '../../src/api/errors.js';
import type { AccountHistoryRecord } from '../../src/api/generated/wire.js';
import { driftedSubjects } from '../../src/diff/drifted.js';
import type { ResourceChange } from '../../src/diff/types.js';
import { readAttribution } from '../../src/live/attribution.js';
import type { AccountState } from '../../src/state/state-file.js';

const record = (entityId: string, time: string, user: string): AccountHistoryRecord =>
  ({ change_by: { user_id: user, platform: 'API' }, change_time: time, entity_id: entityId, entity: 'CAMPAIGN', change_type: 'UPDATE', changes: { daily_budget_amount_local_micro: 1 }, entity_data: {} }) as unknown as AccountHistoryRecord;

/** An API whose history holds `records`, answering what each window asks for; `refuse` answers every request 403. */
function historyApi(records: AccountHistoryRecord[], refuse = false): { api: AdsApi; asked: Array<Record<string, string>> } {
  const asked: Array<Record<string, string>> = [];
  const api = {
    accountHistoryPage: async (_account: string, params: Record<string, string>) => {
      asked.push(params);
      if (refuse) throw new ApiError({ status: 403, items: [{ code: 'UNAUTHORIZED_ACCESS', message: 'not allowlisted' }], retryable: false, outcome: 'rejected', request: 'GET account_history' });
      return records.filter((r) => r.entity_id === params['entity_id'] && r.change_time >= params['start_time']! && r.change_time < params['end_time']!);
    },
  } as unknown as AdsApi;
  return { api, asked };
}

const LAST_APPLY = new Date('2026-11-23T15:20:00Z');
const NOW = new Date('2026-11-23T18:05:00Z');
const HISTORY = [
  record('c1', '2026-11-23T11:10:00Z', 'hand'), // before c1 was recorded
  record('c1', '2026-11-23T12:30:00Z', 'owner'), // the write adsctl recorded, in that second
  record('c1', '2026-11-23T13:45:10Z', 'manager'), // after it: outside adsctl
  record('c2', '2026-11-23T14:00:00Z', 'manager'), // before the last apply
  record('c2', '2026-11-23T16:00:00Z', 'manager'),
];

describe('readAttribution', () => {
  it('reads each object from when it was recorded, else from the last apply', async () => {
    const { api, asked } = historyApi(HISTORY);
    const read = await readAttribution({ api, accountId: 'a1', subjects: [{ entity: 'CAMPAIGN', id: 'c1', since: new Date('2026-11-23T12:30:00.400Z') }, { entity: 'CAMPAIGN', id: 'c2' }], lastApply: LAST_APPLY, now: NOW });
    expect(asked.map((p) => [p['entity_id'], p['start_time'], p['end_time']])).toEqual([
      ['c1', '2026-11-23T12:00:00Z', '2026-11-23T19:00:00Z'],
      ['c2', '2026-11-23T15:00:00Z', '2026-11-23T19:00:00Z'],
    ]);
    expect(read.byObject.get('CAMPAIGN:c1')?.map((c) => [c.userId, c.changeTime])).toEqual([['manager', '2026-11-23T13:45:10Z']]);
    expect(read.byObject.get('CAMPAIGN:c2')?.map((c) => [c.userId, c.changeTime])).toEqual([['manager', '2026-11-23T16:00:00Z']]);
  });

  it('costs one request when the history cannot be read', async () => {
    const { api, asked } = historyApi(HISTORY, true);
    const read = await readAttribution({ api, accountId: 'a1', subjects: [{ entity: 'CAMPAIGN', id: 'c1' }, { entity: 'CAMPAIGN', id: 'c2' }], lastApply: LAST_APPLY, now: NOW });
    expect(asked).toHaveLength(1);
    expect(read.unreadable).toContain('not allowlisted');
  });
});

describe('driftedSubjects', () => {
  const state = {
    resources: {
      'campaigns.a': { kind: 'campaign', id: 'c1', applied: {}, recorded_at: '2026-11-23T12:30:00.400Z' },
      'campaigns.b': { kind: 'campaign', id: 'c2', applied: {} },
    },
  } as unknown as AccountState;
  const drifted = (key: string, id: string): ResourceChange => ({ account: 'a1', address: { kind: 'campaign', steps: [{ collection: 'campaigns', key }] }, kind: 'campaign', action: 'update', id, before: {}, after: {}, changes: [], drift: true, protected: false }) as unknown as ResourceChange;
  it.each([
    { name: 'an object recorded at a time has that time', change: drifted('a', 'c1'), want: { entity: 'CAMPAIGN', id: 'c1', since: new Date('2026-11-23T12:30:00.400Z') } },
    { name: 'an entry written before the time was kept has none', change: drifted('b', 'c2'), want: { entity: 'CAMPAIGN', id: 'c2' } },
  ])('$name', ({ change, want }) => {
    expect(driftedSubjects([change], [], state)).toEqual([want]);
  });

  it('an object no manifest holds counts from when the record of what was seen last changed, else the last apply', () => {
    const appeared = { kind: 'campaign', id: 'u1', name: 'By hand', status: 'PAUSED', parentId: null, parentAddress: null, dailyBudgetMicros: null, serves: false, currency: 'USD', new: true } as const;
    expect(driftedSubjects([], [appeared], { ...state, unmanaged_seen_at: '2026-11-20T08:00:00.000Z' })).toEqual([{ entity: 'CAMPAIGN', id: 'u1', since: new Date('2026-11-20T08:00:00.000Z') }]);
    expect(driftedSubjects([], [appeared], state)).toEqual([{ entity: 'CAMPAIGN', id: 'u1' }]);
  });
});
