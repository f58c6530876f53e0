/**
 * Every record the emulator returns matches the spec's field tables as written down in
 * schemas/wire.schema.json (exact field sets, types, nulls, timestamp form).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/wire.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schema);
const validator = (def: string) => ajv.getSchema(`${schema.$id}#/$defs/${def}`)!;

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  const campaign = await createCampaign(client, account);
  ids['campaign'] = campaign.id;
  const lineItem = await createLineItem(client, account, campaign.id);
  ids['line_item'] = lineItem.id;
  const promotedAccountLineItem = await createLineItem(client, account, (await createCampaign(client, account)).id, { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS', placements: 'ALL_ON_SERVICE' });
  ids['pa_line_item'] = promotedAccountLineItem.id;
});
afterAll(() => emulator.close());

const a = (): string => `/12/accounts/${account}`;

describe('emulator records match schemas/wire.schema.json', () => {
  it.each([
    ['Account', () => `/12/accounts`],
    ['AccountApp', () => `${a()}/account_apps`],
    ['FundingInstrument', () => `${a()}/funding_instruments`],
    ['Campaign', () => `${a()}/campaigns`],
    ['LineItem', () => `${a()}/line_items`],
    ['PromotableUser', () => `${a()}/promotable_users`],
    ['IabCategory', () => `/12/iab_categories`],
    ['BiddingRule', () => `/12/bidding_rules`],
    ['PlacementCombination', () => `/12/line_items/placements`],
    ['AdvertiserBusinessCategory', () => `/12/advertiser_business_categories`],
    ['CuratedCategory', () => `${a()}/curated_categories`],
  ])('%s list records', async (def, path) => {
    const r = await client.get(path());
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    const validate = validator(def);
    for (const record of r.body.data) {
      if (!validate(record)) throw new Error(`${def}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(record)}`);
    }
  });

  it.each([
    ['Account', () => `${a()}`],
    ['Campaign', () => `${a()}/campaigns/${ids['campaign']}`],
    ['LineItem', () => `${a()}/line_items/${ids['line_item']}`],
    ['AuthenticatedUserAccess', () => `${a()}/authenticated_user_access`],
  ])('%s single record', async (def, path) => {
    const r = await client.get(path());
    expect(r.status).toBe(200);
    const validate = validator(def);
    if (!validate(r.body.data)) throw new Error(`${def}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(r.body.data)}`);
  });

  it.each([
    ['TargetingCriterion', async () => (await client.post(`${a()}/targeting_criteria`, { line_item_id: ids['line_item']!, targeting_type: 'BROAD_KEYWORD', targeting_value: 'sunscreen' })).body.data],
    ['PromotedTweet', async () => (await client.post(`${a()}/promoted_tweets`, { line_item_id: ids['line_item']!, tweet_ids: '1346184843436720128' })).body.data[0]],
    ['PromotedAccount', async () => (await client.post(`${a()}/promoted_accounts`, { line_item_id: ids['pa_line_item']!, user_id: '783214' })).body.data],
    ['LineItemCuratedCategory', async () => {
      const cat = (await client.get(`${a()}/curated_categories`)).body.data[0].id as string;
      return (await client.post(`${a()}/line_item_curated_categories`, { line_item_id: ids['line_item']!, curated_category_id: cat })).body.data;
    }],
    ['MediaCreative', async () => {
      const media = (await client.get(`${a()}/account_media`)).body.data.find((m: { creative_type: string }) => m.creative_type !== 'PREROLL');
      return (await client.post(`${a()}/media_creatives`, { line_item_id: ids['line_item']!, account_media_id: media.id })).body.data;
    }],
  ])('%s created record', async (def, create) => {
    const record = await create();
    const validate = validator(def);
    if (!validate(record)) throw new Error(`${def}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(record)}`);
  });

  it('error bodies have the service shape', async () => {
    const r = await client.get(`${a()}/campaigns/nope`);
    expect(r.status).toBe(404);
    const validate = validator('ErrorBody');
    if (!validate(r.body)) throw new Error(`ErrorBody: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(r.body)}`);
  });
});
