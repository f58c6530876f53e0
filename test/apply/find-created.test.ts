import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import type { ApiClient } from '../../src/api/client.js';
import { createdAccountCandidates, findCreatedAll } from '../../src/apply/find-created.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { apiFor } from '../support/api.js';
import { testClock } from '../support/test-clock.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0 });
  ({ client, api } = apiFor(emulator.info));
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('recognising creates that had no answer', () => {
  it('finds a sandbox funding instrument by type, currency and start, once', async () => {
    const sentAt = testNow();
    const account = (await api.createSandboxAccount()).id;
    const params = { type: 'CREDIT_CARD', currency: 'EUR', start_time: '2026-02-01T00:00:00Z' };
    const fi = await api.createSandboxFundingInstrument(account, { ...params, type: 'CREDIT_CARD' });
    const taken = new Set<string>();
    const found = await findCreatedAll(api, account, [
      { kind: 'funding_instrument', params, sentAt },
      { kind: 'funding_instrument', params, sentAt },
      { kind: 'funding_instrument', params: { ...params, currency: 'GBP' }, sentAt },
    ], taken);
    expect(found).toEqual([fi.id, undefined, undefined]);
  });

  it.each([
    ['none since the request', 0],
    ['exactly one', 1],
    ['two: cannot be told apart', 2],
  ])('lists sandbox accounts created since the request that no state binds: %s', async (_name, n) => {
    const bound = new Set((await api.accounts()).map((a) => a.id));
    const sentAt = testNow();
    const made: string[] = [];
    for (let i = 0; i < n; i++) made.push((await api.createSandboxAccount()).id);
    expect((await createdAccountCandidates(api, sentAt, bound)).sort()).toEqual(made.sort());
  });
});
