/**
 * The media upload client against the emulator's upload service (`upload_base_url`): INIT,
 * APPEND segments, FINALIZE, then STATUS while a video is processed, waiting `check_after_secs`
 * through an injected sleep so no test waits on a timer. Uploaded media goes into the library.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { uploadMedia } from '../../src/api/upload.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/emulator.js';
import { apiFor } from '../support/api.js';
import { gif, mp4, png } from '../support/media-bytes.js';
import { testClock } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: ApiClient;
let api: AdsApi;
let account: string;

beforeAll(async () => {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0 });
  ({ client, api } = apiFor(emulator.info, { sleep: async () => {} }));
  account = emulator.info.account_id;
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

async function faults(spec: string, count?: number): Promise<void> {
  const res = await request(`${emulator.info.base_url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults: spec, ...(count === undefined ? {} : { count }) }),
  });
  expect(res.statusCode).toBe(200);
  await res.body.text();
}

/** Faults the emulator has injected so far. */
async function faultCount(): Promise<number> {
  const res = await request(`${emulator.info.base_url}/_emulator/stats`);
  const stats = (await res.body.json()) as { faults: Record<string, number> };
  return Object.values(stats.faults).reduce((a, b) => a + b, 0);
}

/** The client's request counts by operation since `before`. */
const since = (before: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(client.counts.byEndpoint).map(([k, v]) => [k, v - (before[k] ?? 0)]).filter(([, v]) => v !== 0));

describe('uploadMedia', () => {
  it('uploads a PNG in segments of the size asked, reporting progress, and the library takes its key', async () => {
    const data = png(1200, 628);
    const progress: string[] = [];
    const before = { ...client.counts.byEndpoint };
    const uploaded = await uploadMedia(client, { data, mimeType: 'image/png', category: 'TWEET_IMAGE' }, { segmentBytes: 1000, onProgress: (m) => progress.push(m) });
    expect(uploaded.media_key).toBe(`3_${uploaded.media_id}`);
    expect(uploaded.size).toBe(data.length);
    expect(uploaded.response.image).toEqual({ image_type: 'image/png', w: 1200, h: 628 });
    expect(since(before)).toEqual({ 'media.init': 1, 'media.append': Math.ceil(data.length / 1000), 'media.finalize': 1 });
    expect(progress).toHaveLength(Math.ceil(data.length / 1000));
    expect(progress.at(-1)).toBe(`uploaded ${Math.round(data.length / 1000)} KB of ${Math.round(data.length / 1000)} KB`);
    const item = await api.addToMediaLibrary(account, { media_key: uploaded.media_key, name: 'Hero' });
    expect(item).toMatchObject({ media_key: uploaded.media_key, media_type: 'IMAGE', name: 'Hero', aspect_ratio: '1.91:1' });
  });

  it('uploads a GIF from a Uint8Array in one segment by default', async () => {
    const bytes = gif(320, 240);
    const before = { ...client.counts.byEndpoint };
    const uploaded = await api.uploadMedia({ data: new Uint8Array(bytes), mimeType: 'image/gif', category: 'tweet_gif' });
    expect(uploaded.media_key).toMatch(/^16_\d+$/);
    expect(since(before)).toEqual({ 'media.init': 1, 'media.append': 1, 'media.finalize': 1 });
    expect((await api.addToMediaLibrary(account, { media_key: uploaded.media_key })).media_type).toBe('GIF');
  });

  it('polls a video with STATUS after each check_after_secs, through the injected sleep', async () => {
    const slept: number[] = [];
    const progress: string[] = [];
    const before = { ...client.counts.byEndpoint };
    const uploaded = await api.uploadMedia(
      { data: mp4(1920, 1080, { durationMs: 30_000 }), mimeType: 'video/mp4', category: 'TWEET_VIDEO' },
      { sleep: async (ms) => void slept.push(ms), onProgress: (m) => progress.push(m) },
    );
    expect(uploaded.media_key).toMatch(/^13_\d+$/);
    expect(uploaded.response.processing_info).toEqual({ state: 'succeeded', progress_percent: 100 });
    expect(slept).toEqual([1000, 1000]);
    expect(progress.filter((m) => m.startsWith('processing'))).toEqual(['processing 0%', 'processing 50%']);
    expect(since(before)).toEqual({ 'media.init': 1, 'media.append': 1, 'media.finalize': 1, 'media.status': 2 });
    const item = await api.addToMediaLibrary(account, { media_key: uploaded.media_key, title: 'Trailer' });
    expect(item).toMatchObject({ media_type: 'VIDEO', duration: 30_000, title: 'Trailer' });
  });

  it('gives up on processing that outlasts maxProcessingMs', async () => {
    const slept: number[] = [];
    const error = await api
      .uploadMedia({ data: mp4(640, 360), mimeType: 'video/mp4', category: 'TWEET_VIDEO' }, { sleep: async (ms) => void slept.push(ms), maxProcessingMs: 1500 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('MEDIA_PROCESSING_TIMEOUT');
    expect(slept).toEqual([1000]);
  });

  it('sends additional owners, and the service checks them', async () => {
    const ok = await api.uploadMedia({ data: png(10, 10), mimeType: 'image/png', category: 'TWEET_IMAGE', additionalOwners: ['2244994945', '783214'] });
    expect(ok.media_key).toMatch(/^3_/);
    const refused = await api.uploadMedia({ data: png(10, 10), mimeType: 'image/png', category: 'TWEET_IMAGE', additionalOwners: ['not-a-user-id'] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(44);
  });

  it('reports bytes that are not what they claim as the service refuses them', async () => {
    const error = await api.uploadMedia({ data: png(10, 10), mimeType: 'video/mp4', category: 'TWEET_VIDEO' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).code).toBe(324);
    expect((error as ApiError).request).toBe('POST /1.1/media/upload.json');
  });

  it('sends any command again when its answer is lost or refused with a 500', async () => {
    const retries = client.counts.retries;
    const faultsBefore = await faultCount();
    await faults('lost=25%,500=25%', 12);
    const uploaded = await api.uploadMedia({ data: png(900, 900), mimeType: 'image/png', category: 'TWEET_IMAGE' }, { segmentBytes: 500 });
    await faults('');
    const injected = (await faultCount()) - faultsBefore;
    expect(injected).toBeGreaterThan(1);
    expect(client.counts.retries - retries).toBe(injected);
    expect((await api.addToMediaLibrary(account, { media_key: uploaded.media_key })).aspect_ratio).toBe('1:1');
  });
});
