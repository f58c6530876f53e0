/**
 * Targeting values looked up against the emulator through the real client (src/live/targeting-values.ts):
 * each type's value found in its lookup with the requests the lookups' filters make necessary
 * and no more, a value no lookup lists after every read of its lookup, the reads cached for the
 * next plan; and the emulator's own write check (the independent one) agreeing: it takes what the
 * lookups list and refuses what they do not, for every type the plan checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { EVENTS } from '../../src/emulator/lookups/events-and-tv.js';
import { TARGETING_LOOKUPS } from '../../src/kinds/targeting-lookups.js';
import { fetchLookups, SharedLookups } from '../../src/live/lookups.js';
import { LocalStore } from '../../src/state/local-store.js';
import { apiFor } from '../support/api.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let dir: string;

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  dir = mkdtempSync(join(tmpdir(), 'adsctl-targeting-values-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = Date.now();
const PAST_EVENT = EVENTS.find((e) => Date.parse(e.end_time) < now)!.targeting_value;
const UPCOMING_EVENT = EVENTS.find((e) => Date.parse(e.end_time) > now)!.targeting_value;

/** Looks `wanted` up with a fresh client and an empty cache of its own; the lookups' answer and the targeting option requests made. */
async function lookUp(wanted: Record<string, string[]>, cacheDir = mkdtempSync(join(dir, 'cache-'))): Promise<{ found: Record<string, boolean>; requests: number; names: Record<string, string> }> {
  const { api, client: apiClient } = apiFor(emulator.info);
  const lookups = await fetchLookups({ api, endpoint: 'local', cache: new LocalStore(cacheDir, cacheDir), accountIds: [], targetingValues: wanted, shared: new SharedLookups() });
  const found: Record<string, boolean> = {};
  const names: Record<string, string> = {};
  for (const [type, values] of Object.entries(wanted)) {
    const read = lookups.targetingValues?.[type];
    for (const value of values) {
      const option = read?.options.find((o) => o.value === value);
      found[`${type}:${value}`] = option !== undefined;
      if (option !== undefined) names[`${type}:${value}`] = option.name;
    }
  }
  const requests = Object.entries(apiClient.counts.byEndpoint)
    .filter(([endpoint]) => endpoint.startsWith('targeting_options.'))
    .reduce((sum, [, n]) => sum + n, 0);
  return { found, requests, names };
}

describe('fetchTargetingValues against the emulator', () => {
  const rows: Array<{ name: string; type: string; value: string; found: boolean; requests: number }> = [
    { name: 'a country: the COUNTRIES read alone', type: 'LOCATION', value: '96683cc9126741d1', found: true, requests: 1 },
    { name: 'a region: countries, then regions', type: 'LOCATION', value: 'abda15b5fd5e427c', found: true, requests: 2 },
    { name: 'a city: countries, regions, metros, cities', type: 'LOCATION', value: '5122804691e5fecc', found: true, requests: 4 },
    // 2,700 postal codes: three pages of 1,000
    { name: 'an unknown location: every type read', type: 'LOCATION', value: 'ffffffffffffffff', found: false, requests: 7 },
    { name: 'a language', type: 'LANGUAGE', value: 'en', found: true, requests: 1 },
    { name: 'a language code in capitals is not one', type: 'LANGUAGE', value: 'EN', found: false, requests: 1 },
    { name: 'an interest', type: 'INTEREST', value: '1001', found: true, requests: 1 },
    { name: 'a platform', type: 'PLATFORM', value: '4', found: true, requests: 1 },
    { name: 'a platform version (unpaged lookup)', type: 'PLATFORM_VERSION', value: '17', found: true, requests: 1 },
    { name: 'a device', type: 'DEVICE', value: '1q', found: true, requests: 1 },
    { name: 'a US network operator: the default country alone', type: 'NETWORK_OPERATOR', value: '2l', found: true, requests: 1 },
    // the US, the countries, then the 19 other countries at once
    { name: 'a British network operator: every country', type: 'NETWORK_OPERATOR', value: '7a', found: true, requests: 21 },
    { name: 'an app store category (unpaged lookup)', type: 'APP_STORE_CATEGORY', value: 'qouq', found: true, requests: 1 },
    { name: 'a lookalike app store category: the same lookup', type: 'APP_STORE_CATEGORY_LOOKALIKE', value: 'ra1m', found: true, requests: 1 },
    { name: 'a conversation', type: 'CONVERSATION', value: 'a1', found: true, requests: 1 },
    { name: 'an upcoming event: current and upcoming events', type: 'EVENT', value: UPCOMING_EVENT, found: true, requests: 1 },
    { name: 'an event that has ended: past events too', type: 'EVENT', value: PAST_EVENT, found: true, requests: 2 },
    // the markets, then the shows of each of the 17 markets
    { name: 'a TV show: every market', type: 'TV_SHOW', value: '20027243421', found: true, requests: 18 },
    { name: 'a type without a lookup: nothing read', type: 'BROAD_KEYWORD', value: 'tents', found: false, requests: 0 },
  ];
  it.each(rows)('$name', async ({ type, value, found, requests }) => {
    const got = await lookUp({ [type]: [value] });
    expect(got.found[`${type}:${value}`]).toBe(found);
    expect(got.requests).toBe(requests);
  });

  it('reads each lookup once for every type and value it serves, and names what it found', async () => {
    const got = await lookUp({ LOCATION: ['96683cc9126741d1', 'abda15b5fd5e427c'], APP_STORE_CATEGORY: ['qouq'], APP_STORE_CATEGORY_LOOKALIKE: ['qouq'] });
    expect(got.requests).toBe(3);
    expect(got.names).toEqual({ 'LOCATION:96683cc9126741d1': 'United States', 'LOCATION:abda15b5fd5e427c': 'California, US', 'APP_STORE_CATEGORY:qouq': 'Games: Music', 'APP_STORE_CATEGORY_LOOKALIKE:qouq': 'Games: Music' });
  });

  it('keeps each read in the lookup cache: the next plan reads nothing', async () => {
    const cacheDir = mkdtempSync(join(dir, 'cache-'));
    expect((await lookUp({ LOCATION: ['5122804691e5fecc'], TV_SHOW: ['20027243421'] }, cacheDir)).requests).toBe(22);
    const again = await lookUp({ LOCATION: ['5122804691e5fecc'], TV_SHOW: ['20027243421'] }, cacheDir);
    expect(again.requests).toBe(0);
    expect(again.found).toEqual({ 'LOCATION:5122804691e5fecc': true, 'TV_SHOW:20027243421': true });
  });
});

describe("the emulator's write check agrees with the lookups the plan reads", () => {
  /** A value each lookup lists, read through the client's own lookups. */
  const listed: Record<string, string> = {
    LOCATION: '96683cc9126741d1',
    LANGUAGE: 'en',
    INTEREST: '1001',
    PLATFORM: '0',
    PLATFORM_VERSION: '17',
    DEVICE: '1q',
    NETWORK_OPERATOR: '2l',
    APP_STORE_CATEGORY: 'qouq',
    APP_STORE_CATEGORY_LOOKALIKE: 'qouq',
    CONVERSATION: 'a1',
    EVENT: UPCOMING_EVENT,
    TV_SHOW: '10027243420',
  };

  it('names a listed value for every type the plan checks', () => {
    expect(Object.keys(listed).sort()).toEqual(Object.keys(TARGETING_LOOKUPS).sort());
  });

  it.each(Object.entries(listed))('%s: takes a value its lookup lists, refuses one it does not', async (type, value) => {
    expect((await lookUp({ [type]: [value] })).found[`${type}:${value}`]).toBe(true);
    const campaign = await createCampaign(client, account);
    const lineItem = (await createLineItem(client, account, campaign.id)).id as string;
    const post = (t: string, v: string) => client.post(`/12/accounts/${account}/targeting_criteria`, { line_item_id: lineItem, targeting_type: t, targeting_value: v }, { as: 'form' });
    // a TV show is targeted within a location of its market
    if (type === 'TV_SHOW') expect((await post('LOCATION', '96683cc9126741d1')).status).toBe(201);
    const refused = await post(type, 'zz-not-listed');
    expect(refused.status, refused.text).toBe(400);
    const taken = await post(type, value);
    expect(taken.status, taken.text).toBe(201);
  });
});
