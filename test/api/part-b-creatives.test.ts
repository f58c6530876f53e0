/**
 * Part B creatives and posts through the real API client against the emulator: cards (JSON
 * bodies), conversation cards, draft and scheduled posts, posts, the media library (50 a page,
 * keyed by media key, no id filter) and account media, through the generic table operations and
 * the typed ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { apiFor } from '../support/api.js';
import { TestClient } from '../support/client.js';
import { mp4, png } from '../support/media-bytes.js';
import { libraryMedia } from '../support/media-library.js';
import { testClock } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;
let account: string;
let owner: string;
const media: Record<string, string> = {};

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0 });
  ({ client, api } = apiFor(emulator.info));
  account = emulator.info.account_id;
  owner = emulator.info.user_id;
  const fixtures = new TestClient(emulator.info);
  media['wide'] = await libraryMedia(fixtures, account, png(1200, 628), 'image/png');
  media['square'] = await libraryMedia(fixtures, account, png(800, 800), 'image/png');
  media['video'] = await libraryMedia(fixtures, account, mp4(1280, 720), 'video/mp4');
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

const details = { type: 'DETAILS', title: 'Shop the sale', destination: { type: 'WEBSITE', url: 'https://example.com/sale' } };

describe('cards take JSON bodies', () => {
  it('createCard, updateCard, listWhere on card_id, get and delete', async () => {
    const card = await api.createCard(account, { name: 'Summer', components: [{ type: 'MEDIA', media_key: media['wide'] }, details] });
    expect(card).toMatchObject({ name: 'Summer', card_type: 'IMAGE_WEBSITE', card_uri: `card://${card.id}` });
    const renamed = await api.updateCard(account, card.id, { name: 'Summer sale' });
    expect(renamed.name).toBe('Summer sale');
    expect(renamed.components).toEqual(card.components);
    const slides = await api.updateCard(account, card.id, { slides: [[{ type: 'MEDIA', media_key: media['wide'] }, details], [{ type: 'MEDIA', media_key: media['square'] }, details]] });
    expect(slides.card_type).toBe('IMAGE_MULTI_DEST_CAROUSEL_WEBSITE');
    expect((await api.listWhere('card', account, 'card_id', [card.id, card.id])).map((c) => c.id)).toEqual([card.id]);
    expect((await api.get('card', account, card.id)).name).toBe('Summer sale');
    expect((await api.delete('card', account, card.id)).deleted).toBe(true);
    expect(await api.listWhere('card', account, 'card_id', [card.id])).toEqual([]);
  });

  it('lists cards 200 a page', async () => {
    const made = [];
    for (let i = 0; i < 205; i++) made.push(await api.createCard(account, { name: `Bulk ${i}`, components: [{ type: 'MEDIA', media_key: media['square'] }, details] }));
    const before = client.counts.byEndpoint['card.list'] ?? 0;
    const all = await api.list('card', account);
    expect(all.filter((c) => c.name.startsWith('Bulk '))).toHaveLength(205);
    expect((client.counts.byEndpoint['card.list'] ?? 0) - before).toBe(2);
    const some = await api.listWhere('card', account, 'card_id', made.map((c) => c.id));
    expect(some).toHaveLength(205);
  });

  it('refuses what the service refuses, as an ApiError naming the parameter', async () => {
    const error = await api.createCard(account, { name: 'x', components: [{ type: 'MEDIA', media_key: media['wide'] }, details], slides: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('EXCLUSIVE_PARAMETERS');
  });
});

describe('conversation cards at cards/image_conversation and cards/video_conversation', () => {
  it('image: create, listWhere on card_ids, update, get, delete', async () => {
    const card = await api.create('image_conversation_card', account, { name: 'Pick one', first_cta: '#Tents', first_cta_tweet: 'Tents!', second_cta: '#Boots', second_cta_tweet: 'Boots!', thank_you_text: 'Thanks', media_key: media['wide']! });
    expect(card).toMatchObject({ card_type: 'IMAGE_CONVERSATION', first_cta: '#Tents', media_key: media['wide'] });
    expect((await api.listWhere('image_conversation_card', account, 'card_ids', [card.id])).map((c) => c.id)).toEqual([card.id]);
    const changed = await api.update('image_conversation_card', account, card.id, { title: 'Choose', second_cta: null, second_cta_tweet: null });
    expect(changed).toMatchObject({ title: 'Choose', second_cta: null });
    expect((await api.get('image_conversation_card', account, card.id)).title).toBe('Choose');
    expect((await api.delete('image_conversation_card', account, card.id)).deleted).toBe(true);
  });

  it('video: create, list, delete', async () => {
    const card = await api.create('video_conversation_card', account, { name: 'Watch', first_cta: '#Go', first_cta_tweet: 'Go', title: 'Which?', thank_you_text: 'Thanks', media_key: media['video']! });
    expect(card.card_type).toBe('VIDEO_CONVERSATION');
    expect((await api.list('video_conversation_card', account)).map((c) => c.id)).toContain(card.id);
    expect(await api.listWhere('image_conversation_card', account, 'card_ids', [card.id])).toEqual([]);
    expect((await api.delete('video_conversation_card', account, card.id)).deleted).toBe(true);
  });
});

describe('posts', () => {
  it('createPost answers the post with a string id; posts reads by ids; renamePost names it', async () => {
    const post = await api.createPost(account, { as_user_id: owner, text: 'Hello from adsctl', name: 'Launch', media_keys: [media['square']!], nullcast: true });
    expect(typeof post.id).toBe('string');
    expect(post.id).toBe(post.id_str);
    expect(post).toMatchObject({ name: 'Launch', media_keys: [media['square']], nullcast: true });
    const reply = await api.createPost(account, { as_user_id: owner, text: '@someone a reply' });
    const found = await api.posts(account, [post.id, reply.id, '1'], { tweetType: 'PUBLISHED' });
    expect(found.map((p) => p.id).sort()).toEqual([post.id, reply.id].sort());
    expect(found.find((p) => p.id === post.id)?.['full_text']).toBe('Hello from adsctl');
    expect((await api.renamePost(account, post.id, 'Launched')).name).toBe('Launched');
    expect((await api.posts(account, [post.id], { tweetType: 'PUBLISHED', userId: owner }))[0]?.name).toBe('Launched');
    expect(await api.posts(account, [post.id], { tweetType: 'DRAFT' })).toEqual([]);
  });

  it('reads 450 ids 200 a request', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 210; i++) ids.push((await api.createPost(account, { as_user_id: owner, text: `Post ${i}` })).id);
    const before = client.counts.byEndpoint['tweet.list'] ?? 0;
    const found = await api.posts(account, [...ids, ...ids.slice(0, 10)], { tweetType: 'PUBLISHED' });
    expect(found.map((p) => p.id).sort()).toEqual([...ids].sort());
    expect((client.counts.byEndpoint['tweet.list'] ?? 0) - before).toBe(2);
  });

  it('refuses a parameter value that is no form value as a bug', async () => {
    await expect(api.createPost(account, { as_user_id: owner, text: { nested: true } })).rejects.toThrow(TypeError);
  });

  it('draft posts: create, listWhere by id (the list has no id filter), update, get, delete', async () => {
    const draft = await api.create('draft_tweet', account, { as_user_id: owner, text: 'Draft', name: 'D1' });
    const other = await api.create('draft_tweet', account, { as_user_id: owner, text: 'Other draft' });
    expect((await api.listWhere('draft_tweet', account, 'id', [draft.id])).map((d) => d.id)).toEqual([draft.id]);
    expect(await api.listWhere('draft_tweet', account, 'id', [])).toEqual([]);
    const changed = await api.update('draft_tweet', account, draft.id, { text: 'Draft 2', media_keys: [media['wide']!] });
    expect(changed).toMatchObject({ text: 'Draft 2', media_keys: [media['wide']] });
    expect((await api.update('draft_tweet', account, draft.id, { media_keys: [] })).media_keys).toEqual([]);
    expect((await api.get('draft_tweet', account, draft.id)).text).toBe('Draft 2');
    expect((await api.list('draft_tweet', account)).map((d) => d.id)).toEqual(expect.arrayContaining([draft.id, other.id]));
    expect((await api.delete('draft_tweet', account, draft.id)).deleted).toBe(true);
    expect(await api.listWhere('draft_tweet', account, 'id', [draft.id])).toEqual([]);
  });

  it('scheduled posts: create, listWhere by id, update, delete', async () => {
    const scheduled = await api.create('scheduled_tweet', account, { as_user_id: owner, text: 'Later', scheduled_at: '2099-01-01T00:00:00Z' });
    expect(scheduled).toMatchObject({ scheduled_status: 'SCHEDULED', scheduled_at: '2099-01-01T00:00:00Z' });
    expect((await api.listWhere('scheduled_tweet', account, 'id', [scheduled.id])).map((s) => s.id)).toEqual([scheduled.id]);
    expect((await api.update('scheduled_tweet', account, scheduled.id, { scheduled_at: '2099-02-01T00:00:00Z', name: 'Feb' })).name).toBe('Feb');
    expect((await api.delete('scheduled_tweet', account, scheduled.id)).deleted).toBe(true);
  });
});

describe('the media library, keyed by media key', () => {
  it('lists every item 50 a page, and filters by media_type', async () => {
    const fixtures = new TestClient(emulator.info);
    const keys: string[] = [];
    for (let i = 0; i < 52; i++) keys.push(await libraryMedia(fixtures, account, png(100 + i, 100), 'image/png', { name: `Bulk ${i}` }));
    const before = client.counts.byEndpoint['media_library.list'] ?? 0;
    const all = await api.mediaLibrary(account);
    expect(all.map((m) => m.media_key)).toEqual(expect.arrayContaining([...keys, media['video']]));
    expect((client.counts.byEndpoint['media_library.list'] ?? 0) - before).toBe(Math.ceil(all.length / 50));
    const videos = await api.mediaLibrary(account, { media_type: 'VIDEO' });
    expect(videos.map((m) => m.media_key)).toEqual([media['video']]);
    expect((await api.listWhere('media_library', account, 'media_key', [keys[51]!, 'nope'])).map((m) => m.media_key)).toEqual([keys[51]]);
  });

  it('mediaLibraryItem answers an item, or undefined for a key the library does not hold', async () => {
    expect((await api.mediaLibraryItem(account, media['wide']!))?.media_key).toBe(media['wide']);
    expect(await api.mediaLibraryItem(account, '3_1')).toBeUndefined();
  });

  it('updateMediaLibraryItem sets and unsets labels', async () => {
    const item = await api.updateMediaLibraryItem(account, media['video']!, { name: 'Trailer', title: 'Our trailer', description: 'Two minutes' });
    expect(item).toMatchObject({ name: 'Trailer', title: 'Our trailer', description: 'Two minutes' });
    expect((await api.updateMediaLibraryItem(account, media['video']!, { title: null })).title).toBeNull();
  });
});

describe('account media', () => {
  it('lists by creative_types, reads by account_media_ids, deletes', async () => {
    const uploaded = await api.uploadMedia({ data: mp4(1280, 720), mimeType: 'video/mp4', category: 'AMPLIFY_VIDEO' }, { sleep: async () => {} });
    await api.addToMediaLibrary(account, { media_key: uploaded.media_key, name: 'Preroll' });
    const preroll = await api.accountMedia(account, { creative_types: ['PREROLL'] });
    const asset = preroll.find((a) => a.media_key === uploaded.media_key);
    expect(asset).toMatchObject({ creative_type: 'PREROLL' });
    const banners = await api.accountMedia(account, { creative_types: ['BANNER', 'INTERSTITIAL'] });
    expect(banners.every((a) => a.creative_type === 'BANNER' || a.creative_type === 'INTERSTITIAL')).toBe(true);
    expect(banners.map((a) => a.media_key)).not.toContain(uploaded.media_key);
    expect((await api.listWhere('account_media', account, 'account_media_ids', [asset!.id])).map((a) => a.id)).toEqual([asset!.id]);
    expect((await api.delete('account_media', account, asset!.id)).deleted).toBe(true);
    expect((await api.accountMedia(account, { with_deleted: true })).find((a) => a.id === asset!.id)?.deleted).toBe(true);
  });
});
