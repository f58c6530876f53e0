import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('rate limits', () => {
  it('reports user-level and account-level headers on every authenticated response', async () => {
    const t = await startTestEmulator();
    emulator = t.emulator;
    const r = await t.client.get(`/12/accounts/${t.account}`);
    expect(r.status).toBe(200);
    expect(r.headers['x-rate-limit-limit']).toBe('100000');
    expect(r.headers['x-account-rate-limit-limit']).toBe('2000');
    expect(r.headers['x-account-rate-limit-remaining']).toBe('1999');
    const reset = Number(r.headers['x-account-rate-limit-reset']);
    expect(reset).toBeGreaterThan(testNow() / 1000);
    expect(reset).toBeLessThanOrEqual(testNow() / 1000 + 901);
  });

  it.each([
    // [what, scale, requests allowed, path suffix, params]
    ['account reads (2000/15 min)', 0.002, 4, '', {}],
    ['with_total_count (200/15 min)', 0.01, 2, 's', { with_total_count: true }],
  ] as const)('answers 429 past the limit of %s', async (_what, scale, allowed, suffix, params) => {
    const t = await startTestEmulator({ rateLimitScale: scale });
    emulator = t.emulator;
    const path = suffix === 's' ? '/12/accounts' : `/12/accounts/${t.account}`;
    const remaining: string[] = [];
    for (let i = 0; i < allowed; i++) {
      const r = await t.client.get(path, params);
      expect(r.status).toBe(200);
      remaining.push(r.headers['x-account-rate-limit-remaining'] ?? r.headers['x-rate-limit-remaining'] ?? '');
    }
    if (suffix === '') expect(remaining).toEqual(['3', '2', '1', '0']);
    const over = await t.client.get(path, params);
    expect(over.status).toBe(429);
    expect(over.body.errors[0].code).toBe('TOO_MANY_REQUESTS');
    expect(over.headers['x-rate-limit-reset']).toMatch(/^\d+$/);
  });

  it('keeps the total-count budget apart from plain reads', async () => {
    const t = await startTestEmulator({ rateLimitScale: 0.005 });
    emulator = t.emulator;
    expect((await t.client.get('/12/accounts', { with_total_count: true })).status).toBe(200);
    expect((await t.client.get('/12/accounts', { with_total_count: true })).status).toBe(429);
    expect((await t.client.get('/12/accounts')).status).toBe(200);
  });

  it('opens a new window after the reset time', async () => {
    const t = await startTestEmulator({ rateLimitScale: 0.0005, rateLimitWindowSeconds: 1 });
    emulator = t.emulator;
    const first = await t.client.get(`/12/accounts/${t.account}`);
    expect(first.status).toBe(200);
    const blocked = await t.client.get(`/12/accounts/${t.account}`);
    expect(blocked.status).toBe(429);
    const reset = Number(blocked.headers['x-account-rate-limit-reset']);
    await new Promise((r) => setTimeout(r, Math.max(0, reset * 1000 - testNow()) + 50));
    expect((await t.client.get(`/12/accounts/${t.account}`)).status).toBe(200);
  });

  it('can be turned off with scale 0', async () => {
    const t = await startTestEmulator({ rateLimitScale: 0 });
    emulator = t.emulator;
    for (let i = 0; i < 10; i++) expect((await t.client.get('/12/accounts', { with_total_count: true })).status).toBe(200);
  });
});
