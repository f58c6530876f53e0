import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { loginAs } from '../support/login.js';
import { gif, jpeg, mp4, png } from '../support/media-bytes.js';
import { addToLibrary, libraryMedia, uploadMedia } from '../support/media-library.js';
import { chunkedUpload, sendUpload } from '../support/upload.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;

const library = (suffix = ''): string => `/12/accounts/${account}/media_library${suffix}`;
const keysOf = (data: Array<{ media_key: string }>): string[] => data.map((d) => d.media_key);

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

describe('POST media_library', () => {
  const rows: Array<[string, () => Buffer, string, Params, Record<string, unknown>]> = [
    ['a PNG image', () => png(1200, 628), 'image/png', {}, { media_type: 'IMAGE', aspect_ratio: '1.91:1', name: 'Untitled', title: null, description: null, file_name: null, poster_media_url: null }],
    ['a JPEG image with name and file_name', () => jpeg(1000, 1000), 'image/jpeg', { name: 'Square', file_name: 'square.jpg' }, { media_type: 'IMAGE', aspect_ratio: '1:1', name: 'Square', file_name: 'square.jpg' }],
    ['a GIF', () => gif(400, 300), 'image/gif', {}, { media_type: 'GIF', aspect_ratio: '4:3' }],
    ['a video with title and description', () => mp4(1280, 720, { durationMs: 15_500 }), 'video/mp4', { title: 'Teaser', description: 'Summer teaser' }, { media_type: 'VIDEO', aspect_ratio: '16:9', duration: 15_500, title: 'Teaser', description: 'Summer teaser' }],
  ];
  it.each(rows)('adds %s', async (_name, bytes, mediaType, params, expected) => {
    const key = await uploadMedia(client, bytes(), mediaType);
    const r = await client.post(library(), { media_key: key, ...params }, { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.request.params).toEqual({ account_id: account, media_key: key, ...params });
    expect(r.body.data).toMatchObject({ media_key: key, media_status: 'TRANSCODE_COMPLETED', tweeted: false, deleted: false, ...expected });
    expect('duration' in r.body.data).toBe(mediaType === 'video/mp4');
    if (mediaType === 'video/mp4') expect(r.body.data.poster_media_url).toMatch(/^https:\/\//);
    expectWire('MediaLibraryItem', r.body.data);
    expect((await client.get(library(`/${key}`))).body.data).toEqual(r.body.data);
  });

  it('an AMPLIFY_VIDEO video becomes a PREROLL account media asset that media creatives can use', async () => {
    const key = await uploadMedia(client, mp4(1920, 1080), 'video/mp4', { category: 'amplify_video' });
    await addToLibrary(client, account, key);
    const media = await client.get(`/12/accounts/${account}/account_media`, { creative_types: 'PREROLL' });
    const asset = media.body.data.find((m: { media_key: string }) => m.media_key === key);
    expect(asset).toMatchObject({ creative_type: 'PREROLL', deleted: false });
    expectWire('AccountMedia', ...media.body.data);
    const campaign = await createCampaign(client, account);
    const lineItem = await createLineItem(client, account, campaign.id, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS' });
    const mc = await client.post(`/12/accounts/${account}/media_creatives`, { line_item_id: lineItem.id, account_media_id: asset.id }, { as: 'form' });
    expect(mc.status, mc.text).toBe(201);
    expect(mc.body.data).toMatchObject({ creative_type: 'PREROLL', account_media_id: asset.id });
  });

  it('takes media another user uploaded with the advertiser in additional_owners', async () => {
    const manager = client.as(await loginAs(client, 'adsctl_manager'));
    const shared = await uploadMedia(manager, png(600, 600), 'image/png', { additionalOwners: client.info.user_id });
    expect((await addToLibrary(manager, account, shared)).media_key).toBe(shared);
    const own = await uploadMedia(manager, png(600, 600), 'image/png');
    expectError(await manager.post(library(), { media_key: own }), 400, 'INVALID_MEDIA', 'media_key');
  });

  const refusals: Array<[string, () => Promise<Params>, number, string, string]> = [
    ['media_key is required', async () => ({ name: 'x' }), 400, 'MISSING_PARAMETER', 'media_key'],
    ['an unknown media key', async () => ({ media_key: '3_1234' }), 404, 'MEDIA_NOT_FOUND', 'media_key'],
    ['media uploaded without a media_category', async () => ({ media_key: await uploadMedia(client, png(100, 100), 'image/png', { category: null }) }), 400, 'INVALID_MEDIA', 'media_key'],
    ['a video still processing', async () => {
      const bytes = mp4(640, 360);
      const init = await sendUpload(client, 'POST', { form: { command: 'INIT', total_bytes: bytes.length, media_type: 'video/mp4', media_category: 'tweet_video' } });
      const id = init.body.media_id_string as string;
      await sendUpload(client, 'POST', { form: { command: 'APPEND', media_id: id, segment_index: 0, media_data: bytes.toString('base64') } });
      await sendUpload(client, 'POST', { form: { command: 'FINALIZE', media_id: id } });
      return { media_key: init.body.media_key };
    }, 400, 'INVALID_MEDIA', 'media_key'],
    ['a name over 100 characters', async () => ({ media_key: await uploadMedia(client, png(10, 10), 'image/png'), name: 'n'.repeat(101) }), 400, 'INVALID_PARAMETER', 'name'],
    ['a file_name over 255 characters', async () => ({ media_key: await uploadMedia(client, png(10, 10), 'image/png'), file_name: 'f'.repeat(256) }), 400, 'INVALID_PARAMETER', 'file_name'],
    ['a title on an image', async () => ({ media_key: await uploadMedia(client, png(10, 10), 'image/png'), title: 'T' }), 400, 'INVALID_PARAMETER', 'title'],
    ['a description on a GIF', async () => ({ media_key: await uploadMedia(client, gif(10, 10), 'image/gif'), description: 'D' }), 400, 'INVALID_PARAMETER', 'description'],
    ['a poster on an image', async () => ({ media_key: await uploadMedia(client, png(10, 10), 'image/png'), poster_media_key: await uploadMedia(client, png(10, 10), 'image/png') }), 400, 'INVALID_PARAMETER', 'poster_media_key'],
    ['a video title over 70 characters', async () => ({ media_key: await uploadMedia(client, mp4(64, 36), 'video/mp4'), title: 't'.repeat(71) }), 400, 'INVALID_PARAMETER', 'title'],
    ['a video description over 200 characters', async () => ({ media_key: await uploadMedia(client, mp4(64, 36), 'video/mp4'), description: 'd'.repeat(201) }), 400, 'INVALID_PARAMETER', 'description'],
    ['a poster that is a video', async () => ({ media_key: await uploadMedia(client, mp4(64, 36), 'video/mp4'), poster_media_key: await uploadMedia(client, mp4(64, 36), 'video/mp4') }), 400, 'INVALID_MEDIA', 'poster_media_key'],
    ['media already in the library', async () => ({ media_key: await libraryMedia(client, account, png(10, 10), 'image/png') }), 400, 'INVALID_PARAMETER', 'media_key'],
    ['unknown parameters', async () => ({ media_key: await uploadMedia(client, png(10, 10), 'image/png'), media_type: 'IMAGE' }), 400, 'INVALID_PARAMETER', 'media_type'],
  ];
  it.each(refusals)('refuses %s', async (_name, params, status, code, parameter) => {
    expectError(await client.post(library(), await params(), { as: 'form' }), status, code, parameter);
  });

  it('a campaign analyst may read but not add', async () => {
    const analyst = client.as(await loginAs(client, 'adsctl_analyst'));
    expect((await analyst.get(library())).status).toBe(200);
    expectError(await analyst.post(library(), { media_key: await uploadMedia(client, png(10, 10), 'image/png') }), 403, 'ACTION_NOT_ALLOWED');
  });
});

describe('GET media_library', () => {
  let listAccount: string;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    // a fresh sandbox account keeps this list apart from the other tests' media
    const created = await client.post('/12/accounts', {}, { base: 'sandbox' });
    listAccount = created.body.data[0].id as string;
    keys['hero'] = await libraryMedia(client, listAccount, png(1200, 628), 'image/png', { name: 'Summer hero banner' });
    keys['tent'] = await libraryMedia(client, listAccount, jpeg(800, 800), 'image/jpeg', { file_name: 'tent-photo.jpg' });
    keys['loop'] = await libraryMedia(client, listAccount, gif(100, 100), 'image/gif', { name: 'Loop' });
    keys['clip'] = await libraryMedia(client, listAccount, mp4(1280, 720), 'video/mp4', { title: 'Trail run', description: 'Heroes on the trail' });
    for (let i = 0; i < 18; i++) await libraryMedia(client, listAccount, png(20, 20), 'image/png', { name: `Filler ${i}` });
  });
  const list = (params: Params = {}) => client.get(`/12/accounts/${listAccount}/media_library`, params);

  it('pages by 20 by default, in creation order, with the list envelope', async () => {
    const p1 = await list();
    expect(p1.status, p1.text).toBe(200);
    expect(p1.body.data).toHaveLength(20);
    expect(keysOf(p1.body.data).slice(0, 4)).toEqual([keys['hero'], keys['tent'], keys['loop'], keys['clip']]);
    const p2 = await list({ cursor: p1.body.next_cursor });
    expect(p2.body.data).toHaveLength(2);
    expect(p2.body.next_cursor).toBeNull();
    expectWire('MediaLibraryItem', ...p1.body.data, ...p2.body.data);
    expect((await list({ count: 50 })).body.data).toHaveLength(22);
  });

  const filters: Array<[string, Params, string[]]> = [
    ['media_type=VIDEO', { media_type: 'VIDEO' }, ['clip']],
    ['media_type=GIF', { media_type: 'GIF' }, ['loop']],
    ['q matches a whole term of the name', { q: 'hero' }, ['hero']],
    ['q is case-insensitive and matches file_name terms', { q: 'TENT' }, ['tent']],
    ['q matches title and description terms', { q: 'heroes trail' }, ['clip']],
    ['q with two terms needs both', { q: 'summer banner' }, ['hero']],
    ['q does not match part of a term', { q: 'her' }, []],
    ['q with media_type', { q: 'loop', media_type: 'IMAGE' }, []],
  ];
  it.each(filters)('filters: %s', async (_name, params, expected) => {
    const r = await list({ count: 50, ...params });
    expect(r.status, r.text).toBe(200);
    expect(keysOf(r.body.data)).toEqual(expected.map((k) => keys[k]));
  });

  const refusals: Array<[string, Params, string]> = [
    ['count above 50', { count: 51 }, 'count'],
    ['an empty q', { q: '' }, 'q'],
    ['q over 255 characters', { q: 'q'.repeat(256) }, 'q'],
    ['an unknown media_type', { media_type: 'AUDIO' }, 'media_type'],
    ['with_deleted (not a parameter here)', { with_deleted: true }, 'with_deleted'],
    ['sort_by (not a parameter here)', { sort_by: 'created_at-asc' }, 'sort_by'],
  ];
  it.each(refusals)('refuses %s', async (_name, params, parameter) => {
    expectError(await list(params), 400, 'INVALID_PARAMETER', parameter);
  });

  it('GET /:media_key of an unknown key is 404', async () => {
    expectError(await client.get(library('/3_999')), 404, 'NOT_FOUND', 'media_key');
  });
});

describe('PUT and DELETE media_library/:media_key', () => {
  it('changes fields, unsets with an empty value, and ignores read-only fields sent back unchanged', async () => {
    const key = await libraryMedia(client, account, mp4(1920, 1080), 'video/mp4', { name: 'Clip' });
    const poster = await uploadMedia(client, png(1920, 1080), 'image/png');
    const current = (await client.get(library(`/${key}`))).body.data as Record<string, string | number | boolean | null>;
    const sentBack: Params = {};
    for (const [k, v] of Object.entries(current)) if (v !== null) sentBack[k] = v;
    const r = await client.put(library(`/${key}`), { ...sentBack, name: 'Renamed', title: 'New title', poster_media_key: poster }, { as: 'form' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Renamed', title: 'New title', created_at: current['created_at'] });
    expect(r.body.data.poster_media_url).toContain(poster);
    expectWire('MediaLibraryItem', r.body.data);
    const unset = await client.put(library(`/${key}`), { name: '', poster_media_key: '' });
    expect(unset.body.data).toMatchObject({ name: 'Untitled', title: 'New title', poster_media_url: current['poster_media_url'] });
  });

  it.each([
    ['a changed read-only field', { media_type: 'GIF' }, 'media_type'],
    ['a title on an image', { title: 'T' }, 'title'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
  ])('refuses %s', async (_name, params, parameter) => {
    const key = await libraryMedia(client, account, png(300, 300), 'image/png');
    expectError(await client.put(library(`/${key}`), params), 400, 'INVALID_PARAMETER', parameter);
  });

  it('DELETE hides the item; a second DELETE is 404; adding the key again brings it back', async () => {
    const key = await libraryMedia(client, account, png(300, 300), 'image/png', { name: 'Gone soon' });
    const r = await client.delete(library(`/${key}`));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ media_key: key, deleted: true });
    expectError(await client.get(library(`/${key}`)), 404, 'NOT_FOUND', 'media_key');
    expect(keysOf((await client.get(library(), { count: 50, q: 'gone' })).body.data)).toEqual([]);
    expectError(await client.delete(library(`/${key}`)), 404, 'NOT_FOUND');
    expectError(await client.put(library(`/${key}`), { name: 'x' }), 404, 'NOT_FOUND');
    expect(await addToLibrary(client, account, key, { name: 'Back' })).toMatchObject({ name: 'Back', deleted: false });
  });

  it('the whole chunked path ends in the library with the real aspect ratio', async () => {
    const up = await chunkedUpload(client, jpeg(1600, 900, { progressive: true }), 'image/jpeg', { category: 'tweet_image', segmentBytes: 512 });
    expect((await addToLibrary(client, account, up.mediaKey)).aspect_ratio).toBe('16:9');
  });
});
