/**
 * Scheduled posts (Part B, Scheduled posts) and post previews (Part B, Post previews): create,
 * look up, list, change and delete a scheduled post; its publication once the emulator's clock
 * passes scheduled_at (a clock the test moves, within the signature's timestamp window); previews
 * for each post type. Records are checked against wire.schema.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/emulator/clock.js';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { expectError } from '../support/assertions.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { expectWire } from '../support/wire.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let owner: string;
let offsetMs = 0;

const GEAR = '2244994945';
const path = (suffix = ''): string => `/12/accounts/${account}/scheduled_tweets${suffix}`;
const inSeconds = (s: number): string => formatTime(new Date(testNow() + offsetMs + s * 1000));
const postScheduled = (params: Params) => client.post(path(), { as_user_id: owner, scheduled_at: inSeconds(3600), ...params }, { as: 'form' });

async function scheduled(params: Params): Promise<any> {
  const r = await postScheduled(params);
  expect(r.status, r.text).toBe(201);
  expectWire('ScheduledTweet', r.body.data);
  return r.body.data;
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0, clock: { now: () => new Date(testNow() + offsetMs) } }));
  owner = emulator.info.user_id;
});
afterAll(() => emulator.close());

describe('scheduled posts', () => {
  it('creates a scheduled post that lookup, the list and GET tweets?tweet_type=SCHEDULED show', async () => {
    const at = inSeconds(7200);
    const s = await scheduled({ text: 'Later', name: 'Launch', scheduled_at: at });
    expect(s).toMatchObject({ text: 'Later', name: 'Launch', user_id: owner, nullcast: true, scheduled_at: at, scheduled_status: 'SCHEDULED', completed_at: null, tweet_id: null, deleted: false });
    expect((await client.get(path(`/${s.id}`))).body.data).toEqual(s);
    const listed = await client.get(path());
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(s.id);
    expectWire('ScheduledTweet', ...listed.body.data);
    const tweets = await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'SCHEDULED', tweet_ids: s.id });
    expect(tweets.body.data[0]).toMatchObject({ id: s.id, tweet_type: 'SCHEDULED', scheduled_at: at, full_text: 'Later' });
    expectWire('Tweet', ...tweets.body.data);
    expect((await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'DRAFT', tweet_ids: s.id })).body.data).toEqual([]);
  });

  it('lists for user_id, by 100 at most 200', async () => {
    const gear = await scheduled({ text: 'Gear', as_user_id: GEAR });
    expect((await client.get(path(), { user_id: GEAR })).body.data.map((x: { id: string }) => x.id)).toEqual([gear.id]);
    expect((await client.get(path(), { count: 200 })).body.data.map((x: { id: string }) => x.id)).not.toContain(gear.id);
    expectError(await client.get(path(), { count: 201 }), 400, 'INVALID_PARAMETER', 'count');
  });

  it.each([
    ['an empty scheduled_at', { scheduled_at: '' }, 400, 'INVALID_PARAMETER', 'scheduled_at'],
    ['scheduled_at in the past', { scheduled_at: '2020-01-01T00:00:00Z' }, 400, 'INVALID_PARAMETER', 'scheduled_at'],
    ['scheduled_at is ISO 8601', { scheduled_at: 'tomorrow' }, 400, 'INVALID_PARAMETER', 'scheduled_at'],
    ['neither text nor media', { name: 'x' }, 400, 'TWEET_CANNOT_BE_BLANK', 'text'],
    ['as_user_id must be a promotable user', { text: 'x', as_user_id: '6253282' }, 400, 'INVALID_USER_ID', 'as_user_id'],
    ['an organic post as another user', { text: 'x', as_user_id: GEAR, nullcast: false }, 403, 'ACTION_NOT_ALLOWED', undefined],
    ['name at most 80', { text: 'x', name: 'n'.repeat(81) }, 400, 'INVALID_PARAMETER', 'name'],
  ])('POST refuses %s', async (_name, params, status, code, parameter) => {
    expectError(await postScheduled(params as Params), status, code, parameter);
  });

  it('POST requires scheduled_at', async () => {
    expectError(await client.post(path(), { as_user_id: owner, text: 'x' }, { as: 'form' }), 400, 'MISSING_PARAMETER', 'scheduled_at');
  });

  it('PUT changes nullcast, scheduled_at, text and name; refuses a past time', async () => {
    const s = await scheduled({ text: 'Before' });
    const at = inSeconds(9000);
    const r = await client.put(path(`/${s.id}`), { text: 'After', name: 'Named', nullcast: false, scheduled_at: at });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ text: 'After', name: 'Named', nullcast: false, scheduled_at: at, scheduled_status: 'SCHEDULED' });
    expectWire('ScheduledTweet', r.body.data);
    expectError(await client.put(path(`/${s.id}`), { scheduled_at: '2020-01-01T00:00:00Z' }), 400, 'INVALID_PARAMETER', 'scheduled_at');
    expectError(await client.put(path(`/${s.id}`), { text: '' }), 400, 'TWEET_CANNOT_BE_BLANK', 'text');
    expectError(await client.put(path(`/${s.id}`), { name: 'n'.repeat(81) }), 400, 'INVALID_PARAMETER', 'name');
    expect((await client.get(path(`/${s.id}`))).body.data).toEqual(r.body.data);
  });

  it('DELETE removes a scheduled post; then it is 404', async () => {
    const s = await scheduled({ text: 'Cancelled' });
    const r = await client.delete(path(`/${s.id}`));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: s.id, deleted: true });
    expectWire('ScheduledTweet', r.body.data);
    expectError(await client.get(path(`/${s.id}`)), 404, 'NOT_FOUND', 'scheduled_tweet_id');
    expectError(await client.delete(path(`/${s.id}`)), 404, 'NOT_FOUND', 'scheduled_tweet_id');
    expect((await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'SCHEDULED', tweet_ids: s.id })).body.data).toEqual([]);
  });

  it('publishes at scheduled_at: SUCCESS with the published post in tweet_id, which can be promoted; no more changes', async () => {
    const at = inSeconds(60);
    const s = await scheduled({ text: 'Goes live', scheduled_at: at });
    offsetMs += 120_000;
    const done = (await client.get(path(`/${s.id}`))).body.data;
    expect(done).toMatchObject({ scheduled_status: 'SUCCESS', completed_at: at });
    expect(done.tweet_id).toMatch(/^\d{19}$/);
    expectWire('ScheduledTweet', done);
    const live = await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'PUBLISHED', tweet_ids: done.tweet_id });
    expect(live.body.data[0]).toMatchObject({ id: done.tweet_id, tweet_type: 'PUBLISHED', full_text: 'Goes live', nullcast: true });
    // a post writes its time in the post format (Tue Aug 27 22:22:12 +0000 2019): the same instant as scheduled_at
    expect(Date.parse(live.body.data[0].created_at)).toBe(Date.parse(at));
    expect((await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'SCHEDULED', tweet_ids: s.id })).body.data).toEqual([]);
    expectError(await client.put(path(`/${s.id}`), { text: 'Too late' }), 400, 'INVALID_PARAMETER', 'scheduled_tweet_id');
    expectError(await client.delete(path(`/${s.id}`)), 400, 'INVALID_PARAMETER', 'scheduled_tweet_id');
    const lineItem = await createLineItem(client, account, (await createCampaign(client, account)).id);
    const promoted = await client.post(`/12/accounts/${account}/promoted_tweets`, { line_item_id: lineItem.id, tweet_ids: done.tweet_id });
    expect(promoted.status, promoted.text).toBe(201);
  });
});

describe('GET tweet_previews', () => {
  it('previews each id of the given type, in the order given, and none for ids of another type', async () => {
    const s = await scheduled({ text: 'Previewed later' });
    const d = (await client.post(`/12/accounts/${account}/draft_tweets`, { as_user_id: owner, text: 'Draft preview' }, { as: 'form' })).body.data;
    const rows: Array<[string, string[], string[]]> = [
      ['PUBLISHED', [SEED_POST_IDS[3]!, s.id, d.id, SEED_POST_IDS[1]!], [SEED_POST_IDS[3]!, SEED_POST_IDS[1]!]],
      ['SCHEDULED', [SEED_POST_IDS[3]!, s.id, d.id], [s.id]],
      ['DRAFT', [SEED_POST_IDS[3]!, s.id, d.id], [d.id]],
    ];
    for (const [type, ids, expected] of rows) {
      const r = await client.get(`/12/accounts/${account}/tweet_previews`, { tweet_type: type, tweet_ids: ids });
      expect(r.status, r.text).toBe(200);
      expect(r.body.request.params).toEqual({ account_id: account, tweet_type: type, tweet_ids: ids });
      expect(r.body.data.map((p: { tweet_id: string }) => p.tweet_id)).toEqual(expected);
      expectWire('TweetPreview', ...r.body.data);
    }
  });

  it.each([
    ['tweet_ids is required', { tweet_type: 'PUBLISHED' }, 'MISSING_PARAMETER', 'tweet_ids'],
    ['tweet_type is required', { tweet_ids: SEED_POST_IDS[0]! }, 'MISSING_PARAMETER', 'tweet_type'],
    ['at most 200 ids', { tweet_type: 'PUBLISHED', tweet_ids: SEED_POST_IDS.concat(['1']) }, 'INVALID_PARAMETER', 'tweet_ids'],
    ['ids are longs', { tweet_type: 'PUBLISHED', tweet_ids: 'x' }, 'INVALID_PARAMETER', 'tweet_ids'],
  ])('refuses: %s', async (_name, params, code, parameter) => {
    expectError(await client.get(`/12/accounts/${account}/tweet_previews`, params as Params), 400, code, parameter);
  });
});
