/**
 * Posts (Part B, Posts): GET tweets with its filters over the seeded organic posts and new
 * promoted-only ones, POST tweet with the content, media, card, author and permission rules, PUT
 * tweets/:id/name, and promoting a new post. Every record is checked against wire.schema.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { expectError } from '../support/assertions.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { loginAs } from '../support/login.js';
import { gif, mp4, png } from '../support/media-bytes.js';
import { libraryMedia, uploadMedia } from '../support/media-library.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let manager: TestClient;
let creative: TestClient;
let analyst: TestClient;
let account: string;
let owner: string;
const m: Record<string, string> = {};
let cardUri: string;

const GEAR = '2244994945'; // the account's RETWEETS_ONLY promotable user
const NEWS = '6253282'; // a user the account may not promote

const path = (suffix: string): string => `/12/accounts/${account}${suffix}`;
const list = (params: Params) => client.get(path('/tweets'), params);
const post = (params: Params, as: TestClient = client) => as.post(path('/tweet'), { as_user_id: owner, ...params }, { as: 'form' });
const ids = (r: { body: { data: Array<{ id: string }> } }): string[] => r.body.data.map((d) => d.id);

async function created(params: Params): Promise<any> {
  const r = await post(params);
  expect(r.status, r.text).toBe(201);
  expectWire('Tweet', r.body.data);
  return r.body.data;
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  owner = emulator.info.user_id;
  manager = client.as(await loginAs(client, 'adsctl_manager'));
  creative = client.as(await loginAs(client, 'adsctl_creative'));
  analyst = client.as(await loginAs(client, 'adsctl_analyst'));
  for (let i = 0; i < 5; i++) m[`img${i}`] = await libraryMedia(client, account, png(1200, 628), 'image/png');
  m['gif'] = await libraryMedia(client, account, gif(300, 300), 'image/gif');
  m['vid'] = await libraryMedia(client, account, mp4(1280, 720), 'video/mp4');
  m['uploaded'] = await uploadMedia(client, png(500, 500), 'image/png');
  const card = await client.post(path('/cards'), {}, { json: { name: 'Card', components: [{ type: 'MEDIA', media_key: m['img0'] }, { type: 'DETAILS', title: 't', destination: { type: 'WEBSITE', url: 'https://example.com' } }] } });
  expect(card.status, card.text).toBe(201);
  cardUri = card.body.data.card_uri;
});
afterAll(() => emulator.close());

describe('GET tweets over the seeded posts', () => {
  it('lists the FULL promotable user’s organic posts with timeline_type ORGANIC, 200 a page by default', async () => {
    const r = await list({ tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC' });
    expect(r.status, r.text).toBe(200);
    expect(ids(r)).toEqual(SEED_POST_IDS);
    expect(r.body.request.params).toEqual({ account_id: account, tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC' });
    const first = r.body.data[0];
    expect(first).toMatchObject({ id: SEED_POST_IDS[0], tweet_type: 'PUBLISHED', nullcast: false, full_text: 'Seeded post 1 from Acme Outdoor', user: { id: owner, id_str: owner, screen_name: 'adsctl_owner' }, conversation_settings: 'EVERYONE' });
    expectWire('Tweet', ...r.body.data);
  });

  it('pages with count and cursor', async () => {
    const page1 = await list({ tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC', count: 150 });
    const page2 = await list({ tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC', count: 150, cursor: page1.body.next_cursor });
    expect([...ids(page1), ...ids(page2)]).toEqual(SEED_POST_IDS);
    expect(page2.body.next_cursor).toBeNull();
  });

  it.each([
    ['the default timeline (NULLCAST) leaves organic posts out', { tweet_type: 'PUBLISHED', tweet_ids: SEED_POST_IDS.slice(0, 3) }, []],
    ['tweet_ids keeps those ids', { tweet_type: 'PUBLISHED', timeline_type: 'ALL', tweet_ids: [SEED_POST_IDS[5]!, SEED_POST_IDS[2]!, '42'] }, [SEED_POST_IDS[2], SEED_POST_IDS[5]]],
    ['ids of another type are left out', { tweet_type: 'DRAFT', timeline_type: 'ALL', tweet_ids: SEED_POST_IDS.slice(0, 3) }, []],
    ['user_id: another promotable user', { tweet_type: 'PUBLISHED', timeline_type: 'ALL', user_id: GEAR }, ['1900000000000000001', '1900000000000000002']],
  ])('%s', async (_name, params, expected) => {
    const r = await list(params as Params);
    expect(r.status, r.text).toBe(200);
    expect(ids(r)).toEqual(expected);
  });

  it('trim_user keeps only the author id', async () => {
    const r = await list({ tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC', count: 1, trim_user: true });
    expect(r.body.data[0].user).toEqual({ id: owner, id_str: owner });
    expectWire('Tweet', r.body.data[0]);
  });

  it.each([
    ['tweet_type is required', {}, 400, 'MISSING_PARAMETER', 'tweet_type'],
    ['tweet_type is an enum', { tweet_type: 'DELETED' }, 400, 'INVALID_PARAMETER', 'tweet_type'],
    ['timeline_type is an enum', { tweet_type: 'PUBLISHED', timeline_type: 'PROMOTED' }, 400, 'INVALID_PARAMETER', 'timeline_type'],
    ['count at most 1000', { tweet_type: 'PUBLISHED', count: 1001 }, 400, 'INVALID_PARAMETER', 'count'],
    ['count at least 1', { tweet_type: 'PUBLISHED', count: 0 }, 400, 'INVALID_PARAMETER', 'count'],
    ['name at most 80', { tweet_type: 'PUBLISHED', name: 'n'.repeat(81) }, 400, 'INVALID_PARAMETER', 'name'],
    ['tweet_ids at most 200', { tweet_type: 'PUBLISHED', tweet_ids: Array.from({ length: 201 }, (_, i) => String(i + 1)) }, 400, 'INVALID_PARAMETER', 'tweet_ids'],
    ['tweet_ids are longs', { tweet_type: 'PUBLISHED', tweet_ids: 'abc' }, 400, 'INVALID_PARAMETER', 'tweet_ids'],
    ['user_id is a long', { tweet_type: 'PUBLISHED', user_id: 'owner' }, 400, 'INVALID_PARAMETER', 'user_id'],
    ['user_id must be a promotable user', { tweet_type: 'PUBLISHED', user_id: NEWS }, 400, 'INVALID_USER_ID', 'user_id'],
    ['no sort_by', { tweet_type: 'PUBLISHED', sort_by: 'created_at-asc' }, 400, 'INVALID_PARAMETER', 'sort_by'],
  ])('refuses: %s', async (_name, params, status, code, parameter) => {
    expectError(await list(params as Params), status, code, parameter);
  });
});

describe('POST tweet', () => {
  it('publishes a promoted-only post (nullcast by default) that GET lists and promoted_tweets promotes', async () => {
    const r = await post({ text: 'Hello from the emulator', name: 'Launch post' });
    expect(r.status, r.text).toBe(201);
    const made = r.body.data;
    expect(made).toMatchObject({ tweet_type: 'PUBLISHED', nullcast: true, name: 'Launch post', text: 'Hello from the emulator', truncated: false, card_uri: null, media_keys: [] });
    expect(made.conversation_settings).toBeUndefined();
    expect(made.id).toMatch(/^\d{19}$/);
    expect(r.body.request.params).toEqual({ account_id: account, as_user_id: owner, text: 'Hello from the emulator', name: 'Launch post' });
    expectWire('Tweet', made);
    const listed = await list({ tweet_type: 'PUBLISHED', tweet_ids: made.id });
    expect(listed.body.data).toEqual([{ ...made, text: undefined, full_text: made.text, display_text_range: [0, 23], conversation_settings: 'EVERYONE' }].map((x) => JSON.parse(JSON.stringify(x))));
    expect(ids(await list({ tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC', tweet_ids: made.id }))).toEqual([]);

    const campaign = await createCampaign(client, account);
    const lineItem = await createLineItem(client, account, campaign.id);
    const promoted = await client.post(path('/promoted_tweets'), { line_item_id: lineItem.id, tweet_ids: made.id });
    expect(promoted.status, promoted.text).toBe(201);
    expect(promoted.body.data[0].tweet_id).toBe(made.id);
    expectError(await client.post(path('/promoted_tweets'), { line_item_id: lineItem.id, tweet_ids: '1999999999999999999' }), 404, 'NOT_FOUND', 'tweet_ids');
  });

  it.each([
    ['4 images', () => ({ media_keys: [m['img0']!, m['img1']!, m['img2']!, m['img3']!] })],
    ['1 GIF', () => ({ media_keys: m['gif']! })],
    ['1 video with its title, description and call to action', () => ({ media_keys: m['vid']!, video_title: 'Trailer', video_description: 'd'.repeat(200), video_cta: 'WATCH_NOW', video_cta_value: 'https://example.com/watch' })],
    ['a card', () => ({ text: 'With a card', card_uri: cardUri })],
    ['conversation_settings, shown by GET', () => ({ text: 'Followers only', conversation_settings: 'FOLLOWING' })],
    ['an organic post by the FULL promotable user', () => ({ text: 'Organic', nullcast: false })],
    ['extended mode', () => ({ text: 'x'.repeat(200), tweet_mode: 'extended' })],
    ['compat mode cuts at 140', () => ({ text: 'y'.repeat(200), tweet_mode: 'compat' })],
    ['trim_user', () => ({ text: 'trimmed', trim_user: true })],
    ['as the RETWEETS_ONLY promotable user (the owner holds TWEET_COMPOSER)', () => ({ text: 'As Acme Gear', as_user_id: GEAR })],
  ])('takes %s', async (_name, params) => {
    const sent = params() as Params;
    const made = await created(sent);
    const again = (await list({ tweet_type: 'PUBLISHED', timeline_type: 'ALL', tweet_ids: made.id, user_id: String(sent['as_user_id'] ?? owner) })).body.data[0];
    expectWire('Tweet', again);
    expect(again.conversation_settings).toBe(sent['conversation_settings'] ?? 'EVERYONE');
    expect(again.nullcast).toBe(sent['nullcast'] !== false);
    if (sent['media_keys'] !== undefined) expect(made.media_keys).toEqual(String(sent['media_keys']).split(','));
    if (sent['card_uri'] !== undefined) expect(made.card_uri).toBe(cardUri);
    if (sent['video_cta'] !== undefined) expect(made.additional_media_info).toEqual({ title: 'Trailer', description: 'd'.repeat(200), call_to_actions: { watch_now: { url: 'https://example.com/watch' } } });
    if (sent['tweet_mode'] === 'extended') expect(made).toMatchObject({ full_text: 'x'.repeat(200), display_text_range: [0, 200], truncated: false });
    if (sent['tweet_mode'] === 'compat') expect(made).toMatchObject({ text: `${'y'.repeat(139)}…`, truncated: true });
    if (sent['trim_user'] === true) expect(made.user).toEqual({ id: owner, id_str: owner });
    if (sent['as_user_id'] === GEAR) expect(made.user).toMatchObject({ id: GEAR, screen_name: 'acme_gear' });
  });

  it.each([
    ['as_user_id is required', () => ({ as_user_id: '', text: 'x' }), 400, 'MISSING_PARAMETER', 'as_user_id'],
    ['as_user_id must be a promotable user', () => ({ as_user_id: NEWS, text: 'x' }), 400, 'INVALID_USER_ID', 'as_user_id'],
    ['neither text nor media', () => ({ name: 'blank' }), 400, 'TWEET_CANNOT_BE_BLANK', 'text'],
    ['blank text', () => ({ text: '   ' }), 400, 'TWEET_CANNOT_BE_BLANK', 'text'],
    ['text at most 280', () => ({ text: 't'.repeat(281) }), 400, 'INVALID_PARAMETER', 'text'],
    ['name at most 80', () => ({ text: 'x', name: 'n'.repeat(81) }), 400, 'INVALID_PARAMETER', 'name'],
    ['five images', () => ({ media_keys: [0, 1, 2, 3, 4].map((i) => m[`img${i}`]!) }), 400, 'INVALID_MEDIA', 'media_keys'],
    ['an image and a GIF', () => ({ media_keys: [m['img0']!, m['gif']!] }), 400, 'INVALID_MEDIA', 'media_keys'],
    ['two videos', () => ({ media_keys: [m['vid']!, m['vid']!] }), 400, 'INVALID_MEDIA', 'media_keys'],
    ['media outside the media library', () => ({ media_keys: m['uploaded']! }), 404, 'MEDIA_NOT_FOUND', 'media_keys'],
    ['an unknown card', () => ({ text: 'x', card_uri: 'card://1' }), 404, 'NOT_FOUND', 'card_uri'],
    ['a malformed card URI', () => ({ text: 'x', card_uri: 'https://example.com' }), 400, 'INVALID_PARAMETER', 'card_uri'],
    ['conversation_settings is an enum', () => ({ text: 'x', conversation_settings: 'NOBODY' }), 400, 'INVALID_PARAMETER', 'conversation_settings'],
    ['tweet_mode is an enum', () => ({ text: 'x', tweet_mode: 'full' }), 400, 'INVALID_PARAMETER', 'tweet_mode'],
    ['video_cta is an enum', () => ({ media_keys: m['vid']!, video_cta: 'BUY', video_cta_value: 'x' }), 400, 'INVALID_PARAMETER', 'video_cta'],
    ['video_cta needs video_cta_value', () => ({ media_keys: m['vid']!, video_cta: 'VISIT_SITE' }), 400, 'INCLUSIVE_PARAMETERS', 'video_cta_value'],
    ['video_title at most 70', () => ({ media_keys: m['vid']!, video_title: 't'.repeat(71) }), 400, 'INVALID_PARAMETER', 'video_title'],
    ['video_description at most 200', () => ({ media_keys: m['vid']!, video_description: 'd'.repeat(201) }), 400, 'INVALID_PARAMETER', 'video_description'],
    ['video fields without a video', () => ({ media_keys: m['img0']!, video_title: 'Trailer' }), 400, 'INVALID_PARAMETER', 'video_title'],
    ['organic posts as another user', () => ({ as_user_id: GEAR, text: 'x', nullcast: false }), 403, 'ACTION_NOT_ALLOWED', undefined],
    ['unknown parameters', () => ({ text: 'x', status: 'x' }), 400, 'INVALID_PARAMETER', 'status'],
  ])('refuses %s', async (_name, params, status, code, parameter) => {
    const r = await post(params() as Params);
    expectError(r, status, code, parameter);
    expectWire('ErrorBody', r.body);
  });

  it.each([
    ['an AD_MANAGER without TWEET_COMPOSER', () => manager, 403, 'ACTION_NOT_ALLOWED'],
    ['a CREATIVE_MANAGER without TWEET_COMPOSER', () => creative, 403, 'ACTION_NOT_ALLOWED'],
    ['a CAMPAIGN_ANALYST', () => analyst, 403, 'ACTION_NOT_ALLOWED'],
  ])('refuses %s posting as the advertiser', async (_name, who, status, code) => {
    const before = (await list({ tweet_type: 'PUBLISHED', timeline_type: 'ALL', count: 1000 })).body.data.length;
    expectError(await post({ text: 'Not mine to post' }, who()), status, code);
    expect((await list({ tweet_type: 'PUBLISHED', timeline_type: 'ALL', count: 1000 })).body.data.length).toBe(before);
  });

  it('lets other users read the posts', async () => {
    expect((await analyst.get(path('/tweets'), { tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC', count: 1 })).status).toBe(200);
  });
});

describe('GET tweets filters on new posts', () => {
  it('name is a case-insensitive prefix, and replies and mentions need include_mentions_and_replies', async () => {
    const a = await created({ text: 'Spring sale', name: 'Spring A' });
    const b = await created({ text: '@acme_trails thanks!', name: 'spring reply' });
    await created({ text: 'Autumn', name: 'Autumn' });
    expect(ids(await list({ tweet_type: 'PUBLISHED', name: 'SPRING' }))).toEqual([a.id]);
    expect(ids(await list({ tweet_type: 'PUBLISHED', name: 'spring', include_mentions_and_replies: true }))).toEqual([a.id, b.id]);
  });
});

describe('PUT tweets/:tweet_id/name', () => {
  it('names a new or seeded post, and an empty name unsets it', async () => {
    const made = await created({ text: 'To be named' });
    const r = await client.put(path(`/tweets/${made.id}/name`), { name: 'Named' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: made.id, name: 'Named' });
    expectWire('Tweet', r.body.data);
    expect((await list({ tweet_type: 'PUBLISHED', name: 'named' })).body.data.map((d: { id: string }) => d.id)).toEqual([made.id]);
    const seeded = await client.put(path(`/tweets/${SEED_POST_IDS[7]}/name`), { name: 'Evergreen' });
    expect(seeded.body.data).toMatchObject({ name: 'Evergreen', nullcast: false });
    const unset = await client.put(path(`/tweets/${made.id}/name`), { name: '' });
    expect(unset.body.data.name).toBeNull();
  });

  it.each([
    ['name is required', () => SEED_POST_IDS[0]!, {}, 400, 'MISSING_PARAMETER', 'name'],
    ['name at most 80', () => SEED_POST_IDS[0]!, { name: 'n'.repeat(81) }, 400, 'INVALID_PARAMETER', 'name'],
    ['an unknown post', () => '1999999999999999999', { name: 'x' }, 404, 'NOT_FOUND', 'tweet_id'],
    ['a post by a user the account may not promote', () => '1900000000000000003', { name: 'x' }, 404, 'NOT_FOUND', 'tweet_id'],
  ])('refuses %s', async (_name, id, params, status, code, parameter) => {
    expectError(await client.put(path(`/tweets/${id()}/name`), params as Params), status, code, parameter);
  });
});
