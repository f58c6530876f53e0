/**
 * The media upload service (`/1.1/media/upload.json` below the endpoint's `uploadBaseUrl`), in
 * its chunked form, which takes every media type: INIT declares the size, MIME type, media
 * category and additional owners; APPEND sends the bytes in segments of at most 5 MiB (multipart
 * `media` parts, their command fields in the signed query string); FINALIZE checks them; a video
 * is then processed, and STATUS is asked again after each `check_after_secs` until processing
 * succeeded or failed. Every command can be sent twice without harm (a segment sent again
 * replaces itself, FINALIZE of finished media answers it again), so the client retries them all.
 * The media key it answers is what the media library, cards and posts take.
 */
import type { ApiClient, Params } from './client.js';
import { ApiError } from './errors.js';
import type * as W from './generated/wire.js';

/** The path of the upload endpoint below the upload base URL. */
const UPLOAD_PATH = '/1.1/media/upload.json';

/** The largest segment the service takes. */
export const SEGMENT_MAX_BYTES = 5 * 1024 * 1024;

/** A file to upload. */
export interface MediaFile {
  data: Buffer | Uint8Array;
  /** `image/png`, `image/jpeg`, `image/gif` or `video/mp4`. */
  mimeType: string;
  /** `TWEET_IMAGE`, `TWEET_GIF`, `TWEET_VIDEO` or `AMPLIFY_VIDEO`; the media library takes only media uploaded with one. */
  category: string;
  /** Users besides the uploader who may use the media: the advertiser (`as_user_id`) when someone else uploads for it. */
  additionalOwners?: readonly string[];
}

/** How `uploadMedia` reports, waits and cuts segments. */
export interface UploadOptions {
  /** Told how the upload goes, in words (`uploaded 5.0 MB of 12.0 MB`, `processing 50%`). */
  onProgress?: (message: string) => void;
  /** Waits between STATUS requests (default: the client's own wait, a timer unless it was given a sleep); tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** Bytes per APPEND, at most (and by default) 5 MiB. */
  segmentBytes?: number;
  /** Longest total wait for processing, summed from `check_after_secs` (default 30 minutes). */
  maxProcessingMs?: number;
}

/** Uploaded media, ready for the media library. */
export interface UploadedMedia {
  media_key: string;
  /** The media id, every digit kept (the service's `media_id_string`). */
  media_id: string;
  /** Bytes the service received. */
  size: number;
  /** The service's last answer: FINALIZE's, or the STATUS that saw processing succeed. */
  response: W.MediaUpload;
}

const DEFAULT_MAX_PROCESSING_MS = 30 * 60_000;

/** `1.5 MB`, `12 KB`, `800 bytes`. */
function size(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} KB`;
  return `${bytes} bytes`;
}

/** One command to the upload service. */
async function command(client: ApiClient, name: string, params: Params, extra: { segment?: Uint8Array; method?: 'GET' } = {}): Promise<W.MediaUpload> {
  const res = await client.send<W.MediaUpload>({
    method: extra.method ?? 'POST',
    base: 'upload',
    path: UPLOAD_PATH,
    params: { command: name, ...params },
    ...(extra.segment === undefined ? {} : { multipart: [{ name: 'media', data: extra.segment, filename: 'blob' }] }),
    endpoint: `media.${name.toLowerCase()}`,
    budget: 'upload',
    idempotent: true,
  });
  return res.body;
}

/** The error of a video whose processing failed, or that did not finish within the wait allowed. */
function processingError(mediaId: string, code: string, message: string): ApiError {
  return new ApiError({ status: 200, items: [{ code, message }], retryable: false, outcome: 'rejected', request: `GET ${UPLOAD_PATH} STATUS ${mediaId}` });
}

/** The failure message the service gave in `processing_info.error`, if any. */
function failureMessage(info: NonNullable<W.MediaUpload['processing_info']>): string {
  const error = (info as { error?: { message?: unknown } }).error;
  return typeof error?.message === 'string' ? error.message : 'the service could not process the media';
}

/**
 * Uploads `file` in segments and waits for its processing; answers its media key. Throws
 * `ApiError` when the service refuses the media (its size, type or bytes) or fails to process it.
 */
export async function uploadMedia(client: ApiClient, file: MediaFile, options: UploadOptions = {}): Promise<UploadedMedia> {
  const sleep = options.sleep ?? ((ms: number) => client.wait(ms));
  const segmentBytes = Math.min(options.segmentBytes ?? SEGMENT_MAX_BYTES, SEGMENT_MAX_BYTES);
  if (!(segmentBytes >= 1)) throw new Error(`segmentBytes must be at least 1, got ${segmentBytes}`);
  const data = file.data;
  const total = data.byteLength;
  const owners = file.additionalOwners ?? [];
  const init = await command(client, 'INIT', {
    total_bytes: total,
    media_type: file.mimeType,
    media_category: file.category,
    ...(owners.length === 0 ? {} : { additional_owners: owners }),
  });
  const mediaId = init.media_id_string;
  for (let index = 0, at = 0; at < total; index++, at += segmentBytes) {
    const end = Math.min(at + segmentBytes, total);
    await command(client, 'APPEND', { media_id: mediaId, segment_index: index }, { segment: data.subarray(at, end) });
    options.onProgress?.(`uploaded ${size(end)} of ${size(total)}`);
  }
  let answer = await command(client, 'FINALIZE', { media_id: mediaId });
  let waited = 0;
  const limit = options.maxProcessingMs ?? DEFAULT_MAX_PROCESSING_MS;
  for (let info = answer.processing_info; info !== undefined && info.state !== 'succeeded'; info = answer.processing_info) {
    if (info.state === 'failed') throw processingError(mediaId, 'MEDIA_PROCESSING_FAILED', `media ${answer.media_key}: ${failureMessage(info)}`);
    const delay = Math.max(1, info.check_after_secs ?? 1) * 1000;
    if (waited + delay > limit) throw processingError(mediaId, 'MEDIA_PROCESSING_TIMEOUT', `media ${answer.media_key} was still processing after ${Math.round(waited / 1000)} s`);
    options.onProgress?.(`processing${info.progress_percent === undefined ? '' : ` ${info.progress_percent}%`}`);
    waited += delay;
    await sleep(delay);
    answer = await command(client, 'STATUS', { media_id: mediaId }, { method: 'GET' });
  }
  return { media_key: answer.media_key, media_id: answer.media_id_string, size: answer.size ?? total, response: answer };
}
