import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Reply, type TestClient } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { gif, jpeg, mp4, png } from '../support/media-bytes.js';
import { libraryMedia, uploadMedia } from '../support/media-library.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
const m: Record<string, string> = {};

type Body = Record<string, unknown>;

const cards = (suffix = '', acct = account): string => `/12/accounts/${acct}/cards${suffix}`;
const postCard = (body: unknown, acct = account): Promise<Reply> => client.post(cards('', acct), {}, { json: body });

const media = (key: string): Body => ({ type: 'MEDIA', media_key: key });
const swipe = (...keys: string[]): Body => ({ type: 'SWIPEABLE_MEDIA', media_keys: keys });
const details = (url = 'https://example.com/summer', title = 'Shop the sale'): Body => ({ type: 'DETAILS', title, destination: { type: 'WEBSITE', url } });
const button = (destination: Body = { googleplay_app_id: 'com.acme.outdoor' }, value = 'INSTALL'): Body => ({ type: 'BUTTON', label: { type: 'ENUM', value }, destination: { type: 'APP', country_code: 'US', ...destination } });

async function created(body: Body, acct = account): Promise<any> {
  const r = await postCard(body, acct);
  expect(r.status, r.text).toBe(201);
  return r.body.data;
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  m['img'] = await libraryMedia(client, account, png(1200, 628), 'image/png');
  m['img2'] = await libraryMedia(client, account, jpeg(800, 800), 'image/jpeg');
  m['vid'] = await libraryMedia(client, account, mp4(1280, 720), 'video/mp4');
  m['vid2'] = await libraryMedia(client, account, mp4(1920, 1080), 'video/mp4');
  m['gif'] = await libraryMedia(client, account, gif(300, 300), 'image/gif');
  m['uploaded'] = await uploadMedia(client, png(500, 500), 'image/png');
  m['gone'] = await libraryMedia(client, account, png(500, 500), 'image/png');
  await client.delete(`/12/accounts/${account}/media_library/${m['gone']}`);
});
afterAll(() => emulator.close());

describe('POST cards derives card_type from the components', () => {
  const k = (name: string): string => m[name]!;
  const rows: Array<[string, () => Body, string]> = [
    ['IMAGE_WEBSITE', () => ({ components: [media(k('img')), details()] }), 'IMAGE_WEBSITE'],
    ['VIDEO_WEBSITE', () => ({ components: [media(k('vid')), details()] }), 'VIDEO_WEBSITE'],
    ['IMAGE_APP', () => ({ components: [media(k('img')), button()] }), 'IMAGE_APP'],
    ['VIDEO_APP, both stores and deep links', () => ({ components: [media(k('vid')), button({ googleplay_app_id: 'com.acme', googleplay_deep_link: 'acme://a', ios_app_store_identifier: '333903271', ios_deep_link: 'acme://b' }, 'OPEN')] }), 'VIDEO_APP'],
    ['IMAGE_CAROUSEL_WEBSITE', () => ({ components: [swipe(k('img'), k('img2')), details()] }), 'IMAGE_CAROUSEL_WEBSITE'],
    ['IMAGE_CAROUSEL_APP', () => ({ components: [swipe(k('img'), k('img2'), k('img')), button({ ios_app_store_identifier: '333903271' }, 'SHOP')] }), 'IMAGE_CAROUSEL_APP'],
    ['VIDEO_CAROUSEL_WEBSITE', () => ({ components: [swipe(k('vid'), k('vid2')), details()] }), 'VIDEO_CAROUSEL_WEBSITE'],
    ['VIDEO_CAROUSEL_APP', () => ({ components: [swipe(k('vid'), k('vid2')), button()] }), 'VIDEO_CAROUSEL_APP'],
    ['MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE', () => ({ components: [swipe(k('img'), k('vid')), details()] }), 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE'],
    ['MIXED_MEDIA_SINGLE_DEST_CAROUSEL_APP', () => ({ components: [swipe(k('vid'), k('img'), k('img2'), k('vid2'), k('img'), k('vid')), button()] }), 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_APP'],
    ['IMAGE_MULTI_DEST_CAROUSEL_WEBSITE', () => ({ slides: [[media(k('img')), details('https://example.com/a')], [media(k('img2')), details('https://example.com/b')]] }), 'IMAGE_MULTI_DEST_CAROUSEL_WEBSITE'],
    ['VIDEO_MULTI_DEST_CAROUSEL_WEBSITE', () => ({ slides: [[media(k('vid')), details()], [media(k('vid2')), details()]] }), 'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE'],
    ['MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE', () => ({ slides: [[media(k('vid')), details()], [media(k('img')), details()], [details(), media(k('img2'))]] }), 'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE'],
    ['the destination first (order is kept)', () => ({ components: [button(), media(k('img'))] }), 'IMAGE_APP'],
  ];
  it.each(rows)('%s', async (_name, parts, cardType) => {
    const body = { name: `Card ${cardType}`, ...parts() };
    const r = await postCard(body);
    expect(r.status, r.text).toBe(201);
    expect(r.body.request.params).toEqual({ account_id: account });
    const card = r.body.data;
    expect(card).toMatchObject({ ...body, card_type: cardType, card_uri: `card://${card.id}`, deleted: false });
    expect(card.id).toMatch(/^\d{19}$/);
    expectWire('Card', card);
    expect((await client.get(cards(`/${card.id}`))).body.data).toEqual(card);
  });
});

describe('POST cards refusals', () => {
  const k = (name: string): string => m[name]!;
  const ok = (): Body[] => [media(k('img')), details()];
  const rows: Array<[string, () => Body, number, string, string]> = [
    ['name is required', () => ({ components: ok() }), 400, 'MISSING_PARAMETER', 'name'],
    ['name is at most 80 characters', () => ({ name: 'n'.repeat(81), components: ok() }), 400, 'INVALID_PARAMETER', 'name'],
    ['components or slides is required', () => ({ name: 'x' }), 400, 'MISSING_PARAMETER', 'components'],
    ['components and slides cannot be combined', () => ({ name: 'x', components: ok(), slides: [ok(), ok()] }), 400, 'EXCLUSIVE_PARAMETERS', 'components'],
    ['unknown fields', () => ({ name: 'x', components: ok(), card_type: 'IMAGE_WEBSITE' }), 400, 'INVALID_PARAMETER', 'card_type'],
    ['an unknown component type', () => ({ name: 'x', components: [media(k('img')), { type: 'POLL' }] }), 400, 'INVALID_PARAMETER', 'type'],
    ['an unknown field in a component', () => ({ name: 'x', components: [{ ...media(k('img')), media_keys: [] }, details()] }), 400, 'INVALID_PARAMETER', 'media_keys'],
    ['MEDIA needs media_key', () => ({ name: 'x', components: [{ type: 'MEDIA' }, details()] }), 400, 'MISSING_PARAMETER', 'media_key'],
    ['media outside the media library', () => ({ name: 'x', components: [media(k('uploaded')), details()] }), 404, 'MEDIA_NOT_FOUND', 'media_key'],
    ['media deleted from the media library', () => ({ name: 'x', components: [media(k('gone')), details()] }), 404, 'MEDIA_NOT_FOUND', 'media_key'],
    ['a GIF', () => ({ name: 'x', components: [media(k('gif')), details()] }), 400, 'INVALID_MEDIA', 'media_key'],
    ['SWIPEABLE_MEDIA with one key', () => ({ name: 'x', components: [swipe(k('img')), details()] }), 400, 'INVALID_PARAMETER', 'media_keys'],
    ['SWIPEABLE_MEDIA with seven keys', () => ({ name: 'x', components: [swipe(...Array.from({ length: 7 }, () => k('img'))), details()] }), 400, 'INVALID_PARAMETER', 'media_keys'],
    ['DETAILS needs title', () => ({ name: 'x', components: [media(k('img')), { type: 'DETAILS', destination: { type: 'WEBSITE', url: 'https://example.com' } }] }), 400, 'MISSING_PARAMETER', 'title'],
    ['DETAILS needs a WEBSITE destination', () => ({ name: 'x', components: [media(k('img')), { type: 'DETAILS', title: 't', destination: { type: 'APP', url: 'https://example.com' } }] }), 400, 'INVALID_PARAMETER', 'type'],
    ['a WEBSITE destination needs url', () => ({ name: 'x', components: [media(k('img')), { type: 'DETAILS', title: 't', destination: { type: 'WEBSITE' } }] }), 400, 'MISSING_PARAMETER', 'url'],
    ['url must be http or https', () => ({ name: 'x', components: [media(k('img')), details('example.com')] }), 400, 'INVALID_PARAMETER', 'url'],
    ['BUTTON needs an APP destination', () => ({ name: 'x', components: [media(k('img')), { type: 'BUTTON', label: { type: 'ENUM', value: 'SHOP' }, destination: { type: 'WEBSITE', url: 'https://example.com' } }] }), 400, 'INVALID_PARAMETER', 'type'],
    ['BUTTON needs label', () => ({ name: 'x', components: [media(k('img')), { type: 'BUTTON', destination: { type: 'APP', country_code: 'US', googleplay_app_id: 'a' } }] }), 400, 'MISSING_PARAMETER', 'label'],
    ['label type is ENUM', () => ({ name: 'x', components: [media(k('img')), { ...button(), label: { type: 'TEXT', value: 'SHOP' } }] }), 400, 'INVALID_PARAMETER', 'type'],
    ['label value is one of the enum', () => ({ name: 'x', components: [media(k('img')), button({ googleplay_app_id: 'a' }, 'BUY')] }), 400, 'INVALID_PARAMETER', 'value'],
    ['an APP destination needs country_code', () => ({ name: 'x', components: [media(k('img')), { ...button(), destination: { type: 'APP', googleplay_app_id: 'a' } }] }), 400, 'MISSING_PARAMETER', 'country_code'],
    ['country_code is ISO 3166-1 alpha-2', () => ({ name: 'x', components: [media(k('img')), button({ googleplay_app_id: 'a', country_code: 'USA' })] }), 400, 'INVALID_PARAMETER', 'country_code'],
    ['an APP destination needs an app id', () => ({ name: 'x', components: [media(k('img')), button({})] }), 400, 'MISSING_PARAMETER', 'googleplay_app_id'],
    ['googleplay_deep_link only with googleplay_app_id', () => ({ name: 'x', components: [media(k('img')), button({ ios_app_store_identifier: '1', googleplay_deep_link: 'a://' })] }), 400, 'INCLUSIVE_PARAMETERS', 'googleplay_deep_link'],
    ['ios_deep_link only with ios_app_store_identifier', () => ({ name: 'x', components: [media(k('img')), button({ googleplay_app_id: 'a', ios_deep_link: 'a://' })] }), 400, 'INCLUSIVE_PARAMETERS', 'ios_deep_link'],
    ['two media components', () => ({ name: 'x', components: [media(k('img')), media(k('img2'))] }), 400, 'UNKNOWN_CARD_TYPE', 'components'],
    ['a media component alone', () => ({ name: 'x', components: [media(k('img'))] }), 400, 'UNKNOWN_CARD_TYPE', 'components'],
    ['an empty components array', () => ({ name: 'x', components: [] }), 400, 'INVALID_PARAMETER', 'components'],
    ['one slide', () => ({ name: 'x', slides: [ok()] }), 400, 'INVALID_PARAMETER', 'slides'],
    ['slides with an APP destination', () => ({ name: 'x', slides: [ok(), [media(k('img')), button()]] }), 400, 'UNKNOWN_CARD_TYPE', 'slides'],
    ['slides with SWIPEABLE_MEDIA', () => ({ name: 'x', slides: [ok(), [swipe(k('img'), k('img2')), details()]] }), 400, 'UNKNOWN_CARD_TYPE', 'slides'],
  ];
  it.each(rows)('%s', async (_name, body, status, code, parameter) => {
    const before = (await client.get(cards(), { count: 200, with_deleted: true })).body.data.length;
    const r = await postCard(body());
    expectError(r, status, code, parameter);
    expectWire('ErrorBody', r.body);
    expect((await client.get(cards(), { count: 200, with_deleted: true })).body.data.length).toBe(before);
  });

  it('takes JSON bodies only', async () => {
    expectError(await client.post(cards(), { name: 'x' }, { as: 'form' }), 400, 'INVALID_PARAMETER', 'content-type');
  });

  it('reports every shape problem at once', async () => {
    const r = await postCard({ name: 'n'.repeat(81), components: [{ type: 'MEDIA' }, { type: 'DETAILS', destination: { type: 'WEBSITE' } }] });
    expect(r.body.errors.map((e: { parameter: string }) => e.parameter).sort()).toEqual(['media_key', 'name', 'title', 'url']);
  });
});

describe('PUT and DELETE cards/:card_id', () => {
  it('replaces what it is given, derives card_type again, and ignores read-only fields sent back unchanged', async () => {
    const card = await created({ name: 'Before', components: [media(m['img']!), details()] });
    const renamed = await client.put(cards(`/${card.id}`), {}, { json: { ...card, name: 'After' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'After', components: card.components, card_type: 'IMAGE_WEBSITE', created_at: card.created_at });
    const toSlides = await client.put(cards(`/${card.id}`), {}, { json: { slides: [[media(m['vid']!), details()], [media(m['vid2']!), details()]] } });
    expect(toSlides.body.data).toMatchObject({ name: 'After', card_type: 'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE' });
    expect(toSlides.body.data.components).toBeUndefined();
    const toApp = await client.put(cards(`/${card.id}`), {}, { json: { components: [media(m['vid']!), button()] } });
    expect(toApp.body.data.card_type).toBe('VIDEO_APP');
    expect(toApp.body.data.slides).toBeUndefined();
    expectWire('Card', renamed.body.data, toSlides.body.data, toApp.body.data);
    expect((await client.get(cards(`/${card.id}`))).body.data).toEqual(toApp.body.data);
  });

  it.each([
    ['a changed read-only field', { card_type: 'VIDEO_APP' }, 400, 'INVALID_PARAMETER', 'card_type'],
    ['components and slides together', { components: [], slides: [] }, 400, 'EXCLUSIVE_PARAMETERS', 'components'],
    ['an empty name', { name: '' }, 400, 'MISSING_PARAMETER', 'name'],
    ['media outside the library', { components: [media('3_42'), details()] }, 404, 'MEDIA_NOT_FOUND', 'media_key'],
  ])('refuses %s', async (_name, body, status, code, parameter) => {
    const card = await created({ name: 'Kept', components: [media(m['img']!), details()] });
    expectError(await client.put(cards(`/${card.id}`), {}, { json: body }), status, code, parameter);
    expect((await client.get(cards(`/${card.id}`))).body.data).toEqual(card);
  });

  it('DELETE hides the card; with_deleted shows it; a second DELETE, GET and PUT are 404', async () => {
    const card = await created({ name: 'Gone', components: [media(m['img']!), details()] });
    const r = await client.delete(cards(`/${card.id}`));
    expect(r.body.data).toMatchObject({ id: card.id, deleted: true });
    expectError(await client.get(cards(`/${card.id}`)), 404, 'NOT_FOUND', 'card_id');
    expect((await client.get(cards(`/${card.id}`), { with_deleted: true })).body.data.deleted).toBe(true);
    expectError(await client.delete(cards(`/${card.id}`)), 404, 'NOT_FOUND');
    expectError(await client.put(cards(`/${card.id}`), {}, { json: { name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await client.put(cards(`/${card.id}`), { name: 'x' }, { as: 'form' }), 400, 'INVALID_PARAMETER', 'content-type');
  });
});

describe('GET cards and cards/all', () => {
  let acct: string;
  const ids: Record<string, string> = {};
  const list = (params: Record<string, string | number | boolean> = {}): Promise<Reply> => client.get(cards('', acct), params);
  const idsOf = (r: Reply): string[] => r.body.data.map((c: { id: string }) => c.id);
  beforeAll(async () => {
    acct = (await client.post('/12/accounts', {}, { base: 'sandbox' })).body.data[0].id as string;
    const img = await libraryMedia(client, acct, png(1200, 628), 'image/png');
    const vid = await libraryMedia(client, acct, mp4(1280, 720), 'video/mp4');
    ids['a'] = (await created({ name: 'Summer sale', components: [media(img), details()] }, acct)).id;
    ids['b'] = (await created({ name: 'summer video', components: [media(vid), button()] }, acct)).id;
    ids['c'] = (await created({ name: 'Winter', components: [swipe(img, img), details()] }, acct)).id;
    ids['d'] = (await created({ name: 'Summer gone', components: [media(img), details()] }, acct)).id;
    await client.delete(cards(`/${ids['d']}`, acct));
    for (let i = 0; i < 98; i++) await created({ name: `Filler ${String(i).padStart(2, '0')}`, components: [media(img), details()] }, acct);
  });

  it('pages by 100 by default, up to 200', async () => {
    const p1 = await list();
    expect(p1.body.data).toHaveLength(100);
    expect(idsOf(p1).slice(0, 3)).toEqual([ids['a'], ids['b'], ids['c']]);
    expect(p1.body.next_cursor).not.toBeNull();
    const p2 = await list({ cursor: p1.body.next_cursor });
    expect(p2.body.data).toHaveLength(1);
    expectWire('Card', ...p1.body.data, ...p2.body.data);
    expect((await list({ count: 200 })).body.data).toHaveLength(101);
  });

  const filters: Array<[string, () => Record<string, string | number | boolean>, () => string[]]> = [
    ['card_types', () => ({ card_types: 'VIDEO_APP,IMAGE_CAROUSEL_WEBSITE' }), () => [ids['b']!, ids['c']!]],
    ['card_id', () => ({ card_id: `${ids['c']},${ids['a']}` }), () => [ids['a']!, ids['c']!]],
    ['card_uris', () => ({ card_uris: `card://${ids['b']}` }), () => [ids['b']!]],
    ['q (name prefix, case-insensitive)', () => ({ q: 'SUMMER' }), () => [ids['a']!, ids['b']!]],
    ['q with with_deleted', () => ({ q: 'summer', with_deleted: true }), () => [ids['a']!, ids['b']!, ids['d']!]],
    ['sort_by name-desc with q', () => ({ q: 'summer', sort_by: 'name-desc' }), () => [ids['b']!, ids['a']!]],
    ['include_legacy_cards', () => ({ include_legacy_cards: true, q: 'Winter' }), () => [ids['c']!]],
  ];
  it.each(filters)('filters by %s', async (_name, params, expected) => {
    const r = await list(params());
    expect(r.status, r.text).toBe(200);
    expect(idsOf(r)).toEqual(expected());
  });

  it.each([
    ['count above 200', { count: 201 }, 'count'],
    ['q over 80 characters', { q: 'q'.repeat(81) }, 'q'],
    ['an unknown card type', { card_types: 'POLL' }, 'card_types'],
    ['a malformed card URI', { card_uris: 'card:/1' }, 'card_uris'],
    ['more than 200 card ids', { card_id: Array.from({ length: 201 }, (_, i) => String(i)).join(',') }, 'card_id'],
    ['with_total_count (not a parameter here)', { with_total_count: true }, 'with_total_count'],
  ])('refuses %s', async (_name, params, parameter) => {
    expectError(await list(params), 400, 'INVALID_PARAMETER', parameter);
  });

  it('cards/all looks cards up by URI (deleted ones only with with_deleted); cards/all/:card_id by id', async () => {
    const uris = [ids['d'], ids['b'], '1', ids['a']].map((id) => `card://${id}`).join(',');
    const r = await client.get(cards('/all', acct), { card_uris: uris });
    expect(r.status, r.text).toBe(200);
    expect(idsOf(r)).toEqual([ids['a'], ids['b']]);
    expect(idsOf(await client.get(cards('/all', acct), { card_uris: uris, with_deleted: true }))).toEqual([ids['a'], ids['b'], ids['d']]);
    expect(idsOf(await client.get(cards('/all'), { card_uris: uris }))).toEqual([]);
    expectError(await client.get(cards('/all', acct)), 400, 'MISSING_PARAMETER', 'card_uris');
    expectError(await client.get(cards('/all', acct), { card_uris: Array.from({ length: 201 }, (_, i) => `card://${i}`).join(',') }), 400, 'INVALID_PARAMETER', 'card_uris');
    const one = await client.get(cards(`/all/${ids['b']}`, acct));
    expect(one.body.data).toMatchObject({ id: ids['b'], card_type: 'VIDEO_APP' });
    expectError(await client.get(cards(`/all/${ids['d']}`, acct)), 404, 'NOT_FOUND', 'card_id');
    expect((await client.get(cards(`/all/${ids['d']}`, acct), { with_deleted: true })).body.data.deleted).toBe(true);
  });
});
