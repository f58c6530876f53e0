import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Reply, type TestClient } from '../support/client.js';
import { loginAs } from '../support/login.js';
import { gif, jpeg, mp4, png } from '../support/media-bytes.js';
import { chunkedUpload, rawMediaId, sendUpload, type UploadSend } from '../support/upload.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

/** The reply is an error of the upload service's dialect: this status and integer code. */
function expectCode(r: Reply, status: number, code: number): void {
  expect(r.status, r.text).toBe(status);
  expect((r.body?.errors ?? []).map((e: { code: unknown }) => e.code), r.text).toContain(code);
  expectWire('ErrorBody', r.body);
}

const init = (form: Record<string, string | number>): Promise<Reply> => sendUpload(client, 'POST', { form: { command: 'INIT', ...form } });
const initOk = async (bytes: Buffer, mediaType: string): Promise<string> => {
  const r = await init({ total_bytes: bytes.length, media_type: mediaType });
  expect(r.status, r.text).toBe(200);
  return r.body.media_id_string as string;
};
const append = (mediaId: string, index: number, bytes: Buffer): Promise<Reply> =>
  sendUpload(client, 'POST', { multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: mediaId }, { name: 'segment_index', value: String(index) }, { name: 'media', value: bytes, filename: 'blob' }] });
const finalize = (mediaId: string): Promise<Reply> => sendUpload(client, 'POST', { form: { command: 'FINALIZE', media_id: mediaId } });

describe('the upload service is at upload_base_url', () => {
  it('is announced beside the other base URLs', () => {
    expect(client.info.upload_base_url).toBe(`${client.info.base_url}/upload`);
  });
});

describe('chunked upload reads the real size from the bytes', () => {
  const images: Array<[string, Buffer, string, string, number, number]> = [
    ['PNG (IHDR)', png(1200, 628), 'image/png', '3_', 1200, 628],
    ['baseline JPEG (SOF0)', jpeg(800, 419), 'image/jpeg', '3_', 800, 419],
    ['progressive JPEG (SOF2)', jpeg(1024, 768, { progressive: true }), 'image/jpeg', '3_', 1024, 768],
    ['GIF (logical screen descriptor)', gif(320, 240), 'image/gif', '16_', 320, 240],
  ];
  it.each(images)('%s', async (_name, bytes, mediaType, prefix, w, h) => {
    const up = await chunkedUpload(client, bytes, mediaType, { segmentBytes: 700 });
    expect(up.mediaKey).toBe(`${prefix}${up.mediaId}`);
    expect(up.finalize.body).toMatchObject({ media_id_string: up.mediaId, media_key: up.mediaKey, size: bytes.length, image: { image_type: mediaType, w, h } });
    expect(up.finalize.body.processing_info).toBeUndefined();
    expect(rawMediaId(up.finalize)).toBe(up.mediaId);
    expectWire('MediaUpload', up.finalize.body);
  });

  const videos: Array<[string, Buffer]> = [
    ['MP4, tkhd version 0', mp4(1280, 720)],
    ['MP4, tkhd version 1, segments as base64 media_data', mp4(640, 480, { tkhdVersion: 1 })],
  ];
  it.each(videos)('%s: processing moves pending, in_progress, succeeded on each STATUS', async (name, bytes) => {
    const up = await chunkedUpload(client, bytes, 'video/mp4', { category: 'tweet_video', base64: name.includes('base64') });
    expect(up.mediaKey).toBe(`13_${up.mediaId}`);
    expect(up.finalize.body).toMatchObject({ size: bytes.length, processing_info: { state: 'pending', check_after_secs: 1, progress_percent: 0 } });
    expect(up.statuses.map((s) => s.body.processing_info)).toEqual([
      { state: 'in_progress', check_after_secs: 1, progress_percent: 50 },
      { state: 'succeeded', progress_percent: 100 },
    ]);
    expect(up.statuses[1]!.body.video).toEqual({ video_type: 'video/mp4' });
    expectWire('MediaUpload', up.finalize.body, ...up.statuses.map((s) => s.body));
    const again = await sendUpload(client, 'GET', { query: { command: 'STATUS', media_id: up.mediaId } });
    expect(again.body.processing_info.state).toBe('succeeded');
  });

  it('INIT answers the media id (a JSON number with every digit), its string and key', async () => {
    const r = await init({ total_bytes: 100, media_type: 'video/mp4', media_category: 'amplify_video' });
    expect(r.status, r.text).toBe(200);
    expect(rawMediaId(r)).toBe(r.body.media_id_string);
    expect(r.body).toMatchObject({ media_key: `13_${r.body.media_id_string}`, expires_after_secs: 86400 });
    expectWire('MediaUpload', r.body);
  });

  it('a segment sent again under the same index replaces the first one', async () => {
    const bytes = png(900, 900);
    const id = await initOk(bytes, 'image/png');
    expect((await append(id, 0, bytes.subarray(0, 100))).status).toBe(204);
    expect((await append(id, 1, Buffer.alloc(bytes.length - 100))).status).toBe(204);
    expect((await append(id, 0, bytes.subarray(0, 100))).status).toBe(204);
    expect((await append(id, 1, bytes.subarray(100))).status).toBe(204);
    expect((await finalize(id)).body.image).toEqual({ image_type: 'image/png', w: 900, h: 900 });
  });
});

describe('simple upload', () => {
  it.each([
    ['a multipart media file', png(1000, 500), 'media'],
    ['base64 media_data', gif(200, 100), 'media_data'],
  ])('takes %s', async (_name, bytes, field) => {
    const value = field === 'media' ? bytes : bytes.toString('base64');
    const r = await sendUpload(client, 'POST', { multipart: [{ name: field, value, ...(field === 'media' ? { filename: 'f' } : {}) }, { name: 'additional_owners', value: '783214' }] });
    expect(r.status, r.text).toBe(200);
    expect(r.body.size).toBe(bytes.length);
    expect(rawMediaId(r)).toBe(r.body.media_id_string);
    expectWire('MediaUpload', r.body);
  });
});

describe('refusals', () => {
  let other: string;
  beforeAll(async () => {
    other = await initOk(png(10, 10), 'image/png');
  });
  const rows: Array<[string, () => Promise<UploadSend & { method?: 'GET' | 'POST' }>, number, number]> = [
    ['INIT without total_bytes', async () => ({ form: { command: 'INIT', media_type: 'image/png' } }), 403, 38],
    ['INIT without media_type', async () => ({ form: { command: 'INIT', total_bytes: 10 } }), 403, 38],
    ['INIT with an unsupported media_type', async () => ({ form: { command: 'INIT', total_bytes: 10, media_type: 'image/webp' } }), 400, 44],
    ['INIT with a total_bytes of zero', async () => ({ form: { command: 'INIT', total_bytes: 0, media_type: 'image/png' } }), 400, 44],
    ['an image over 5 MB', async () => ({ form: { command: 'INIT', total_bytes: 5 * 1024 * 1024 + 1, media_type: 'image/jpeg' } }), 400, 324],
    ['a GIF over 15 MB', async () => ({ form: { command: 'INIT', total_bytes: 15 * 1024 * 1024 + 1, media_type: 'image/gif' } }), 400, 324],
    ['a video over 512 MB', async () => ({ form: { command: 'INIT', total_bytes: 512 * 1024 * 1024 + 1, media_type: 'video/mp4' } }), 400, 324],
    ['a media_category that does not fit the media type', async () => ({ form: { command: 'INIT', total_bytes: 10, media_type: 'image/png', media_category: 'amplify_video' } }), 400, 44],
    ['additional_owners that are not user ids', async () => ({ form: { command: 'INIT', total_bytes: 10, media_type: 'image/png', additional_owners: 'someone' } }), 400, 44],
    ['APPEND to an unknown media_id', async () => ({ multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: '1' }, { name: 'segment_index', value: '0' }, { name: 'media', value: 'x', filename: 'b' }] }), 400, 44],
    ['APPEND with a segment_index past 999', async () => ({ multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: other }, { name: 'segment_index', value: '1000' }, { name: 'media', value: 'x', filename: 'b' }] }), 400, 44],
    ['APPEND without media', async () => ({ multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: other }, { name: 'segment_index', value: '0' }] }), 403, 38],
    ['APPEND past total_bytes', async () => ({ multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: other }, { name: 'segment_index', value: '0' }, { name: 'media', value: Buffer.alloc(png(10, 10).length + 1), filename: 'b' }] }), 400, 324],
    ['STATUS before FINALIZE', async () => ({ method: 'GET', query: { command: 'STATUS', media_id: other } }), 400, 44],
    ['STATUS by POST', async () => ({ form: { command: 'STATUS', media_id: other } }), 404, 34],
    ['an unknown command', async () => ({ form: { command: 'UPLOAD' } }), 400, 44],
    ['a simple upload without media', async () => ({ multipart: [{ name: 'media_category', value: 'tweet_image' }] }), 403, 38],
    ['a simple upload of a video', async () => ({ multipart: [{ name: 'media', value: mp4(640, 360), filename: 'v.mp4' }] }), 400, 324],
    ['a simple upload of bytes in no known format', async () => ({ multipart: [{ name: 'media', value: Buffer.from('not an image at all'), filename: 'x' }] }), 400, 324],
    ['a request without a signature', async () => ({ creds: null, form: { command: 'INIT', total_bytes: 10, media_type: 'image/png' } }), 400, 215],
    ['a request signed with a wrong secret', async () => ({ creds: { ...client.creds, tokenSecret: 'wrong' }, form: { command: 'INIT', total_bytes: 10, media_type: 'image/png' } }), 401, 32],
  ];
  it.each(rows)('%s', async (_name, make, status, code) => {
    const { method, ...send } = await make();
    expectCode(await sendUpload(client, method ?? 'POST', send), status, code);
  });

  it('FINALIZE refuses segments that do not add up, bytes of another format, and unreadable bytes', async () => {
    const bytes = png(50, 50);
    const short = await initOk(bytes, 'image/png');
    await append(short, 0, bytes.subarray(0, 20));
    expectCode(await finalize(short), 400, 324);
    const wrong = jpeg(50, 50);
    const mislabelled = await initOk(wrong, 'image/png');
    await append(mislabelled, 0, wrong);
    expectCode(await finalize(mislabelled), 400, 324);
    const junk = Buffer.from('GIF89a');
    const unreadable = await initOk(junk, 'image/gif');
    await append(unreadable, 0, junk);
    expectCode(await finalize(unreadable), 400, 324);
  });

  it('another user cannot append to or finalize an upload that is not theirs', async () => {
    const bytes = png(20, 20);
    const id = await initOk(bytes, 'image/png');
    const manager = client.as(await loginAs(client, 'adsctl_manager'));
    expectCode(await sendUpload(manager, 'POST', { multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: id }, { name: 'segment_index', value: '0' }, { name: 'media', value: bytes, filename: 'b' }] }), 400, 44);
    expectCode(await sendUpload(manager, 'POST', { form: { command: 'FINALIZE', media_id: id } }), 400, 44);
  });

  it('answers 404 code 34 beside the endpoint', async () => {
    const url = `${client.info.upload_base_url}/1.1/media/metadata/create.json`;
    const res = await fetch(url, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errors: Array<{ code: number }> }).errors[0]!.code).toBe(34);
  });
});
