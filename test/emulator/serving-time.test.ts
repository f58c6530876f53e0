/**
 * Time-based serving status: a campaign whose line items have all ended shows EXPIRED among its
 * reasons_not_servable and as its effective_status, computed on read from the injected clock
 * (the campaign and its line items are not written again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/emulator/clock.js';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let offsetMs = 0;
const clockNow = (): Date => new Date(testNow() + offsetMs);
const hours = (h: number): number => h * 3_600_000;
const inHours = (h: number): string => formatTime(new Date(testNow() + hours(h)));

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0, clock: { now: clockNow } }));
});
afterAll(() => emulator.close());

/** GET of the campaign at `laterMs` on the emulator's clock (signed at that time). */
async function campaignAt(id: string, laterMs: number): Promise<any> {
  offsetMs = laterMs;
  const r = await client.get(`/12/accounts/${account}/campaigns/${id}`, {}, { timestamp: Math.floor(clockNow().getTime() / 1000) });
  offsetMs = 0;
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

describe('EXPIRED once every line item has ended', () => {
  const cases: Array<[string, Array<string | null>, string, number, Record<string, unknown>]> = [
    ['before the end: RUNNING', [inHours(2)], 'ACTIVE', hours(1), { servable: true, reasons_not_servable: [], effective_status: 'RUNNING' }],
    ['after the end: EXPIRED', [inHours(2)], 'ACTIVE', hours(3), { servable: false, reasons_not_servable: ['EXPIRED'], effective_status: 'EXPIRED' }],
    ['paused and ended: both reasons, EXPIRED', [inHours(2)], 'PAUSED', hours(3), { servable: false, reasons_not_servable: ['PAUSED_BY_ADVERTISER', 'EXPIRED'], effective_status: 'EXPIRED' }],
    ['one line item still running: not expired', [inHours(2), inHours(10)], 'ACTIVE', hours(3), { servable: true, reasons_not_servable: [], effective_status: 'RUNNING' }],
    ['a line item without end_time never expires', [inHours(2), null], 'ACTIVE', hours(3), { servable: true, effective_status: 'RUNNING' }],
  ];
  it.each(cases)('%s', async (_name, ends, campaignStatus, later, expected) => {
    const c = await createCampaign(client, account, { entity_status: campaignStatus });
    for (const end of ends) {
      await createLineItem(client, account, c.id, { start_time: inHours(1), ...(end === null ? {} : { end_time: end }) });
    }
    expect(await campaignAt(c.id, later)).toMatchObject(expected);
  });

  it('shows in lists too, and a deleted ended line item no longer counts', async () => {
    const c = await createCampaign(client, account);
    const ended = await createLineItem(client, account, c.id, { start_time: inHours(1), end_time: inHours(2) });
    offsetMs = hours(3);
    const ts = Math.floor(clockNow().getTime() / 1000);
    const list = await client.get(`/12/accounts/${account}/campaigns`, { campaign_ids: c.id }, { timestamp: ts });
    expect(list.body.data[0]).toMatchObject({ reasons_not_servable: ['EXPIRED'], effective_status: 'EXPIRED' });
    const del = await client.delete(`/12/accounts/${account}/line_items/${ended.id}`, {}, { timestamp: ts });
    expect(del.status, del.text).toBe(200);
    offsetMs = 0;
    expect(await campaignAt(c.id, hours(3))).toMatchObject({ reasons_not_servable: ['INCOMPLETE'], effective_status: 'UNKNOWN' });
  });
});
