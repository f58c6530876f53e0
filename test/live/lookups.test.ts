/**
 * The global lookups of a run: fetched once however many accounts ask at the same moment (the
 * service allows 5 reads per 15 minutes of each), and, when that budget is spent, the copy cached
 * past its lifetime is used with a warning instead of waiting for the next window; without any
 * cached copy the refusal stands.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import { ApiError } from '../../src/api/errors.js';
import { BIDDING_RULES_TTL_MS, fetchLookups, SharedLookups } from '../../src/live/lookups.js';
import { LocalStore } from '../../src/state/local-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-lookups-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const limited = (): ApiError => new ApiError({ status: 429, items: [{ code: 'TOO_MANY_REQUESTS', message: 'spent' }], retryable: true, outcome: 'unsent', request: 'GET /12/bidding_rules' });

/** An API counting its global reads; `refuse` makes them answer 429, as a spent budget does. */
function countingApi(refuse = false): { api: AdsApi; reads: { rules: number; placements: number; waits: Array<number | undefined> } } {
  const reads = { rules: 0, placements: 0, waits: [] as Array<number | undefined> };
  const api = {
    biddingRules: async (_currency: unknown, options: { maxWaitMs?: number } = {}) => {
      reads.rules++;
      reads.waits.push(options.maxWaitMs);
      await new Promise((r) => setImmediate(r));
      if (refuse) throw limited();
      return [{ currency: 'USD', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_000_000_000, minimum_denomination: 10_000 }];
    },
    placements: async () => {
      reads.placements++;
      await new Promise((r) => setImmediate(r));
      if (refuse) throw limited();
      return [{ product_type: 'PROMOTED_TWEETS', placements: [['ALL_ON_SERVICE']] }];
    },
    userAccess: async () => ({ permissions: ['ACCOUNT_ADMIN'] }),
  } as unknown as AdsApi;
  return { api, reads };
}

describe('fetchLookups', () => {
  it('fetches each global lookup once for a run, however many accounts ask at once', async () => {
    const { api, reads } = countingApi();
    const shared = new SharedLookups();
    const accounts = Array.from({ length: 60 }, (_, i) => `acct${i}`);
    const all = await Promise.all(accounts.map((id) => fetchLookups({ api, endpoint: 'sandbox', cache: new LocalStore(dir, dir), accountIds: [id], shared, now: 1_000 })));
    expect(reads).toMatchObject({ rules: 1, placements: 1 });
    expect(new Set(all.map((l) => l.biddingRules))).toHaveProperty('size', 1);
    expect(all.every((l) => l.stale === undefined)).toBe(true);
  });

  it('uses the copy past its lifetime, with a warning, when the budget is spent, without waiting for it', async () => {
    await fetchLookups({ api: countingApi().api, endpoint: 'sandbox', cache: new LocalStore(dir, dir), accountIds: ['a'], now: 1_000 });
    const { api, reads } = countingApi(true);
    const later = 1_000 + BIDDING_RULES_TTL_MS + 1;
    const lookups = await fetchLookups({ api, endpoint: 'sandbox', cache: new LocalStore(dir, dir), accountIds: ['a'], shared: new SharedLookups(), now: later });
    expect(lookups.biddingRules[0]?.currency).toBe('USD');
    expect(lookups.stale).toEqual(['bidding_rules', 'placements']);
    expect(reads.waits).toEqual([0]);
  });

  it('lets the refusal stand when there is no cached copy to fall back on, waiting as the client allows', async () => {
    const { api, reads } = countingApi(true);
    await expect(fetchLookups({ api, endpoint: 'sandbox', cache: new LocalStore(dir, dir), accountIds: ['a'], now: 1_000 })).rejects.toThrow(ApiError);
    expect(reads.waits).toEqual([undefined]);
  });
});
