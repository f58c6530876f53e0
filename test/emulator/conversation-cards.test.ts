import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type Reply, type TestClient } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { gif, jpeg, mp4, png } from '../support/media-bytes.js';
import { libraryMedia, uploadMedia } from '../support/media-library.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
const m: Record<string, string> = {};

const path = (format: 'image' | 'video', suffix = ''): string => `/12/accounts/${account}/cards/${format}_conversation${suffix}`;
const post = (format: 'image' | 'video', params: Params): Promise<Reply> => client.post(path(format), params, { as: 'form' });
const DEF = { image: 'ImageConversationCard', video: 'VideoConversationCard' } as const;

/** The smallest valid image card, with a title. */
const imageCard = (extra: Params = {}): Params => ({ name: 'Tent poll', first_cta: '#Tents', first_cta_tweet: 'I want a tent', media_key: m['wide']!, thank_you_text: 'Thanks!', title: 'Pick one', ...extra });
const videoCard = (extra: Params = {}): Params => ({ ...imageCard({ media_key: m['video']! }), ...extra });
const without = (params: Params, ...names: string[]): Params => Object.fromEntries(Object.entries(params).filter(([k]) => !names.includes(k)));

async function create(format: 'image' | 'video', params: Params): Promise<any> {
  const r = await post(format, params);
  expect(r.status, r.text).toBe(201);
  return r.body.data;
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  const add = (bytes: Buffer, type: string): Promise<string> => libraryMedia(client, account, bytes, type);
  m['wide'] = await add(png(1200, 628), 'image/png');
  m['narrow'] = await add(png(764, 400), 'image/png');
  m['four_three'] = await add(jpeg(1200, 900), 'image/jpeg');
  m['unlock'] = await add(png(1000, 400), 'image/png');
  m['unlock_small'] = await add(png(500, 200), 'image/png');
  m['gif'] = await add(gif(1200, 628), 'image/gif');
  m['video'] = await add(mp4(1280, 720), 'video/mp4');
  m['video43'] = await add(mp4(640, 480), 'video/mp4');
  m['outside'] = await uploadMedia(client, png(1200, 628), 'image/png');
});
afterAll(() => emulator.close());

describe('POST image and video conversation cards', () => {
  const rows: Array<[string, 'image' | 'video', () => Params, Record<string, unknown>]> = [
    ['an image card with a title', 'image', () => imageCard(), { card_type: 'IMAGE_CONVERSATION', title: 'Pick one', second_cta: null, unlocked_image_url: null }],
    ['an image card with a second CTA instead of a title', 'image', () => without(imageCard({ second_cta: '#Tarps', second_cta_tweet: 'Tarps!' }), 'title'), { title: null, second_cta: '#Tarps' }],
    ['four CTAs, a thank-you URL and an unlocked image', 'image', () => imageCard({ second_cta: '#A', second_cta_tweet: 'a', third_cta: '#B', third_cta_tweet: 'b', fourth_cta: '#C', fourth_cta_tweet: 'c', thank_you_url: 'https://example.com/thanks', unlocked_image_media_key: m['unlock']! }), { fourth_cta: '#C', thank_you_url: 'https://example.com/thanks' }],
    ['a hashtag of 20 characters after the #, in any script', 'image', () => imageCard({ first_cta: `#Zelte${'ä'.repeat(15)}` }), {}],
    ['a video card (poster: first frame)', 'video', () => videoCard(), { card_type: 'VIDEO_CONVERSATION', unlocked_video_media_key: null }],
    ['a video card with a poster and an unlocked video', 'video', () => videoCard({ poster_media_key: m['wide']!, unlocked_video_media_key: m['video']! }), {}],
  ];
  it.each(rows)('%s', async (_name, format, params, expected) => {
    const sent = params();
    const card = await create(format, sent);
    const { unlocked_image_media_key: unlocked, poster_media_key: poster, ...shown } = sent;
    expect(card).toMatchObject({ ...shown, ...expected, card_uri: `card://${card.id}`, deleted: false });
    expect(card.media_url).toMatch(/^https:\/\//);
    expect('unlocked_image_media_key' in card).toBe(false);
    if (unlocked !== undefined) expect(card.unlocked_image_url).toContain(String(unlocked));
    if (format === 'video') expect(card.poster_media_url).toContain(poster === undefined ? `${m['video']}/first-frame` : String(poster));
    expect(card.unlocked_video_media_key ?? null).toBe(sent['unlocked_video_media_key'] ?? null);
    expectWire(DEF[format], card);
    expect((await client.get(path(format, `/${card.id}`))).body.data).toEqual(card);
  });

  const refusals: Array<[string, 'image' | 'video', () => Params, number, string, string]> = [
    ['first_cta is required', 'image', () => without(imageCard(), 'first_cta'), 400, 'MISSING_PARAMETER', 'first_cta'],
    ['first_cta_tweet is required', 'image', () => without(imageCard(), 'first_cta_tweet'), 400, 'MISSING_PARAMETER', 'first_cta_tweet'],
    ['media_key is required', 'image', () => without(imageCard(), 'media_key'), 400, 'MISSING_PARAMETER', 'media_key'],
    ['name is required', 'image', () => without(imageCard(), 'name'), 400, 'MISSING_PARAMETER', 'name'],
    ['thank_you_text is required', 'image', () => without(imageCard(), 'thank_you_text'), 400, 'MISSING_PARAMETER', 'thank_you_text'],
    ['a CTA is a hashtag', 'image', () => imageCard({ first_cta: 'Tents' }), 400, 'INVALID_PARAMETER', 'first_cta'],
    ['a CTA hashtag is one word', 'image', () => imageCard({ first_cta: '#two words' }), 400, 'INVALID_PARAMETER', 'first_cta'],
    ['a CTA has at most 20 characters after the #', 'image', () => imageCard({ first_cta: `#${'a'.repeat(21)}` }), 400, 'INVALID_PARAMETER', 'first_cta'],
    ['second_cta has at most 20 characters', 'image', () => imageCard({ second_cta: `#${'b'.repeat(21)}`, second_cta_tweet: 'b' }), 400, 'INVALID_PARAMETER', 'second_cta'],
    ['thank_you_text has at most 23 characters', 'image', () => imageCard({ thank_you_text: 't'.repeat(24) }), 400, 'INVALID_PARAMETER', 'thank_you_text'],
    ['title has at most 23 characters', 'image', () => imageCard({ title: 't'.repeat(24) }), 400, 'INVALID_PARAMETER', 'title'],
    ['name has at most 80 characters', 'image', () => imageCard({ name: 'n'.repeat(81) }), 400, 'INVALID_PARAMETER', 'name'],
    ['title or second_cta is required', 'image', () => without(imageCard(), 'title'), 400, 'MISSING_PARAMETER', 'title'],
    ['second_cta needs second_cta_tweet', 'image', () => imageCard({ second_cta: '#B' }), 400, 'MISSING_PARAMETER', 'second_cta_tweet'],
    ['third_cta needs third_cta_tweet', 'image', () => imageCard({ third_cta: '#C' }), 400, 'MISSING_PARAMETER', 'third_cta_tweet'],
    ['fourth_cta needs fourth_cta_tweet', 'video', () => videoCard({ fourth_cta: '#D' }), 400, 'MISSING_PARAMETER', 'fourth_cta_tweet'],
    ['an image of the wrong aspect ratio', 'image', () => imageCard({ media_key: m['four_three']! }), 400, 'INVALID_MEDIA', 'media_key'],
    ['an image under 800 px wide', 'image', () => imageCard({ media_key: m['narrow']! }), 400, 'INVALID_MEDIA', 'media_key'],
    ['a video on an image card', 'image', () => imageCard({ media_key: m['video']! }), 400, 'INVALID_MEDIA', 'media_key'],
    ['a GIF on an image card', 'image', () => imageCard({ media_key: m['gif']! }), 400, 'INVALID_MEDIA', 'media_key'],
    ['media outside the media library', 'image', () => imageCard({ media_key: m['outside']! }), 404, 'MEDIA_NOT_FOUND', 'media_key'],
    ['an unlocked image that is not 5:2', 'image', () => imageCard({ unlocked_image_media_key: m['wide']! }), 400, 'INVALID_MEDIA', 'unlocked_image_media_key'],
    ['an unlocked image under 800 px wide', 'image', () => imageCard({ unlocked_image_media_key: m['unlock_small']! }), 400, 'INVALID_MEDIA', 'unlocked_image_media_key'],
    ['poster_media_key on an image card', 'image', () => imageCard({ poster_media_key: m['wide']! }), 400, 'INVALID_PARAMETER', 'poster_media_key'],
    ['a video that is not 16:9', 'video', () => videoCard({ media_key: m['video43']! }), 400, 'INVALID_MEDIA', 'media_key'],
    ['an image on a video card', 'video', () => videoCard({ media_key: m['wide']! }), 400, 'INVALID_MEDIA', 'media_key'],
    ['a poster that is a video', 'video', () => videoCard({ poster_media_key: m['video']! }), 400, 'INVALID_MEDIA', 'poster_media_key'],
    ['an unlocked video that is an image', 'video', () => videoCard({ unlocked_video_media_key: m['wide']! }), 400, 'INVALID_MEDIA', 'unlocked_video_media_key'],
    ['unknown parameters', 'video', () => videoCard({ card_type: 'VIDEO_CONVERSATION' }), 400, 'INVALID_PARAMETER', 'card_type'],
  ];
  it.each(refusals)('refuses %s', async (_name, format, params, status, code, parameter) => {
    const r = await post(format, params());
    expectError(r, status, code, parameter);
    expectWire('ErrorBody', r.body);
  });
});

describe('PUT and DELETE conversation cards', () => {
  it('changes fields, unsets optional ones, and ignores read-only fields sent back unchanged', async () => {
    const card = await create('image', imageCard({ second_cta: '#B', second_cta_tweet: 'b', unlocked_image_media_key: m['unlock']! }));
    const back: Params = {};
    for (const [k, v] of Object.entries(card)) if (v !== null) back[k] = v as string | boolean;
    const r = await client.put(path('image', `/${card.id}`), { ...back, name: 'Renamed', title: '' }, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Renamed', title: null, second_cta: '#B', created_at: card.created_at });
    const unlocked = await client.put(path('image', `/${card.id}`), { unlocked_image_media_key: '' });
    expect(unlocked.body.data.unlocked_image_url).toBeNull();
    expectWire('ImageConversationCard', r.body.data, unlocked.body.data);
  });

  it('a video card keeps its poster until told otherwise', async () => {
    const card = await create('video', videoCard({ poster_media_key: m['wide']! }));
    const renamed = await client.put(path('video', `/${card.id}`), { name: 'New name' });
    expect(renamed.body.data.poster_media_url).toBe(card.poster_media_url);
    const firstFrame = await client.put(path('video', `/${card.id}`), { poster_media_key: '' });
    expect(firstFrame.body.data.poster_media_url).toContain(`${m['video']}/first-frame`);
  });

  const refusals: Array<[string, () => Params, number, string, string]> = [
    ['unsetting the title of a card without second_cta', () => ({ title: '' }), 400, 'MISSING_PARAMETER', 'title'],
    ['a third_cta without its post text', () => ({ third_cta: '#C' }), 400, 'MISSING_PARAMETER', 'third_cta_tweet'],
    ['unsetting first_cta', () => ({ first_cta: '' }), 400, 'INVALID_PARAMETER', 'first_cta'],
    ['a changed read-only field', () => ({ card_type: 'VIDEO_CONVERSATION' }), 400, 'INVALID_PARAMETER', 'card_type'],
    ['media of the wrong aspect ratio', () => ({ media_key: m['four_three']! }), 400, 'INVALID_MEDIA', 'media_key'],
  ];
  it.each(refusals)('refuses %s and keeps the card', async (_name, params, status, code, parameter) => {
    const card = await create('image', imageCard());
    expectError(await client.put(path('image', `/${card.id}`), params()), status, code, parameter);
    expect((await client.get(path('image', `/${card.id}`))).body.data).toEqual(card);
  });

  it('DELETE hides the card; a second DELETE is 404; an image card is not at the video path', async () => {
    const card = await create('image', imageCard());
    expectError(await client.get(path('video', `/${card.id}`)), 404, 'NOT_FOUND', 'card_id');
    expect((await client.delete(path('image', `/${card.id}`))).body.data.deleted).toBe(true);
    expectError(await client.get(path('image', `/${card.id}`)), 404, 'NOT_FOUND', 'card_id');
    expect((await client.get(path('image', `/${card.id}`), { with_deleted: true })).body.data.deleted).toBe(true);
    expectError(await client.delete(path('image', `/${card.id}`)), 404, 'NOT_FOUND');
  });
});

describe('GET conversation cards, and as legacy cards', () => {
  const ids: string[] = [];
  let video: string;
  beforeAll(async () => {
    for (const name of ['Poll alpha', 'poll beta', 'Survey']) ids.push((await create('image', imageCard({ name }))).id);
    video = (await create('video', videoCard({ name: 'Poll video' }))).id;
  });
  const list = (format: 'image' | 'video', params: Params = {}) => client.get(path(format), { count: 1000, ...params });
  const idsOf = (r: Reply): string[] => r.body.data.map((c: { id: string }) => c.id);

  it.each([
    ['card_ids', () => ({ card_ids: `${ids[2]},${ids[0]},${video}` }), () => [ids[0]!, ids[2]!]],
    ['q (name prefix, case-insensitive)', () => ({ q: 'POLL' }), () => [ids[0]!, ids[1]!]],
    ['sort_by name-asc', () => ({ card_ids: ids.join(','), sort_by: 'name-asc' }), () => [ids[0]!, ids[1]!, ids[2]!]],
  ])('filters image cards by %s', async (_name, params, expected) => {
    const r = await list('image', params());
    expect(r.status, r.text).toBe(200);
    expect(idsOf(r)).toEqual(expected());
    expectWire('ImageConversationCard', ...r.body.data);
  });

  it('pages, counts, and keeps image and video cards apart', async () => {
    const p1 = await client.get(path('image'), { q: 'poll', count: 1 });
    const p2 = await client.get(path('image'), { q: 'poll', count: 1, cursor: p1.body.next_cursor });
    expect([...idsOf(p1), ...idsOf(p2)]).toEqual([ids[0], ids[1]]);
    expect((await client.get(path('image'), { q: 'poll', with_total_count: true })).body.total_count).toBe(2);
    expect(idsOf(await list('video', { q: 'poll' }))).toEqual([video]);
    expectError(await client.get(path('image'), { count: 1001 }), 400, 'INVALID_PARAMETER', 'count');
    expectError(await client.get(path('image'), { q: 'q'.repeat(81) }), 400, 'INVALID_PARAMETER', 'q');
  });

  it('GET cards lists them only with include_legacy_cards; cards/all finds them by URI', async () => {
    const cards = `/12/accounts/${account}/cards`;
    expect(idsOf(await client.get(cards, { q: 'poll' }))).toEqual([]);
    expect(idsOf(await client.get(cards, { q: 'poll', include_legacy_cards: true }))).toEqual([ids[0], ids[1], video]);
    expect(idsOf(await client.get(cards, { q: 'poll', include_legacy_cards: true, card_types: 'VIDEO_CONVERSATION' }))).toEqual([video]);
    expect(idsOf(await client.get(`${cards}/all`, { card_uris: `card://${video},card://${ids[2]}` }))).toEqual([ids[2], video]);
    expect((await client.get(`${cards}/all/${video}`)).body.data.card_type).toBe('VIDEO_CONVERSATION');
  });
});
