/**
 * Uploaded media as the upload service keeps them (store kind `media`, keyed by media id): the
 * declared type and size, the owners, the media category, and once finalized the real size read
 * from the bytes. Media keys carry the service's type prefixes (`3_` image, `16_` GIF, `13_`
 * video). A video is processed after FINALIZE; each STATUS call moves it one step forward, so
 * a client polling STATUS sees pending, then in_progress, then succeeded, with no real timers.
 */
import type { Rec, Row } from '../store/row.js';
import type { Store } from '../store/store.js';
import type { MediaMime } from './media-probe.js';

/** The media types of the media library (Part B enumerations). */
export type MediaType = 'IMAGE' | 'GIF' | 'VIDEO';

/** Where an upload stands: receiving segments, processing (videos), or usable. */
type UploadState = 'uploading' | 'processing' | 'ready';

/** The largest upload of each media type, in bytes. */
export const SIZE_LIMITS: Record<MediaType, number> = { IMAGE: 5 * 1024 * 1024, GIF: 15 * 1024 * 1024, VIDEO: 512 * 1024 * 1024 };

/** The media type of each accepted MIME type. */
export const MEDIA_TYPE_OF: Record<MediaMime, MediaType> = { 'image/png': 'IMAGE', 'image/jpeg': 'IMAGE', 'image/gif': 'GIF', 'video/mp4': 'VIDEO' };

const KEY_PREFIX: Record<MediaType, string> = { IMAGE: '3', GIF: '16', VIDEO: '13' };

/** The media categories each media type may be uploaded with. */
export const CATEGORIES: Record<MediaType, readonly string[]> = { IMAGE: ['TWEET_IMAGE'], GIF: ['TWEET_GIF'], VIDEO: ['TWEET_VIDEO', 'AMPLIFY_VIDEO'] };

const EXTENSION: Record<MediaMime, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'video/mp4': 'mp4' };

/** What an upload starts from (INIT, or a simple upload before its bytes are checked). */
interface NewUpload {
  mime: MediaMime;
  totalBytes: number;
  category: string | null;
  ownerUserId: string;
  additionalOwners: readonly string[];
}

/** Records a new upload in state `uploading`; must run inside a store transaction. */
export function createUpload(store: Store, upload: NewUpload): Row {
  const id = store.newSnowflake();
  const mediaType = MEDIA_TYPE_OF[upload.mime];
  return store.insert(
    'media',
    id,
    '',
    {
      media_id: id,
      media_key: `${KEY_PREFIX[mediaType]}_${id}`,
      media_type: mediaType,
      mime: upload.mime,
      total_bytes: upload.totalBytes,
      media_category: upload.category,
      width: null,
      height: null,
      duration_ms: null,
      state: 'uploading' satisfies UploadState,
      processing_step: 0,
    },
    { owner_user_id: upload.ownerUserId, additional_owners: [...upload.additionalOwners] },
  );
}

/** The uploaded media with this media key, or undefined. */
export function findUploadByKey(store: Store, mediaKey: string): Row | undefined {
  const m = /^(?:3|13|16)_(\d{1,20})$/.exec(mediaKey);
  const row = m === null ? undefined : store.get('media', m[1]!);
  return row?.rec['media_key'] === mediaKey ? row : undefined;
}

/** The users who own an upload: the uploader and its `additional_owners`. */
export function ownersOf(row: Row): string[] {
  return [String(row.ext['owner_user_id']), ...((row.ext['additional_owners'] as string[] | undefined) ?? [])];
}

/** Where the service serves the media's bytes. */
export function mediaUrl(row: Row): string {
  return `https://media.example.invalid/${String(row.rec['media_key'])}.${EXTENSION[row.rec['mime'] as MediaMime]}`;
}

/** The processing report of a video after FINALIZE: pending, in_progress, then succeeded. */
export function processingInfo(row: Row): Rec {
  const step = Number(row.rec['processing_step']);
  if (row.rec['state'] === 'ready') return { state: 'succeeded', progress_percent: 100 };
  return step === 0 ? { state: 'pending', check_after_secs: 1, progress_percent: 0 } : { state: 'in_progress', check_after_secs: 1, progress_percent: 50 };
}

/** One STATUS call's worth of processing; must run inside a store transaction. */
export function advanceProcessing(store: Store, row: Row): void {
  if (row.rec['state'] !== 'processing') return;
  const step = Number(row.rec['processing_step']) + 1;
  store.update(row, { processing_step: step, ...(step >= 2 ? { state: 'ready' satisfies UploadState } : {}) });
}

/** Records the bytes' real size and moves the upload on (videos to processing, the rest to ready). */
export function finalizeUpload(store: Store, row: Row, size: number, width: number, height: number, durationMs: number | undefined): void {
  const video = row.rec['media_type'] === 'VIDEO';
  store.update(row, { size, width, height, duration_ms: video ? (durationMs ?? 0) : null, state: (video ? 'processing' : 'ready') satisfies UploadState });
}
