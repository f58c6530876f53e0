/**
 * The official SDK's update pattern (load, change one attribute, save) against every PUT: the
 * SDK sends back every attribute it holds, read-only ones included, in the query string with
 * lists as repeated keys (cards: the whole card as JSON). Read-only attributes sent back unchanged
 * are ignored; changed ones, duplicated scalars and attributes the service refuses outright
 * (advertiser_user_id) stay 400 INVALID_PARAMETER.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { CURATED_CATEGORIES } from '../../src/emulator/lookups/curated-categories.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectError } from '../support/assertions.js';
import { png } from '../support/media-bytes.js';
import { libraryMedia } from '../support/media-library.js';
import { loadChangeSave, sdkParams, sdkPut } from '../support/sdk-save.js';
import { expectWire } from '../support/wire.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
const clock = { now: (): Date => new Date(testNow()) };
const at = (suffix: string): string => `/12/accounts/${account}${suffix}`;

let campaign: any;
let lineItem: any;
let card: any;
const paths: Record<string, string> = {};

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ clock, rateLimitScale: 0 }));
  campaign = await createCampaign(client, account, { entity_status: 'PAUSED' });
  lineItem = await createLineItem(client, account, campaign.id, { entity_status: 'PAUSED', start_time: '2030-07-01T00:00:00Z', end_time: '2030-08-01T00:00:00Z' });
  const image = await libraryMedia(client, account, png(1200, 628), 'image/png');
  const made = await client.post(at('/cards'), {}, { json: { name: 'Summer card', components: [{ type: 'MEDIA', media_key: image }, { type: 'DETAILS', title: 'Shop', destination: { type: 'WEBSITE', url: 'https://example.com/' } }] } });
  expect(made.status, made.text).toBe(201);
  card = made.body.data;
  const owner = emulator.info.user_id;
  const draft = await client.post(at('/draft_tweets'), { as_user_id: owner, text: 'Draft' }, { as: 'form' });
  const scheduled = await client.post(at('/scheduled_tweets'), { as_user_id: owner, text: 'Later', scheduled_at: '2030-09-01T00:00:00Z' }, { as: 'form' });
  const lic = await client.post(at('/line_item_curated_categories'), { curated_category_id: CURATED_CATEGORIES[0]!.id, line_item_id: lineItem.id }, { as: 'form' });
  for (const r of [draft, scheduled, lic]) expect(r.status, r.text).toBe(201);
  Object.assign(paths, {
    campaign: at(`/campaigns/${campaign.id}`),
    lineItem: at(`/line_items/${lineItem.id}`),
    account: at(''),
    mediaLibrary: at(`/media_library/${image}`),
    lineItemCuratedCategory: at(`/line_item_curated_categories/${lic.body.data.id}`),
    draft: at(`/draft_tweets/${draft.body.data.id}`),
    scheduled: at(`/scheduled_tweets/${scheduled.body.data.id}`),
  });
});
afterAll(() => emulator.close());

describe('load, change one attribute, save — as the official SDK sends it', () => {
  it('a campaign: every attribute back, reasons_not_servable as repeated keys; the new name applies', async () => {
    const loaded = (await client.get(paths['campaign']!)).body.data;
    expect(loaded.reasons_not_servable).toEqual(['PAUSED_BY_ADVERTISER', 'INCOMPLETE']);
    const r = await loadChangeSave(client, paths['campaign']!, { name: 'Renamed by the SDK' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: campaign.id, name: 'Renamed by the SDK', currency: 'USD', created_at: loaded.created_at });
    expectWire('Campaign', r.body.data);
    expect((await client.get(paths['campaign']!)).body.data.name).toBe('Renamed by the SDK');
  });

  it('a line item (advertiser_user_id set to None, the SDK maintainers\' advice): the new bid applies', async () => {
    const r = await loadChangeSave(client, paths['lineItem']!, { bid_strategy: 'MAX', bid_amount_local_micro: 2_500_000 }, ['advertiser_user_id']);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: lineItem.id, bid_strategy: 'MAX', bid_amount_local_micro: 2_500_000, campaign_id: campaign.id, placements: ['ALL_ON_SERVICE'] });
    expectWire('LineItem', r.body.data);
  });

  it('a card: the whole card back as JSON, media_metadata included; the new name applies', async () => {
    const loaded = (await client.get(at(`/cards/${card.id}`))).body.data;
    const mediaKey = loaded.components[0].media_key;
    const components = [{ ...loaded.components[0], media_metadata: { [mediaKey]: { type: 'IMAGE', url: 'https://pbs.example/x.png', width: 1200, height: 628 } } }, loaded.components[1]];
    const r = await sdkPut(client, at(`/cards/${card.id}`), [], { ...loaded, components, name: 'Renamed card' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: card.id, name: 'Renamed card', card_type: 'IMAGE_WEBSITE', card_uri: loaded.card_uri });
    expectWire('Card', r.body.data);
  });

  const others: Array<[string, string, Record<string, unknown>]> = [
    ['an account', 'account', { name: 'Renamed account' }],
    ['a media library item', 'mediaLibrary', { name: 'Renamed media' }],
    ['a line item curated category', 'lineItemCuratedCategory', { curated_category_id: CURATED_CATEGORIES[1]!.id }],
    ['a draft post', 'draft', { text: 'Edited draft' }],
    ['a scheduled post', 'scheduled', { text: 'Edited later' }],
  ];
  it.each(others)('%s', async (_name, key, changes) => {
    const r = await loadChangeSave(client, paths[key]!, changes);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject(changes);
  });
});

describe('what an echoed update still refuses', () => {
  const campaignWith = async (changes: Record<string, unknown>, extra: Array<[string, string]> = []) => {
    const loaded = (await client.get(paths['campaign']!)).body.data;
    return sdkPut(client, paths['campaign']!, [...sdkParams({ ...loaded, ...changes }), ...extra]);
  };
  const cases: Array<[string, () => Promise<any>, string]> = [
    ['a campaign read-only attribute with a changed value', () => campaignWith({ currency: 'EUR' }), 'currency'],
    ['a changed created_at', () => campaignWith({ created_at: '2020-01-01T00:00:00Z' }), 'created_at'],
    ['a changed reasons_not_servable', () => campaignWith({ reasons_not_servable: ['EXPIRED'] }), 'reasons_not_servable'],
    ['a scalar sent twice', () => campaignWith({}, [['entity_status', 'ACTIVE']]), 'entity_status'],
    ['advertiser_user_id, even unchanged (allow-listed apps only)', async () => loadChangeSave(client, paths['lineItem']!, {}), 'advertiser_user_id'],
    ['a line item placements change', async () => loadChangeSave(client, paths['lineItem']!, { placements: ['ALL_ON_SERVICE', 'SERVICE_TIMELINE'] }, ['advertiser_user_id']), 'placements'],
    ['a changed card_type', async () => {
      const loaded = (await client.get(at(`/cards/${card.id}`))).body.data;
      return sdkPut(client, at(`/cards/${card.id}`), [], { ...loaded, card_type: 'VIDEO_WEBSITE' });
    }, 'card_type'],
    ['media_metadata describing other media', async () => {
      const loaded = (await client.get(at(`/cards/${card.id}`))).body.data;
      const components = [{ ...loaded.components[0], media_metadata: { '3_1': {} } }, loaded.components[1]];
      return sdkPut(client, at(`/cards/${card.id}`), [], { ...loaded, components });
    }, 'media_metadata'],
  ];
  it.each(cases)('%s → 400 INVALID_PARAMETER', async (_name, send, parameter) => {
    const r = await send();
    expectError(r, 400, 'INVALID_PARAMETER', parameter);
  });

  it('a repeated scalar names the duplicate; a changed read-only attribute says it is read-only', async () => {
    const dup = await campaignWith({}, [['name', 'other']]);
    expect(dup.body.errors).toContainEqual({ code: 'INVALID_PARAMETER', message: 'Duplicate parameter name', parameter: 'name' });
    const changed = await campaignWith({ id: 'zzzzz' });
    expect(changed.body.errors).toEqual([{ code: 'INVALID_PARAMETER', message: 'id is read-only', parameter: 'id' }]);
  });
});
