/**
 * Draft posts (Part B, Draft posts): create, look up, list, change (an empty card_uri or
 * media_keys removes it), delete and preview; drafts in GET tweets with tweet_type=DRAFT; the
 * author and content rules they share with POST tweet. Records are checked against wire.schema.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { expectError } from '../support/assertions.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { loginAs } from '../support/login.js';
import { mp4, png } from '../support/media-bytes.js';
import { libraryMedia } from '../support/media-library.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let manager: TestClient;
let account: string;
let owner: string;
const m: Record<string, string> = {};
let cardUri: string;

const GEAR = '2244994945';
const path = (suffix = ''): string => `/12/accounts/${account}/draft_tweets${suffix}`;
const postDraft = (params: Params, as: TestClient = client) => as.post(path(), { as_user_id: owner, ...params }, { as: 'form' });

async function draft(params: Params): Promise<any> {
  const r = await postDraft(params);
  expect(r.status, r.text).toBe(201);
  expectWire('DraftTweet', r.body.data);
  return r.body.data;
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  owner = emulator.info.user_id;
  manager = client.as(await loginAs(client, 'adsctl_manager'));
  m['img'] = await libraryMedia(client, account, png(1200, 628), 'image/png');
  m['vid'] = await libraryMedia(client, account, mp4(1280, 720), 'video/mp4');
  const card = await client.post(`/12/accounts/${account}/cards`, {}, { json: { name: 'Card', components: [{ type: 'MEDIA', media_key: m['img'] }, { type: 'DETAILS', title: 't', destination: { type: 'WEBSITE', url: 'https://example.com' } }] } });
  cardUri = card.body.data.card_uri;
});
afterAll(() => emulator.close());

describe('draft posts', () => {
  it('creates a nullcast draft that lookup, the list and GET tweets?tweet_type=DRAFT show', async () => {
    const d = await draft({ text: 'Draft one', name: 'First draft', card_uri: cardUri });
    expect(d).toMatchObject({ text: 'Draft one', name: 'First draft', user_id: owner, nullcast: true, card_uri: cardUri, media_keys: [], deleted: false });
    expect((await client.get(path(`/${d.id}`))).body.data).toEqual(d);
    expect((await client.get(path())).body.data.map((x: { id: string }) => x.id)).toContain(d.id);
    const tweets = await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'DRAFT', tweet_ids: d.id });
    expect(tweets.body.data).toHaveLength(1);
    expect(tweets.body.data[0]).toMatchObject({ id: d.id, tweet_type: 'DRAFT', full_text: 'Draft one', name: 'First draft', nullcast: true, card_uri: cardUri });
    expectWire('Tweet', tweets.body.data[0]);
    expect((await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'PUBLISHED', timeline_type: 'ALL', tweet_ids: d.id })).body.data).toEqual([]);
  });

  it('pages by 100 by default and at most 200, for user_id', async () => {
    const gear = await draft({ text: 'For Acme Gear', as_user_id: GEAR });
    const mine = await client.get(path(), { count: 200 });
    expect(mine.body.data.map((x: { id: string }) => x.id)).not.toContain(gear.id);
    const theirs = await client.get(path(), { user_id: GEAR });
    expect(theirs.body.data.map((x: { id: string }) => x.id)).toEqual([gear.id]);
    expectWire('DraftTweet', ...mine.body.data, ...theirs.body.data);
    expectError(await client.get(path(), { count: 201 }), 400, 'INVALID_PARAMETER', 'count');
    expectError(await client.get(path(), { user_id: '6253282' }), 400, 'INVALID_USER_ID', 'user_id');
    for (let i = 0; i < 101; i++) await draft({ text: `bulk ${i}` });
    const page = await client.get(path());
    expect(page.body.data).toHaveLength(100);
    expect(page.body.next_cursor).not.toBeNull();
  });

  it('PUT changes what it is given; an empty card_uri or media_keys removes it', async () => {
    const d = await draft({ text: 'Before', media_keys: m['img']!, card_uri: cardUri });
    const r = await client.put(path(`/${d.id}`), { text: 'After', name: 'Renamed', nullcast: false });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ text: 'After', name: 'Renamed', nullcast: false, media_keys: [m['img']], card_uri: cardUri });
    const removed = await client.put(path(`/${d.id}`), { card_uri: '', media_keys: '' });
    expect(removed.body.data).toMatchObject({ text: 'After', card_uri: null, media_keys: [] });
    const video = await client.put(path(`/${d.id}`), { media_keys: m['vid']!, name: '' });
    expect(video.body.data).toMatchObject({ media_keys: [m['vid']], name: null });
    expectWire('DraftTweet', r.body.data, removed.body.data, video.body.data);
    expect((await client.get(path(`/${d.id}`))).body.data).toEqual(video.body.data);
  });

  it.each([
    ['removing the only content', { media_keys: '' }, 400, 'TWEET_CANNOT_BE_BLANK', 'text'],
    ['an unknown card', { card_uri: 'card://7' }, 404, 'NOT_FOUND', 'card_uri'],
    ['media outside the library', { media_keys: '3_1' }, 404, 'MEDIA_NOT_FOUND', 'media_keys'],
    ['a long name', { name: 'n'.repeat(81) }, 400, 'INVALID_PARAMETER', 'name'],
    ['as_user_id (not a PUT parameter)', { as_user_id: owner }, 400, 'INVALID_PARAMETER', 'as_user_id'],
  ])('PUT refuses %s', async (_name, params, status, code, parameter) => {
    const d = await draft({ media_keys: m['img']! });
    expectError(await client.put(path(`/${d.id}`), params as Params), status, code, parameter);
    expect((await client.get(path(`/${d.id}`))).body.data).toEqual(d);
  });

  it.each([
    ['as_user_id is required', { text: 'x', as_user_id: '' }, 400, 'MISSING_PARAMETER', 'as_user_id'],
    ['neither text nor media', {}, 400, 'TWEET_CANNOT_BE_BLANK', 'text'],
    ['an organic draft as another user', { text: 'x', as_user_id: GEAR, nullcast: false }, 403, 'ACTION_NOT_ALLOWED', undefined],
    ['nullcast is a boolean', { text: 'x', nullcast: 'yes' }, 400, 'INVALID_PARAMETER', 'nullcast'],
  ])('POST refuses %s', async (_name, params, status, code, parameter) => {
    expectError(await postDraft(params as Params), status, code, parameter);
  });

  it('refuses a manager without TWEET_COMPOSER writing as the advertiser, on POST and PUT', async () => {
    expectError(await postDraft({ text: 'x' }, manager), 403, 'ACTION_NOT_ALLOWED');
    const d = await draft({ text: 'Mine' });
    expectError(await manager.put(path(`/${d.id}`), { text: 'Theirs' }), 403, 'ACTION_NOT_ALLOWED');
    expect((await manager.get(path(`/${d.id}`))).body.data.text).toBe('Mine');
  });

  it('DELETE removes a draft; then it is 404 everywhere', async () => {
    const d = await draft({ text: 'Gone soon' });
    const r = await client.delete(path(`/${d.id}`));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: d.id, deleted: true });
    expectWire('DraftTweet', r.body.data);
    expectError(await client.get(path(`/${d.id}`)), 404, 'NOT_FOUND', 'draft_tweet_id');
    expectError(await client.delete(path(`/${d.id}`)), 404, 'NOT_FOUND', 'draft_tweet_id');
    expectError(await client.put(path(`/${d.id}`), { text: 'x' }), 404, 'NOT_FOUND', 'draft_tweet_id');
    expect((await client.get(`/12/accounts/${account}/tweets`, { tweet_type: 'DRAFT', tweet_ids: d.id })).body.data).toEqual([]);
  });

  it('POST preview sends the draft to the user’s devices', async () => {
    const d = await draft({ text: 'Preview me' });
    const r = await client.post(path(`/preview/${d.id}`));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ request: { params: { account_id: account, draft_tweet_id: d.id } }, data: { external_id: d.id, device_ids: [], preview_target: 'TWITTER_MOBILE_APP' } });
    expectWire('DraftTweetPreview', r.body.data);
    expectError(await client.post(path('/preview/1')), 404, 'NOT_FOUND', 'draft_tweet_id');
  });
});
