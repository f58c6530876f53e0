/**
 * Record shapes the spec leaves open, as the service's recorded answers show them
 * (docs/service-behaviour.md, "Record shapes the specification leaves open"): the post object of
 * GET tweets with `tweet_id` and the post fields, `created_at` in the post format; the
 * `media_metadata` of card media components, also inside slides; the media library's
 * `poster_media_key`; `os_type` on device and platform version lookups. Each field is checked
 * for presence, JSON type and format, and every record against schemas/wire.schema.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { mp4, png } from '../support/media-bytes.js';
import { addToLibrary, libraryMedia, uploadMedia } from '../support/media-library.js';
import { expectWire } from '../support/wire.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let owner: string;
const m: Record<string, string> = {};

const path = (suffix: string): string => `/12/accounts/${account}${suffix}`;
const POST_TIME = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/;
const GEAR = '2244994945'; // the account's RETWEETS_ONLY promotable user
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const details = { type: 'DETAILS', title: 'Shop the sale', destination: { type: 'WEBSITE', url: 'https://example.com/summer' } };

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  owner = emulator.info.user_id;
  m['img'] = await libraryMedia(client, account, png(1200, 628), 'image/png');
  m['img2'] = await libraryMedia(client, account, png(800, 800), 'image/png');
  m['vid'] = await libraryMedia(client, account, mp4(1280, 720, { durationMs: 7967 }), 'video/mp4');
  m['poster'] = await uploadMedia(client, png(1280, 720), 'image/png');
});
afterAll(() => emulator.close());

/** One post as GET tweets shows it. */
async function listed(id: string, trimUser = false, userId = owner): Promise<Record<string, any>> {
  const r = await client.get(path('/tweets'), { tweet_type: 'PUBLISHED', timeline_type: 'ALL', include_mentions_and_replies: 'true', tweet_ids: id, trim_user: String(trimUser), user_id: userId });
  expect(r.status, r.text).toBe(200);
  expect(r.body.data).toHaveLength(1);
  expectWire('Tweet', r.body.data[0]);
  return r.body.data[0];
}

async function posted(params: Record<string, string>): Promise<Record<string, any>> {
  const r = await client.post(path('/tweet'), { as_user_id: owner, ...params }, { as: 'form' });
  expect(r.status, r.text).toBe(201);
  expectWire('Tweet', r.body.data);
  return r.body.data;
}

describe('GET accounts/:account_id/tweets: the post object', () => {
  it('has tweet_id, the post fields of a fresh post with their JSON types, and created_at in the post format', async () => {
    const made = await posted({ text: 'Tents for every trail' });
    const post = await listed(made.id, true);
    expect(post['tweet_id']).toBe(made.id);
    expect(typeof post['tweet_id']).toBe('string');
    expect(post).toMatchObject({
      lang: 'en',
      retweet_count: 0,
      favorite_count: 0,
      favorited: false,
      retweeted: false,
      geo: null,
      coordinates: null,
      place: null,
      contributors: null,
      scopes: { followers: false },
      in_reply_to_status_id: null,
      in_reply_to_status_id_str: null,
      in_reply_to_user_id: null,
      in_reply_to_user_id_str: null,
      in_reply_to_screen_name: null,
      entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] },
    });
    expect(post['source']).toBe('<a href="https://ads-api.twitter.com" rel="nofollow">adsctl emulator app</a>');
    expect(post['created_at']).toMatch(POST_TIME);
    expect(post['created_at']).not.toMatch(ISO);
    expect(Date.parse(post['created_at'])).toBe(Date.parse(made.created_at));
  });

  it('writes created_at as the service does: day, month, day of month, UTC time, +0000, year', async () => {
    const before = testNow();
    const post = await listed((await posted({ text: 'What time is it?' })).id);
    const [day, month, date, time, zone, year] = String(post['created_at']).split(' ');
    const at = new Date(Date.parse(post['created_at']));
    expect(day).toBe(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][at.getUTCDay()]);
    expect(month).toBe(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][at.getUTCMonth()]);
    expect(Number(date)).toBe(at.getUTCDate());
    expect(time).toBe(at.toISOString().slice(11, 19));
    expect(zone).toBe('+0000');
    expect(Number(year)).toBe(at.getUTCFullYear());
    // the emulator's clock is the test clock, to the second
    expect(at.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(at.getTime()).toBeLessThanOrEqual(testNow());
  });

  it('finds the entities of the text, with code point indices; a mention of an unknown user is plain text', async () => {
    const text = '🏕 #Summer sale on $ACME gear, ask @acme_trails or @nobody_here: https://example.com/sale';
    const post = await listed((await posted({ text })).id);
    const e = post['entities'];
    expect(e.hashtags).toEqual([{ text: 'Summer', indices: [2, 9] }]);
    expect(e.symbols).toEqual([{ text: 'ACME', indices: [18, 23] }]);
    expect(e.user_mentions).toEqual([{ screen_name: 'acme_trails', name: 'Acme Trails', id: 783214, id_str: '783214', indices: [34, 46] }]);
    expect(e.urls).toEqual([{ url: 'https://example.com/sale', expanded_url: 'https://example.com/sale', display_url: 'example.com/sale', indices: [64, 88] }]);
    expect(text.indexOf('#Summer')).toBe(3); // the emoji is two UTF-16 units, one code point
    expect([...text].slice(2, 9).join('')).toBe('#Summer');
    expect([...text].slice(64, 88).join('')).toBe('https://example.com/sale');
  });

  it('an organic post is seen by followers; contributors stays null when the poster’s id is past what a JSON number holds', async () => {
    const organic = await listed((await posted({ text: 'Out in the open', nullcast: 'false' })).id);
    expect(organic['scopes']).toEqual({ followers: true });
    // the owner (756201191646691328, beyond 2^53) writes as the RETWEETS_ONLY user Acme Gear
    const forGear = await listed((await posted({ text: 'For Acme Gear', as_user_id: GEAR })).id, false, GEAR);
    expect(forGear['user']['id']).toBe(GEAR);
    expect(forGear['contributors']).toBeNull();
  });

  it('the seeded posts have the post fields too, with the ads tool as source and lang und for text without words', async () => {
    const r = await client.get(path('/tweets'), { tweet_type: 'PUBLISHED', timeline_type: 'ORGANIC', count: '1' });
    expect(r.status, r.text).toBe(200);
    const seeded = r.body.data[0];
    expectWire('Tweet', seeded);
    expect(seeded['tweet_id']).toBe(seeded['id']);
    expect(seeded['source']).toBe('<a href="https://ads.twitter.com" rel="nofollow">Twitter for Advertisers</a>');
    expect(seeded['created_at']).toMatch(POST_TIME);
    expect((await listed((await posted({ text: '@acme_trails https://example.com' })).id))['lang']).toBe('und');
  });

  it('POST tweet and PUT tweets/:id/name answer the same post object', async () => {
    const made = await posted({ text: 'Named later' });
    expect(made['tweet_id']).toBe(made.id);
    expect(made['created_at']).toMatch(POST_TIME);
    const renamed = await client.put(path(`/tweets/${made.id}/name`), { name: 'Launch' }, { as: 'form' });
    expect(renamed.status, renamed.text).toBe(200);
    expectWire('Tweet', renamed.body.data);
    expect(renamed.body.data).toMatchObject({ tweet_id: made.id, name: 'Launch', created_at: made.created_at });
  });

  it('other records keep ISO 8601: drafts and scheduled posts', async () => {
    const draft = await client.post(path('/draft_tweets'), { as_user_id: owner, text: 'A draft' }, { as: 'form' });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body.data.created_at).toMatch(ISO);
    expect(draft.body.data).not.toHaveProperty('tweet_id');
  });
});

describe('cards: media_metadata on media components', () => {
  it('MEDIA: keyed by the media key, the image type, URL, width and height as integers', async () => {
    const r = await client.post(path('/cards'), {}, { json: { name: 'Image', components: [{ type: 'MEDIA', media_key: m['img'] }, details] } });
    expect(r.status, r.text).toBe(201);
    expectWire('Card', r.body.data);
    const comp = r.body.data.components[0];
    expect(Object.keys(comp.media_metadata)).toEqual([m['img']]);
    expect(comp.media_metadata[m['img']!]).toEqual({ type: 'IMAGE', url: `https://media.example.invalid/${m['img']}.png`, width: 1200, height: 628 });
    expect(r.body.data.components[1]).not.toHaveProperty('media_metadata');
    const again = await client.get(path(`/cards/${r.body.data.id}`));
    expect(again.body.data.components[0].media_metadata).toEqual(comp.media_metadata);
  });

  it('a video adds video_duration in milliseconds and video_aspect_ratio', async () => {
    const r = await client.post(path('/cards'), {}, { json: { name: 'Video', components: [{ type: 'MEDIA', media_key: m['vid'] }, details] } });
    expect(r.status, r.text).toBe(201);
    expectWire('Card', r.body.data);
    const meta = r.body.data.components[0].media_metadata[m['vid']!];
    expect(meta).toEqual({ type: 'VIDEO', url: `https://media.example.invalid/${m['vid']}.mp4`, width: 1280, height: 720, video_duration: 7967, video_aspect_ratio: '16:9' });
    expect(Number.isInteger(meta.video_duration)).toBe(true);
  });

  it('SWIPEABLE_MEDIA: one entry per media key; slides: each MEDIA of each slide; lists and cards/all show it', async () => {
    const swipe = await client.post(path('/cards'), {}, { json: { name: 'Carousel', components: [{ type: 'SWIPEABLE_MEDIA', media_keys: [m['img'], m['vid']] }, details] } });
    expect(swipe.status, swipe.text).toBe(201);
    expect(Object.keys(swipe.body.data.components[0].media_metadata).sort()).toEqual([m['img'], m['vid']].sort());
    expect(swipe.body.data.components[0].media_metadata[m['vid']!].type).toBe('VIDEO');
    const slides = await client.post(path('/cards'), {}, { json: { name: 'Slides', slides: [[{ type: 'MEDIA', media_key: m['img'] }, details], [{ type: 'MEDIA', media_key: m['img2'] }, details]] } });
    expect(slides.status, slides.text).toBe(201);
    expect(slides.body.data.slides.map((s: any[]) => Object.keys(s[0].media_metadata))).toEqual([[m['img']], [m['img2']]]);
    expect(slides.body.data.slides[1][0].media_metadata[m['img2']!]).toMatchObject({ type: 'IMAGE', width: 800, height: 800 });
    const listedCards = await client.get(path('/cards'));
    expectWire('Card', ...listedCards.body.data);
    const all = await client.get(path('/cards/all'), { card_uris: `${swipe.body.data.card_uri},${slides.body.data.card_uri}` });
    expect(all.body.data.map((c: any) => c.components?.[0]?.media_metadata ?? c.slides[0][0].media_metadata)).toEqual([swipe.body.data.components[0].media_metadata, slides.body.data.slides[0][0].media_metadata]);
  });

  it('PUT takes the card back as shown, media_metadata and all, and a change of media gets new metadata', async () => {
    const card = (await client.post(path('/cards'), {}, { json: { name: 'Echo', components: [{ type: 'MEDIA', media_key: m['img'] }, details] } })).body.data;
    const echoed = await client.put(path(`/cards/${card.id}`), {}, { json: { name: 'Echoed', components: card.components } });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body.data.components).toEqual(card.components);
    const moved = await client.put(path(`/cards/${card.id}`), {}, { json: { components: [{ type: 'MEDIA', media_key: m['img2'] }, details] } });
    expect(moved.status, moved.text).toBe(200);
    expect(Object.keys(moved.body.data.components[0].media_metadata)).toEqual([m['img2']]);
  });
});

describe('media library: poster_media_key', () => {
  it('a video shows its first frame’s key (3_ and the video id) until a poster is set, then the poster’s; null for images', async () => {
    const video = (await client.get(path(`/media_library/${m['vid']}`))).body.data;
    expectWire('MediaLibraryItem', video);
    expect(video.poster_media_key).toBe(m['vid']!.replace(/^13_/, '3_'));
    expect(typeof video.poster_media_key).toBe('string');
    const image = (await client.get(path(`/media_library/${m['img']}`))).body.data;
    expect(image).toHaveProperty('poster_media_key', null);
    const set = await client.put(path(`/media_library/${m['vid']}`), { poster_media_key: m['poster']! }, { as: 'form' });
    expect(set.status, set.text).toBe(200);
    expectWire('MediaLibraryItem', set.body.data);
    expect(set.body.data).toMatchObject({ poster_media_key: m['poster'], poster_media_url: `https://media.example.invalid/${m['poster']}.png` });
    const listed = await client.get(path('/media_library'), { media_type: 'VIDEO' });
    expect(listed.body.data.find((i: any) => i.media_key === m['vid']).poster_media_key).toBe(m['poster']);
    const unset = await client.put(path(`/media_library/${m['vid']}`), { poster_media_key: '' }, { as: 'form' });
    expect(unset.body.data.poster_media_key).toBe(m['vid']!.replace(/^13_/, '3_'));
  });

  it('PUT takes the item back as shown, the first frame’s poster_media_key included', async () => {
    const key = await uploadMedia(client, mp4(640, 360), 'video/mp4');
    const item = await addToLibrary(client, account, key, { name: 'Clip' });
    expect(item.poster_media_key).toBe(key.replace(/^13_/, '3_'));
    const r = await client.put(path(`/media_library/${key}`), { name: 'Clip 2', poster_media_key: item.poster_media_key }, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Clip 2', poster_media_key: item.poster_media_key, poster_media_url: item.poster_media_url });
  });
});

describe('targeting option lookups: devices and platform versions carry os_type', () => {
  it.each([['devices'], ['platform_versions']])('%s: os_type (iOS or Android), no platform field', async (lookup) => {
    const r = await client.get(`/12/targeting_criteria/${lookup}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const item of r.body.data) {
      expect(['iOS', 'Android']).toContain(item.os_type);
      expect(item).not.toHaveProperty('platform');
    }
  });
});
