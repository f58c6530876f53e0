/**
 * The lookup cache read back (src/live/lookup-cache.ts): an entry of the wrong shape is discarded
 * and named, never trusted.
 */
import { describe, expect, it } from 'vitest';
import { checkedCache } from '../../src/live/lookup-cache.js';

const rule = { currency: 'USD', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_000_000_000, minimum_denomination: 10_000 };

describe('checkedCache', () => {
  it.each<[string, unknown, string[], string[]]>([
    ['no cache', undefined, [], []],
    ['good entries', { bidding_rules: { fetched_at: 1, data: [rule] }, 'targeting:languages': { fetched_at: 1, data: [{ targeting_value: 'en' }] } }, ['bidding_rules', 'targeting:languages'], []],
    ['an empty list of bidding rules', { bidding_rules: { fetched_at: 1, data: [] } }, [], ['bidding_rules']],
    ['numbers as strings', { bidding_rules: { fetched_at: 1, data: [{ ...rule, minimum_cpe_bid_local_micro: '10000' }] } }, [], ['bidding_rules']],
    ['no fetched_at', { placements: { data: [{ product_type: 'PROMOTED_TWEETS', placements: [] }] } }, [], ['placements']],
    ['an entry nobody knows', { mystery: { fetched_at: 1, data: [] } }, [], ['mystery']],
    ['a list instead of entries', [1, 2], [], ['*']],
    ['targeting options that are not records', { 'targeting:languages': { fetched_at: 1, data: ['en'] } }, [], ['targeting:languages']],
  ])('%s', (_name, read, kept, discarded) => {
    const checked = checkedCache(read);
    expect(Object.keys(checked.entries).sort()).toEqual(kept);
    expect(checked.discarded).toEqual(discarded);
  });
});
