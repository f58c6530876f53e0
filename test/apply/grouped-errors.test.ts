/**
 * A refused grouped request (post ids of one line item in one POST) is pinned on the items its
 * errors name, as the emulator answers them: a post that does not exist fails with its own
 * `not found`, the posts beside it are sent again; an error about the line item fails them all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import type { ApiClient } from '../../src/api/client.js';
import { sendChunk, type Outcome } from '../../src/apply/send.js';
import type { WriteContext } from '../../src/kinds/descriptor.js';
import { KINDS } from '../../src/kinds/registry.js';
import type { Operation } from '../../src/plan/types.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { apiFor } from '../support/api.js';
import { TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { testClock } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;
let account: string;
let campaignId: string;

const NO_CONTEXT: WriteContext = {
  readFile: () => Promise.reject(new Error('no files')),
  filePath: (path) => path,
  sidecarPath: (address, id) => ({ path: address, legacyPath: address, owner: { address, id } }),
  progress: () => {},
};

/** Promotes `tweetIds` on `lineItemId` through the promoted post's grouped create; one outcome each. */
function promote(lineItemId: string, tweetIds: readonly string[]): Promise<Outcome[]> {
  const ops: Operation[] = tweetIds.map((id) => ({
    key: `create:li.promoted_posts["${id}"]`,
    address: `li.promoted_posts["${id}"]`,
    kind: 'promoted_post',
    action: 'create',
    params: { line_item_id: lineItemId, tweet_id: id },
    after: [],
  }));
  return sendChunk(api, account, KINDS.promoted_post.write.create, ops, ops.map((op) => op.params), NO_CONTEXT);
}

const summary = (outcomes: Outcome[]): string[] => outcomes.map((o) => (o.status === 'failed' ? `failed ${o.error.message}` : o.status));

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0 });
  ({ client, api } = apiFor(emulator.info));
  account = emulator.info.account_id;
  campaignId = (await createCampaign(new TestClient(emulator.info), account)).id;
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('a refused promoted-posts POST', () => {
  it('fails only the posts the service names; the others are sent again', async () => {
    const li = (await createLineItem(new TestClient(emulator.info), account, campaignId)).id;
    const [a, b] = SEED_POST_IDS.slice(0, 2) as [string, string];
    const missing = ['1999999999999999991', '1999999999999999992'];
    const outcomes = await promote(li, [a, missing[0]!, b, missing[1]!]);
    expect(summary(outcomes)).toEqual(['retry', `failed NOT_FOUND: Tweet ${missing[0]} was not found`, 'retry', `failed NOT_FOUND: Tweet ${missing[1]} was not found`]);
    expect(outcomes[1]).toMatchObject({ error: { status: 404, parameter: 'tweet_ids' } });
    expect(summary(await promote(li, [a, b]))).toEqual(['ok', 'ok']);
  });

  it('fails every post when the error is about the line item', async () => {
    const mediaCampaign = (await createCampaign(new TestClient(emulator.info), account)).id;
    const media = (await createLineItem(new TestClient(emulator.info), account, mediaCampaign, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS' })).id;
    const outcomes = await promote(media, SEED_POST_IDS.slice(2, 4));
    expect(outcomes.map((o) => o.status)).toEqual(['failed', 'failed']);
    expect(outcomes.map((o) => (o.status === 'failed' ? o.error.code : undefined))).toEqual(['INCOMPATIBLE_LINE_ITEM', 'INCOMPATIBLE_LINE_ITEM']);
  });

  it('fails every post when the line item does not exist, though the message names an id', async () => {
    const outcomes = await promote('nolineitem', SEED_POST_IDS.slice(4, 6));
    expect(outcomes.map((o) => (o.status === 'failed' ? o.error.code : o.status))).toEqual(['NOT_FOUND', 'NOT_FOUND']);
  });
});
