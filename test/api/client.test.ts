import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchOperation } from '../../src/api/batch.js';
import { ApiError } from '../../src/api/errors.js';
import { RateTracker } from '../../src/api/rate-tracker.js';
import { Semaphore } from '../../src/api/semaphore.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/emulator.js';
import { apiFor } from '../support/api.js';
import { testClock } from '../support/test-clock.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, ...options });
  return emulator;
}

const createOps = (n: number, from = 0): BatchOperation[] =>
  Array.from({ length: n }, (_, i) => ({
    operation_type: 'Create',
    params: { funding_instrument_id: 'lygyi', name: `c${from + i}`, entity_status: 'PAUSED', daily_budget_amount_local_micro: 1_000_000 },
  }));

async function control(emu: RunningEmulator, path: string, body?: unknown): Promise<any> {
  const res = await request(`${emu.info.base_url}/_emulator${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return res.body.json();
}

describe('API client against the emulator', () => {
  it('reads 2,500 records at the page maximum in 3 requests', async () => {
    const emu = await start({ rateLimitScale: 0 });
    const { client, api } = apiFor(emu.info);
    const created = await api.batch('campaign', emu.info.account_id, createOps(2500));
    expect(created.every((r) => r.ok)).toBe(true);
    await control(emu, '/stats/reset', {});
    const all = await api.list('campaign', emu.info.account_id);
    expect(all).toHaveLength(2500);
    expect(new Set(all.map((c) => c.id)).size).toBe(2500);
    expect(client.counts.byEndpoint['campaign.list']).toBe(3);
    expect((await control(emu, '/stats')).byRoute['GET /12/accounts/:account_id/campaigns']).toBe(3);
    await client.close();
  });

  it('filters by 450 ids in 3 parallel requests', async () => {
    const emu = await start({ rateLimitScale: 0, latencyMs: 150 });
    const { client, api } = apiFor(emu.info);
    const created = await api.batch('campaign', emu.info.account_id, createOps(500));
    const ids = created.flatMap((r) => (r.ok ? [r.data.id] : []));
    await control(emu, '/stats/reset', {});
    const found = await api.listWhere('campaign', emu.info.account_id, 'campaign_ids', ids.slice(0, 450));
    expect(found.map((c) => c.id).sort()).toEqual(ids.slice(0, 450).sort());
    const stats = await control(emu, '/stats');
    expect(stats.byRoute['GET /12/accounts/:account_id/campaigns']).toBe(3);
    expect(stats.maxInFlight).toBeGreaterThanOrEqual(3);
    await client.close();
  });

  it('creates 130 campaigns in 4 batch requests and maps an item error to its input', async () => {
    const emu = await start({ rateLimitScale: 0 });
    const { client, api } = apiFor(emu.info);
    const ops = createOps(130);
    ops[77] = { operation_type: 'Create', params: { ...ops[77]!.params, name: 'x'.repeat(256) } };
    const results = await api.batch('campaign', emu.info.account_id, ops);
    expect(client.counts.byEndpoint['campaign.batch']).toBe(4);
    expect(results).toHaveLength(130);
    const bad = results[77]!;
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.rejectedBy).toBe('own');
      expect(bad.error.code).toBe('INVALID_PARAMETER');
      expect(bad.error.parameter).toBe('name');
    }
    results.forEach((r, i) => {
      if (i === 77) return;
      if (i >= 40 && i < 80) expect(r.ok === false && r.rejectedBy === 'sibling').toBe(true);
      else expect(r.ok).toBe(true);
    });
    expect(await api.list('campaign', emu.info.account_id)).toHaveLength(90);
    await client.close();
  });

  it('survives 429 bursts and 20% injected 500/503/resets, completing every idempotent request exactly once', async () => {
    const emu = await start({ rateLimitScale: 0.02, rateLimitWindowSeconds: 1 });
    const { client, api } = apiFor(emu.info, { parallelism: 4 });
    // a second client of the same user that does not share the first one's budgets: together they run into 429s
    const other = apiFor(emu.info, { parallelism: 4 });
    const created = await api.batch('campaign', emu.info.account_id, createOps(40));
    const ids = created.flatMap((r) => (r.ok ? [r.data.id] : []));
    await control(emu, '/faults', { faults: '500=7%,503=7%,reset=6%', seed: 11 });
    await control(emu, '/stats/reset', {});
    const gets = ids.map((id) => api.get('campaign', emu.info.account_id, id));
    const puts = ids.map((id, i) => (i % 2 === 0 ? api : other.api).update('campaign', emu.info.account_id, id, { name: `renamed ${i}` }));
    const [read, updated] = await Promise.all([Promise.all(gets), Promise.all(puts)]);
    expect(read.map((c) => c.id)).toEqual(ids);
    expect(updated.map((c) => c.name)).toEqual(ids.map((_, i) => `renamed ${i}`));
    const stats = await control(emu, '/stats');
    expect(Object.values(stats.faults as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(client.counts.rateLimited + other.client.counts.rateLimited).toBeGreaterThan(0);
    await other.client.close();
    // each PUT served exactly once, however many attempts were dropped, refused or rate limited
    expect(stats.byRoute['PUT /12/accounts/:account_id/campaigns/:campaign_id']).toBeGreaterThan(ids.length);
    expect(stats.servedByRoute['PUT /12/accounts/:account_id/campaigns/:campaign_id']).toBe(ids.length);
    expect(stats.servedByRoute['GET /12/accounts/:account_id/campaigns/:campaign_id']).toBe(ids.length);
    await client.close();
  });

  it('sends the clients of one run no further than the budget they share: no 429 across accounts', async () => {
    // 9 writes a second for the user, whichever account they are for
    const emu = await start({ rateLimitScale: 0.02, rateLimitWindowSeconds: 1 });
    const rates = new RateTracker();
    const clients = [apiFor(emu.info, { parallelism: 4, rates }), apiFor(emu.info, { parallelism: 4, rates })];
    const created = await clients[0]!.api.batch('campaign', emu.info.account_id, createOps(24));
    const ids = created.flatMap((r) => (r.ok ? [r.data.id] : []));
    await control(emu, '/stats/reset', {});
    const updated = await Promise.all(ids.map((id, i) => clients[i % 2]!.api.update('campaign', emu.info.account_id, id, { name: `renamed ${i}` })));
    expect(updated.map((c) => c.name)).toEqual(ids.map((_, i) => `renamed ${i}`));
    const stats = await control(emu, '/stats');
    expect(clients.map((c) => c.client.counts.rateLimited)).toEqual([0, 0]);
    expect(stats.byRoute['PUT /12/accounts/:account_id/campaigns/:campaign_id']).toBe(ids.length);
    for (const c of clients) await c.client.close();
  });

  it('holds no slot of the run while a request waits for its budget: another budget goes on', async () => {
    // one read of each account-level budget per 15 minutes, one request in flight for the run
    const emu = await start({ rateLimitScale: 0.0001 });
    const rates = new RateTracker();
    const shared = new Semaphore(1);
    const waits: number[] = [];
    const { api, client } = apiFor(emu.info, { shared, rates, sleep: (ms) => (waits.push(ms), new Promise<void>(() => {})) });
    const account = emu.info.account_id;
    await api.list('campaign', account);
    // the campaigns list's budget is spent: the next read of it waits (for good, here) without its slot
    const waiting = api.list('campaign', account);
    await expect.poll(() => waits.length).toBe(1);
    expect(waits[0]).toBeGreaterThan(60_000);
    // a read with a budget of its own is sent at once through the run's only slot
    const instruments = await api.list('funding_instrument', account);
    expect(instruments.map((f) => f.id)).toContain(emu.info.funding_instrument_id);
    expect(client.counts.rateLimited).toBe(0);
    void waiting;
    await client.close();
  });

  it.each([
    ['lost', 'its response is lost'],
    ['500', 'it answers 500'],
    ['reset', 'its connection is reset'],
  ])('reports a create as an unknown outcome, never retried, when %s (%s)', async (fault) => {
    const emu = await start();
    const { client, api } = apiFor(emu.info);
    await control(emu, '/faults', { faults: `${fault}=100%` });
    await control(emu, '/stats/reset', {});
    const error = await api.create('campaign', emu.info.account_id, { funding_instrument_id: 'lygyi', name: 'maybe', daily_budget_amount_local_micro: 1_000_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).outcome).toBe('unknown');
    expect(client.counts.attempts).toBe(1);
    await control(emu, '/faults', { faults: '' });
    const names = (await api.list('campaign', emu.info.account_id)).map((c) => c.name);
    expect(names.filter((n) => n === 'maybe')).toHaveLength(fault === 'lost' ? 1 : 0);
    await client.close();
  });

  it('sends no write once the run may no longer write, reads still', async () => {
    const emu = await start({ rateLimitScale: 0 });
    const stop = new AbortController();
    const { client, api } = apiFor(emu.info, { writesStop: stop.signal });
    expect((await api.batch('campaign', emu.info.account_id, createOps(1))).every((r) => r.ok)).toBe(true);
    stop.abort();
    await control(emu, '/stats/reset', {});
    const refused = await api.batch('campaign', emu.info.account_id, createOps(1, 1));
    expect(refused).toMatchObject([{ ok: false, error: { outcome: 'unsent' } }]);
    expect(await api.list('campaign', emu.info.account_id)).toHaveLength(1);
    const stats = await control(emu, '/stats');
    expect(Object.keys(stats.byRoute).filter((route) => !route.startsWith('GET '))).toEqual([]);
    await client.close();
  });

  it.each([
    { name: 'a check that throws at once (a local lock file naming another lock)', verify: (lost: boolean) => (): void => { if (lost) throw new Error('its file now names lock next'); } },
    { name: 'a check that fails after a statement (a PostgreSQL session that ended)', verify: (lost: boolean) => async (): Promise<void> => { await Promise.resolve(); if (lost) throw new Error('the session ended'); } },
  ])('checks the lease before each write, with no signal aborted: $name', async ({ verify }) => {
    const emu = await start({ rateLimitScale: 0 });
    let lost = false;
    let checks = 0;
    const { client, api } = apiFor(emu.info, { verifyLease: () => { checks++; return verify(lost)(); } });
    expect((await api.batch('campaign', emu.info.account_id, createOps(1))).every((r) => r.ok)).toBe(true);
    expect(checks).toBe(1);
    lost = true;
    await control(emu, '/stats/reset', {});
    const refused = await api.batch('campaign', emu.info.account_id, createOps(1, 1));
    expect(refused).toMatchObject([{ ok: false, error: { outcome: 'unsent' } }]);
    expect(await api.list('campaign', emu.info.account_id)).toHaveLength(1);
    const stats = await control(emu, '/stats');
    expect(Object.keys(stats.byRoute).filter((route) => !route.startsWith('GET '))).toEqual([]);
    await client.close();
  });

  it('signs values with reserved characters in queries and form bodies', async () => {
    const emu = await start();
    const { client, api } = apiFor(emu.info);
    const name = 'Café, ünïcode: 100% + more card://1321554298900107264 ~!*()\'';
    const updated = await api.updateAccount(emu.info.account_id, { name });
    expect(updated.name).toBe(name);
    const found = await api.accounts({ q: 'Café, ünïcode: 100% + more card://' });
    expect(found.map((a) => a.name)).toEqual([name]);
    await client.close();
  });

  it('keeps secrets out of errors and the debug trace', async () => {
    const emu = await start();
    const lines: string[] = [];
    const { client, api } = apiFor(emu.info, { trace: (l) => lines.push(l) });
    const bad = apiFor({ ...emu.info, access_token_secret: 'definitely-wrong-secret' });
    const error = (await bad.api.accounts().catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(401);
    expect(error.code).toBe('UNAUTHORIZED_ACCESS');
    expect(error.retryable).toBe(false);
    await api.accounts();
    const text = [...lines, error.message, error.describe()].join('\n');
    for (const secret of [emu.info.consumer_secret, emu.info.access_token_secret, emu.info.access_token, emu.info.consumer_key, 'definitely-wrong-secret']) {
      expect(text).not.toContain(secret);
    }
    expect(lines.join('\n')).toContain('Authorization: OAuth oauth_consumer_key="<redacted>"');
    await client.close();
    await bad.client.close();
  });
});
