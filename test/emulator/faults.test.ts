import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function statuses(client: TestClient, account: string, n: number): Promise<Array<number | 'reset'>> {
  const out: Array<number | 'reset'> = [];
  for (let i = 0; i < n; i++) {
    try {
      out.push((await client.get(`/12/accounts/${account}`)).status);
    } catch {
      out.push('reset');
    }
  }
  return out;
}

describe('fault injection', () => {
  it.each([
    ['429=100%', 429, 'TOO_MANY_REQUESTS'],
    ['500=100%', 500, 'INTERNAL_ERROR'],
    ['503=100%', 503, 'SERVICE_UNAVAILABLE'],
  ] as const)('%s answers %i with the service body', async (faults, status, code) => {
    const t = await startTestEmulator({ faults });
    emulator = t.emulator;
    const r = await t.client.get(`/12/accounts/${t.account}`);
    expect(r.status).toBe(status);
    expect(r.body.errors[0].code).toBe(code);
    if (status === 503) expect(r.headers['retry-after']).toBe('1');
    if (status === 429) expect(r.headers['x-rate-limit-remaining']).toBe('0');
  });

  it('reset=100% drops the connection before handling', async () => {
    const t = await startTestEmulator({ faults: 'reset=100%' });
    emulator = t.emulator;
    await expect(t.client.get(`/12/accounts/${t.account}`)).rejects.toThrow();
    expect(t.emulator.stats.faults['reset']).toBe(1);
  });

  it('slow delays the response by slow_ms, and --latency delays every response', async () => {
    const t = await startTestEmulator({ faults: 'slow=100%,slow_ms=250', latencyMs: 100 });
    emulator = t.emulator;
    const started = Date.now();
    expect((await t.client.get(`/12/accounts/${t.account}`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(340);
  });

  it('is deterministic for a seed and differs across seeds', async () => {
    const runs: Array<Array<number | 'reset'>> = [];
    for (const seed of [7, 7, 8]) {
      const t = await startTestEmulator({ faults: '429=20%,500=20%,503=20%,reset=10%', seed });
      runs.push(await statuses(t.client, t.account, 40));
      await t.emulator.close();
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]).not.toEqual(runs[2]);
    const kinds = new Set(runs[0]);
    for (const k of [200, 429, 500, 503, 'reset']) expect(kinds.has(k as number)).toBe(true);
  });

  it('is reconfigured at run time through the control endpoint, and counts requests', async () => {
    const t = await startTestEmulator();
    emulator = t.emulator;
    const set = await request(`${t.client.info.base_url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: '503=100%', seed: 3 }),
    });
    expect(set.statusCode).toBe(200);
    await set.body.text();
    expect((await t.client.get(`/12/accounts/${t.account}`)).status).toBe(503);
    const bad = await request(`${t.client.info.base_url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: 'nope=1' }),
    });
    expect(bad.statusCode).toBe(400);
    await bad.body.text();
    const stats = await request(`${t.client.info.base_url}/_emulator/stats`);
    const body = (await stats.body.json()) as { bySurface: Record<string, number> };
    expect(body.bySurface['ads']).toBe(1);
  });
});
