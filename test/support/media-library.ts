/**
 * Media fixtures through the real HTTP surfaces: upload bytes (simple upload for pictures, the
 * chunked sequence for videos) and add them to an account's media library. Each helper throws
 * unless the emulator answers success, so a test fails at the fixture.
 */
import type { Params, TestClient } from './client.js';
import { chunkedUpload, sendUpload } from './upload.js';

/** The media category and additional owners of an upload. */
export interface UploadOptions {
  /** The media category; null uploads without one. Default: tweet_image, tweet_gif or tweet_video by type. */
  category?: string | null;
  additionalOwners?: string;
}

const DEFAULT_CATEGORY: Record<string, string> = { 'image/png': 'tweet_image', 'image/jpeg': 'tweet_image', 'image/gif': 'tweet_gif', 'video/mp4': 'tweet_video' };

/** Uploads `bytes` of `mediaType` (videos chunked, pictures in one request) and returns the media key. */
export async function uploadMedia(client: TestClient, bytes: Buffer, mediaType: string, opts: UploadOptions = {}): Promise<string> {
  const category = opts.category === undefined ? DEFAULT_CATEGORY[mediaType] : opts.category;
  if (mediaType === 'video/mp4') {
    return (await chunkedUpload(client, bytes, mediaType, { ...(category === null ? {} : { category }), ...(opts.additionalOwners === undefined ? {} : { additionalOwners: opts.additionalOwners }) })).mediaKey;
  }
  const r = await sendUpload(client, 'POST', {
    multipart: [
      { name: 'media', value: bytes, filename: 'upload' },
      ...(category === null || category === undefined ? [] : [{ name: 'media_category', value: category }]),
      ...(opts.additionalOwners === undefined ? [] : [{ name: 'additional_owners', value: opts.additionalOwners }]),
    ],
  });
  if (r.status !== 200) throw new Error(`upload failed (${r.status}): ${r.text}`);
  return r.body.media_key as string;
}

/** POST accounts/:account/media_library with `mediaKey` (and `params`); returns the record. */
export async function addToLibrary(client: TestClient, account: string, mediaKey: string, params: Params = {}): Promise<any> {
  const r = await client.post(`/12/accounts/${account}/media_library`, { media_key: mediaKey, ...params }, { as: 'form' });
  if (r.status !== 201) throw new Error(`media library POST failed (${r.status}): ${r.text}`);
  return r.body.data;
}

/** Uploads `bytes` and adds them to the library; returns the media key. */
export async function libraryMedia(client: TestClient, account: string, bytes: Buffer, mediaType: string, params: Params = {}): Promise<string> {
  const key = await uploadMedia(client, bytes, mediaType);
  await addToLibrary(client, account, key, params);
  return key;
}
