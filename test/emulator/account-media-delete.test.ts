import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectError } from '../support/assertions.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
const media: Record<string, string> = {};

const accountMedia = (suffix = ''): string => `/12/accounts/${account}/account_media${suffix}`;

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  for (const m of (await client.get(accountMedia())).body.data as Array<{ id: string; creative_type: string }>) media[m.creative_type] = m.id;
});
afterAll(() => emulator.close());

describe('DELETE account_media/:id', () => {
  it('answers the record with deleted=true; lists leave it out unless with_deleted', async () => {
    const r = await client.delete(accountMedia(`/${media['BANNER']}`));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: media['BANNER'], creative_type: 'BANNER', deleted: true });
    const listed = (await client.get(accountMedia())).body.data.map((m: { id: string }) => m.id);
    expect(listed).not.toContain(media['BANNER']);
    const withDeleted = (await client.get(accountMedia(), { with_deleted: true })).body.data.map((m: { id: string }) => m.id);
    expect(withDeleted).toContain(media['BANNER']);
  });

  it('is 404 the second time and for an unknown id', async () => {
    expectError(await client.delete(accountMedia(`/${media['BANNER']}`)), 404, 'NOT_FOUND');
    expectError(await client.delete(accountMedia('/zzzzzz')), 404, 'NOT_FOUND');
  });

  it('leaves no media creative to be made of the deleted asset', async () => {
    const campaign = (await createCampaign(client, account)).id;
    const lineItem = (await createLineItem(client, account, campaign, { product_type: 'MEDIA', objective: 'WEBSITE_CLICKS' })).id;
    const r = await client.post(`/12/accounts/${account}/media_creatives`, { line_item_id: lineItem, account_media_id: media['BANNER']!, landing_url: 'https://example.com' }, { as: 'form' });
    expect(r.status).toBe(404);
  });
});
