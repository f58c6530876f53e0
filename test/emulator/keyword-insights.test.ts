import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { TestClient, startTestEmulator, type Params, type Reply, type SendOptions } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { expectWire } from '../support/wire.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const US = '96683cc9126741d1';
const GB = 'aabd7522322d9682';

/** Signs with the emulator's clock, so requests stay inside the OAuth timestamp window. */
class ClockedClient extends TestClient {
  override send<T = any>(method: string, path: string, params: Params = {}, opts: SendOptions = {}): Promise<Reply<T>> {
    return super.send(method, path, params, { timestamp: Math.floor(NOW / 1000), ...opts });
  }
}

let emulator: RunningEmulator;
let client: TestClient;
const search = (params: Params): Promise<Reply> => client.get('/12/insights/keywords/search', params);

beforeAll(async () => {
  ({ emulator } = await startTestEmulator({ rateLimitScale: 0, clock: { now: () => new Date(NOW) } }));
  client = new ClockedClient(emulator.info);
});
afterAll(() => emulator.close());

describe('GET insights/keywords/search', () => {
  const shapes: Array<[string, Params, number]> = [
    ['one day by day', { granularity: 'DAY', keywords: 'developers', start_time: '2026-06-01', end_time: '2026-06-02' }, 1],
    ['seven days by day', { granularity: 'DAY', keywords: 'developers,coders', start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-08T00:00:00Z' }, 7],
    ['a day and a half by day (the last bucket shorter)', { granularity: 'DAY', keywords: 'developers', start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-02T12:00:00Z' }, 2],
    ['six hours by hour', { granularity: 'HOUR', keywords: 'developers', start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-01T06:00:00Z' }, 6],
    ['seven days by hour', { granularity: 'HOUR', keywords: 'developers', start_time: '2026-06-08T12:00:00Z', end_time: '2026-06-15T12:00:00Z' }, 168],
    ['end_time defaulting to now', { granularity: 'HOUR', keywords: 'developers', start_time: '2026-06-15T09:00:00Z' }, 3],
  ];
  it.each(shapes)('%s', async (_what, params, buckets) => {
    const r = await search(params);
    expect(r.status, r.text).toBe(200);
    expectWire('KeywordInsights', r.body.data);
    expect(r.body.data.tweet_volume).toHaveLength(buckets);
    expect(r.body.data.related_keywords).toHaveLength(30);
    expect(new Set(r.body.data.related_keywords).size).toBe(30);
  });

  it('echoes typed parameters and answers the same figures every time', async () => {
    const params = { granularity: 'DAY', keywords: 'developers', start_time: '2026-06-01', end_time: '2026-06-03', location: US };
    const a = await search(params);
    expect(a.body.request.params).toEqual({ granularity: 'DAY', keywords: ['developers'], start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-03T00:00:00Z', location: US });
    expect((await search(params)).body).toEqual(a.body);
  });

  it('scopes volumes to the country, sums hours into days, and lowers them for negative keywords', async () => {
    const day = { granularity: 'DAY', keywords: 'hiking', start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-02T00:00:00Z' };
    const us = (await search(day)).body.data.tweet_volume[0];
    expect((await search({ ...day, location: US })).body.data.tweet_volume[0]).toBe(us);
    expect((await search({ ...day, location: GB })).body.data.tweet_volume[0]).not.toBe(us);
    const hours = (await search({ ...day, granularity: 'HOUR' })).body.data.tweet_volume as number[];
    expect(hours.reduce((s, v) => s + v, 0)).toBe(us);
    expect((await search({ ...day, negative_keywords: 'rain,snow,mud' })).body.data.tweet_volume[0]).toBeLessThanOrEqual(us);
    const related = (await search({ ...day, negative_keywords: 'hiking news' })).body.data.related_keywords;
    expect(related).not.toContain('hiking news');
    expect(related).not.toContain('hiking');
  });

  const refusals: Array<[string, Params, string, string]> = [
    ['granularity is required', { keywords: 'a', start_time: '2026-06-01' }, 'MISSING_PARAMETER', 'granularity'],
    ['granularity WEEK', { granularity: 'WEEK', keywords: 'a', start_time: '2026-06-01' }, 'INVALID_PARAMETER', 'granularity'],
    ['keywords is required', { granularity: 'DAY', start_time: '2026-06-01' }, 'MISSING_PARAMETER', 'keywords'],
    ['start_time is required', { granularity: 'DAY', keywords: 'a' }, 'MISSING_PARAMETER', 'start_time'],
    ['11 keywords and negative keywords', { granularity: 'DAY', keywords: 'a,b,c,d,e,f', negative_keywords: 'g,h,i,j,k', start_time: '2026-06-10' }, 'INVALID_PARAMETER', 'keywords'],
    ['a range over 7 days', { granularity: 'DAY', keywords: 'a', start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-08T00:00:01Z' }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['end_time before start_time', { granularity: 'DAY', keywords: 'a', start_time: '2026-06-02', end_time: '2026-06-01' }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['start_time in the future (end_time defaults to now)', { granularity: 'DAY', keywords: 'a', start_time: '2026-06-16' }, 'INVALID_TIME_WINDOW', 'end_time'],
    ['a location below country level', { granularity: 'DAY', keywords: 'a', start_time: '2026-06-10', location: 'abda15b5fd5e427c' }, 'INVALID_PARAMETER', 'location'],
    ['an unknown location', { granularity: 'DAY', keywords: 'a', start_time: '2026-06-10', location: 'ffffffffffffffff' }, 'INVALID_PARAMETER', 'location'],
    ['an unknown parameter', { granularity: 'DAY', keywords: 'a', start_time: '2026-06-10', lang: 'en' }, 'INVALID_PARAMETER', 'lang'],
  ];
  it.each(refusals)('refuses %s', async (_what, params, code, parameter) => {
    expectError(await search(params), 400, code, parameter);
  });
});
