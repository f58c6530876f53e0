/**
 * The whole creative path over HTTP: media built byte by byte, sent through the chunked upload,
 * added to the media library, then used by a card and by conversation cards, whose aspect-ratio
 * rules see the real sizes read from the bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { expectError } from '../support/assertions.js';
import { gif, jpeg, mp4, png } from '../support/media-bytes.js';
import { addToLibrary } from '../support/media-library.js';
import { chunkedUpload } from '../support/upload.js';
import { expectWire } from '../support/wire.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

describe('upload, media library, cards', () => {
  const files: Array<[string, () => Buffer, string, string, string, string]> = [
    ['png', () => png(1200, 628, 3000), 'image/png', 'tweet_image', 'IMAGE', '1.91:1'],
    ['jpeg', () => jpeg(1600, 900, { pad: 3000 }), 'image/jpeg', 'tweet_image', 'IMAGE', '16:9'],
    ['gif', () => gif(480, 270, 3000), 'image/gif', 'tweet_gif', 'GIF', '16:9'],
    ['mp4', () => mp4(1280, 720, { pad: 5000, durationMs: 6_000 }), 'video/mp4', 'tweet_video', 'VIDEO', '16:9'],
  ];
  it.each(files)('%s: chunked upload, then the media library with its real aspect ratio', async (name, bytes, mediaType, category, libraryType, ratio) => {
    const up = await chunkedUpload(client, bytes(), mediaType, { category, segmentBytes: 1000 });
    expectWire('MediaUpload', up.finalize.body, ...up.statuses.map((s) => s.body));
    const item = await addToLibrary(client, account, up.mediaKey, { name: `Flow ${name}` });
    expect(item).toMatchObject({ media_key: up.mediaKey, media_type: libraryType, aspect_ratio: ratio, name: `Flow ${name}` });
    expectWire('MediaLibraryItem', item);
    keys[name] = up.mediaKey;
  });

  it('a carousel card on the PNG, the JPEG and the MP4; the GIF is refused', async () => {
    const body = {
      name: 'Summer carousel',
      components: [
        { type: 'SWIPEABLE_MEDIA', media_keys: [keys['png'], keys['jpeg'], keys['mp4']] },
        { type: 'DETAILS', title: 'Shop the sale', destination: { type: 'WEBSITE', url: 'https://example.com/summer' } },
      ],
    };
    const r = await client.post(`/12/accounts/${account}/cards`, {}, { json: body });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject({ ...body, card_type: 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE' });
    expectWire('Card', r.body.data);
    const withGif = { ...body, components: [{ type: 'MEDIA', media_key: keys['gif'] }, body.components[1]] };
    expectError(await client.post(`/12/accounts/${account}/cards`, {}, { json: withGif }), 400, 'INVALID_MEDIA', 'media_key');
  });

  it('an image conversation card on the 1.91:1 PNG; the 16:9 JPEG is refused for its aspect ratio', async () => {
    const params = { name: 'Tent poll', first_cta: '#Tents', first_cta_tweet: 'I want a tent', thank_you_text: 'Thanks!', title: 'Pick one' };
    const r = await client.post(`/12/accounts/${account}/cards/image_conversation`, { ...params, media_key: keys['png']! }, { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject({ ...params, media_key: keys['png'], card_type: 'IMAGE_CONVERSATION' });
    expectWire('ImageConversationCard', r.body.data);
    const wrong = await client.post(`/12/accounts/${account}/cards/image_conversation`, { ...params, media_key: keys['jpeg']! }, { as: 'form' });
    expectError(wrong, 400, 'INVALID_MEDIA', 'media_key');
    expect(wrong.body.errors[0].message).toContain('1.91:1');
  });

  it('a video conversation card on the 16:9 MP4', async () => {
    const r = await client.post(
      `/12/accounts/${account}/cards/video_conversation`,
      { name: 'Trail poll', first_cta: '#Trails', first_cta_tweet: 'Trails!', second_cta: '#Peaks', second_cta_tweet: 'Peaks!', thank_you_text: 'Thanks!', media_key: keys['mp4']!, poster_media_key: keys['png']! },
      { as: 'form' },
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject({ card_type: 'VIDEO_CONVERSATION', media_key: keys['mp4'], title: null });
    expectWire('VideoConversationCard', r.body.data);
  });
});
