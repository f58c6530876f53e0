/**
 * The media upload service at `upload_base_url` + `/1.1/media/upload.json` (docs/architecture.md): a simple
 * multipart upload of an image or GIF, and the chunked commands for any media: INIT (declares
 * total_bytes and media_type), APPEND (segments of at most 5 MB, as a multipart `media` part or
 * base64 `media_data`), FINALIZE (checks the segments add up, reads the real format and size from
 * the bytes) and STATUS (a video's processing, one step further on each call). Every answer
 * carries media_id as a JSON number with all its digits, media_id_string and media_key; images
 * and GIFs add `image` with the size read from the bytes, videos `processing_info`. Size limits:
 * images 5 MB, GIFs 15 MB, videos 512 MB. Errors use the version 1.1 dialect (integer codes).
 */
import { pageDoesNotExist, parameterInvalid, parameterMissing } from '../auth/token-errors.js';
import type { RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import type { Rec, Row } from '../store/row.js';
import { probeMedia, type MediaMime, type MediaProbe } from './media-probe.js';
import { intField, invalidMedia, mediaBytes, readUploadRequest, type UploadDeps, type UploadRequest } from './upload-request.js';
import {
  CATEGORIES,
  MEDIA_TYPE_OF,
  SIZE_LIMITS,
  advanceProcessing,
  createUpload,
  finalizeUpload,
  ownersOf,
  processingInfo,
  type MediaType,
} from './uploaded-media.js';

/** The path of the upload endpoint below `upload_base_url`. */
const UPLOAD_PATH = '/1.1/media/upload.json';

const SEGMENT_MAX = 5 * 1024 * 1024;
const EXPIRES_AFTER_SECS = 86_400;
const ADDITIONAL_OWNERS_MAX = 100;

/** Serves one request to the upload service; throws a `WireError` in the 1.1 dialect for error answers. */
export function handleUploadRequest(deps: UploadDeps, req: ParsedRequest): RawResponse {
  if (req.path !== UPLOAD_PATH) throw pageDoesNotExist();
  const up = readUploadRequest(deps, req);
  const command = up.fields.get('command');
  const method = command === 'STATUS' ? 'GET' : 'POST';
  if (req.method !== method) throw pageDoesNotExist();
  switch (command) {
    case undefined:
      return simpleUpload(deps, up);
    case 'INIT':
      return init(deps, up);
    case 'APPEND':
      return append(deps, up);
    case 'FINALIZE':
      return finalize(deps, up);
    case 'STATUS':
      return status(deps, up);
    default:
      throw parameterInvalid('command');
  }
}

/** `media_category`, case-insensitive, checked against what `mediaType` may be uploaded as. */
function readCategory(up: UploadRequest, mediaType: MediaType): string | null {
  const raw = up.fields.get('media_category');
  if (raw === undefined) return null;
  const category = raw.toUpperCase();
  if (!CATEGORIES[mediaType].includes(category)) throw parameterInvalid('media_category');
  return category;
}

function readOwners(up: UploadRequest): string[] {
  const raw = up.fields.get('additional_owners');
  if (raw === undefined || raw === '') return [];
  const ids = raw.split(',').map((s) => s.trim());
  if (ids.length > ADDITIONAL_OWNERS_MAX || ids.some((id) => !/^\d{1,20}$/.test(id))) throw parameterInvalid('additional_owners');
  return [...new Set(ids)];
}

function checkSize(mediaType: MediaType, bytes: number): void {
  if (bytes > SIZE_LIMITS[mediaType]) throw invalidMedia(`File size exceeds ${SIZE_LIMITS[mediaType]} bytes.`);
}

/** The upload of `media_id` that the caller owns, or 400 code 44. */
function ownUpload(deps: UploadDeps, up: UploadRequest): Row {
  const id = up.fields.get('media_id');
  if (id === undefined) throw parameterMissing('media_id');
  const row = /^\d{1,20}$/.test(id) ? deps.store.get('media', id) : undefined;
  if (row === undefined || !ownersOf(row).includes(up.userId)) throw parameterInvalid('media_id');
  return row;
}

/** A JSON answer whose media_id is a number with every digit (beyond what a double holds). */
function mediaResponse(status: number, row: Row, extra: Rec = {}): RawResponse {
  const rest = JSON.stringify({ media_id_string: row.id, media_key: row.rec['media_key'], ...extra });
  return { status, contentType: 'application/json; charset=utf-8', body: `{"media_id":${row.id},${rest.slice(1)}`, headers: {} };
}

/** The answer for finalized media: size, and the picture size or the processing state. */
function finishedResponse(row: Row): RawResponse {
  const base: Rec = { size: row.rec['size'], expires_after_secs: EXPIRES_AFTER_SECS };
  if (row.rec['media_type'] !== 'VIDEO') return mediaResponse(200, row, { ...base, image: { image_type: row.rec['mime'], w: row.rec['width'], h: row.rec['height'] } });
  const ready = row.rec['state'] === 'ready';
  return mediaResponse(200, row, { ...base, processing_info: processingInfo(row), ...(ready ? { video: { video_type: row.rec['mime'] } } : {}) });
}

function probeAs(bytes: Buffer, declared: MediaMime | undefined): MediaProbe {
  const probe = probeMedia(bytes);
  if (probe === undefined) throw invalidMedia('Media type unrecognized: the bytes are no PNG, JPEG, GIF or MP4 with a readable size.');
  if (declared !== undefined && probe.mime !== declared) throw invalidMedia(`The bytes are ${probe.mime}, not the media_type ${declared} given at INIT.`);
  return probe;
}

function simpleUpload(deps: UploadDeps, up: UploadRequest): RawResponse {
  const bytes = mediaBytes(up);
  if (bytes === undefined) throw parameterMissing('media');
  const probe = probeAs(bytes, undefined);
  const mediaType = MEDIA_TYPE_OF[probe.mime];
  if (mediaType === 'VIDEO') throw invalidMedia('Videos are uploaded with the chunked commands INIT, APPEND and FINALIZE.');
  checkSize(mediaType, bytes.length);
  const category = readCategory(up, mediaType);
  const owners = readOwners(up);
  const row = deps.store.transaction(() => {
    const created = createUpload(deps.store, { mime: probe.mime, totalBytes: bytes.length, category, ownerUserId: up.userId, additionalOwners: owners });
    finalizeUpload(deps.store, created, bytes.length, probe.width, probe.height, probe.durationMs);
    return created;
  });
  return finishedResponse(row);
}

function init(deps: UploadDeps, up: UploadRequest): RawResponse {
  const totalBytes = intField(up, 'total_bytes', 1, Number.MAX_SAFE_INTEGER);
  if (totalBytes === undefined) throw parameterMissing('total_bytes');
  const mime = up.fields.get('media_type');
  if (mime === undefined) throw parameterMissing('media_type');
  if (!Object.hasOwn(MEDIA_TYPE_OF, mime)) throw parameterInvalid('media_type');
  const mediaType = MEDIA_TYPE_OF[mime as MediaMime];
  checkSize(mediaType, totalBytes);
  const category = readCategory(up, mediaType);
  const owners = readOwners(up);
  const row = deps.store.transaction(() =>
    createUpload(deps.store, { mime: mime as MediaMime, totalBytes, category, ownerUserId: up.userId, additionalOwners: owners }),
  );
  return mediaResponse(200, row, { expires_after_secs: EXPIRES_AFTER_SECS });
}

function append(deps: UploadDeps, up: UploadRequest): RawResponse {
  const row = ownUpload(deps, up);
  if (row.rec['state'] !== 'uploading') throw parameterInvalid('media_id');
  const index = intField(up, 'segment_index', 0, 999);
  if (index === undefined) throw parameterMissing('segment_index');
  const bytes = mediaBytes(up);
  if (bytes === undefined) throw parameterMissing('media');
  if (bytes.length > SEGMENT_MAX) throw invalidMedia(`Segment size exceeds ${SEGMENT_MAX} bytes.`);
  if (deps.segments.received(row.id, index) + bytes.length > Number(row.rec['total_bytes'])) {
    throw invalidMedia('Segments exceed the total_bytes given at INIT.');
  }
  deps.segments.put(row.id, index, bytes);
  return { status: 204, contentType: 'text/plain; charset=utf-8', body: '', headers: {} };
}

function finalize(deps: UploadDeps, up: UploadRequest): RawResponse {
  const row = ownUpload(deps, up);
  if (row.rec['state'] !== 'uploading') return finishedResponse(row);
  if (deps.segments.received(row.id) !== Number(row.rec['total_bytes'])) throw invalidMedia('Segments do not add up to provided total file size.');
  const bytes = deps.segments.joined(row.id);
  const probe = probeAs(bytes, row.rec['mime'] as MediaMime);
  deps.store.transaction(() => finalizeUpload(deps.store, row, bytes.length, probe.width, probe.height, probe.durationMs));
  deps.segments.drop(row.id);
  return finishedResponse(row);
}

function status(deps: UploadDeps, up: UploadRequest): RawResponse {
  const row = ownUpload(deps, up);
  if (row.rec['state'] === 'uploading') throw parameterInvalid('media_id');
  deps.store.transaction(() => advanceProcessing(deps.store, row));
  return finishedResponse(row);
}
