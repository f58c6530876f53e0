/**
 * What refresh asks for before it has heard anything (src/live/fetch.ts): the account and every
 * kind it reads whole go out together, and so do the children filtered by the ids of parents the
 * state binds (targeting criteria by line item): none of them waits for another's answer. Every
 * read is held until the test answers it, so what was asked before any answer is exact.
 */
import { describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import { ApiError } from '../../src/api/errors.js';
import { fetchLiveState } from '../../src/live/fetch.js';
import { accountState, desiredAccount, liveAccountRecord } from '../diff/builders.js';

interface HeldRead {
  what: string;
  ids?: readonly string[];
  answer: (records: unknown) => void;
  fail: (error: unknown) => void;
}

/** An API whose every read waits until the test answers it. */
function heldApi(): { api: AdsApi; held: HeldRead[] } {
  const held: HeldRead[] = [];
  const hold = (what: string, ids?: readonly string[]): Promise<never> =>
    new Promise((answer, fail) => held.push({ what, ...(ids === undefined ? {} : { ids }), answer: answer as (records: unknown) => void, fail }));
  const api = {
    account: () => hold('account'),
    list: (name: string) => hold(name),
    listWhere: (name: string, _account: string, _param: string, ids: readonly string[]) => hold(name, ids),
    features: () => hold('features'),
  } as unknown as AdsApi;
  return { api, held };
}

const state = accountState({
  'campaigns.a': { id: 'c1' },
  'campaigns.a.line_items.x': { id: 'l1' },
  'campaigns.a.line_items.y': { id: 'l2' },
  'campaigns.a.line_items.x.targeting["BROAD_KEYWORD:shoes"]': { id: 't1' },
  'campaigns.a.line_items.x.promoted_posts["100"]': { id: 'p1' },
});

const answers: Record<string, unknown> = {
  account: liveAccountRecord()[1],
  funding_instrument: [{ id: 'fi1', currency: 'USD' }],
  campaign: [{ id: 'c1' }],
  // l2 was deleted outside adsctl: the list leaves it out
  line_item: [{ id: 'l1', campaign_id: 'c1' }],
  targeting_criterion: [
    { id: 't1', line_item_id: 'l1' },
    { id: 't2', line_item_id: 'l2' },
  ],
  promoted_tweet: [
    { id: 'p1', line_item_id: 'l1' },
    { id: 'p9', line_item_id: 'l9' },
  ],
};

describe('the reads of a refresh', () => {
  it('asks for the account, every whole list and the children of bound parents before any answer', async () => {
    const { api, held } = heldApi();
    const refreshed = fetchLiveState({ api, account: '18ce54d4x5t', accountId: '18ce54d4x5t', desired: desiredAccount([]), state });
    const asked = held.map((r) => r.what);
    expect(asked).toEqual(expect.arrayContaining(['account', 'funding_instrument', 'campaign', 'line_item', 'targeting_criterion', 'promoted_tweet']));
    // the whole lists first, so that their chains of pages start before the chunks of ids
    expect(asked.indexOf('targeting_criterion')).toBeGreaterThan(asked.indexOf('line_item'));
    expect(held.find((r) => r.what === 'targeting_criterion')?.ids).toEqual(['l1', 'l2']);
    for (const read of held) read.answer(answers[read.what] ?? []);
    const live = await refreshed;
    // the children of parents that exist and are bound; those of the deleted l2 and of the unbound l9 are not kept
    expect([...(live.resources.get('targeting_criterion')?.keys() ?? [])]).toEqual(['t1']);
    expect([...(live.resources.get('promoted_post')?.keys() ?? [])]).toEqual(['p1']);
    expect([...live.missing].sort()).toEqual(['l2']);
  });

  it('starts a child list read whole (over 600 bound parents) before the chunks of ids', () => {
    const { api, held } = heldApi();
    const many: Record<string, { id: string }> = { 'campaigns.a': { id: 'c1' }, 'campaigns.a.line_items.l0.promoted_posts["100"]': { id: 'p1' } };
    for (let i = 0; i < 601; i++) many[`campaigns.a.line_items.l${i}`] = { id: `l${i}` };
    void fetchLiveState({ api, account: '18ce54d4x5t', accountId: '18ce54d4x5t', desired: desiredAccount([]), state: accountState(many) });
    const asked = held.map((r) => r.what);
    expect(asked.indexOf('promoted_tweet')).toBeGreaterThan(asked.indexOf('line_item'));
    expect(asked.indexOf('promoted_tweet')).toBeLessThan(asked.indexOf('targeting_criterion'));
    expect(held.find((r) => r.what === 'promoted_tweet')?.ids).toBeUndefined();
  });

  it('reports an account deleted outside adsctl as missing, whatever the reads beside it answered', async () => {
    const { api, held } = heldApi();
    const refreshed = fetchLiveState({ api, account: '18ce54d4x5t', accountId: '18ce54d4x5t', desired: desiredAccount([]), state });
    const gone = (): ApiError => new ApiError({ status: 404, items: [{ code: 'NOT_FOUND', message: 'Account not found' }], retryable: false, outcome: 'rejected', request: 'GET /12/accounts/18ce54d4x5t' });
    // every other read has failed, and the refresh has heard of it, before the account answers
    for (const read of held) {
      if (read.what === 'campaign') read.answer([{ id: 'c1' }]);
      else if (read.what !== 'account') read.fail(gone());
    }
    await new Promise((resolve) => setImmediate(resolve));
    held.find((r) => r.what === 'account')?.fail(gone());
    const live = await refreshed;
    expect(live.accountId).toBeUndefined();
    expect([...live.missing]).toEqual(['18ce54d4x5t']);
    expect(live.resources.size).toBe(0);
  });
});
