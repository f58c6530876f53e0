/**
 * Media library items (Part B, Media library) as stored and shown, and the checks that other
 * resources share: which uploads an account may use (uploaded with a media category, owned by or
 * shared with the account's FULL promotable user, processed), and which media keys are in the
 * account's library (cards take only those). A library item is stored under
 * `<account id>/<media key>`; its `name` shows as `Untitled` while unset.
 */
import type { ApiContext } from '../context.js';
import { WireError, badRequest, notFound } from '../errors.js';
import type { Rec, Row } from '../store/row.js';
import { findUploadByKey, mediaUrl, ownersOf, type MediaType } from '../upload/uploaded-media.js';
import { accountIdOf, fullPromotableUser } from './common.js';

/** The label of an item whose name is unset. */
const UNTITLED = 'Untitled';

/** The store id of `mediaKey` in an account's library. */
export const libraryId = (accountId: string, mediaKey: string): string => `${accountId}/${mediaKey}`;

/**
 * The media key of a video's first frame, its poster while none is set: the service keeps the
 * frame as an image, `3_` and the video's id (`13_909110614026444802` → `3_909110614026444802`).
 */
export const firstFrameKey = (videoKey: string): string => videoKey.replace(/^\d+_/, '3_');

/** A library item as the wire shows it: `poster_media_key` is null but for videos. */
export function libraryWire(row: Row): Rec {
  const video = row.rec['media_type'] === 'VIDEO';
  const poster = row.rec['poster_media_key'] ?? (video ? firstFrameKey(String(row.rec['media_key'])) : null);
  return { ...row.rec, name: row.rec['name'] ?? UNTITLED, poster_media_key: poster };
}

/** 404 MEDIA_NOT_FOUND for a media key named in a parameter. */
const mediaNotFound = (mediaKey: string, parameter: string, where: string): WireError =>
  new WireError(404, [{ code: 'MEDIA_NOT_FOUND', message: `Media ${mediaKey} was not found ${where}`, parameter }]);

/** 400 INVALID_MEDIA: media that exists but does not suit the request. */
export const invalidMedia = (message: string, parameter: string): WireError => badRequest('INVALID_MEDIA', message, parameter);

/**
 * The upload behind `mediaKey` if the path's account may put it in its library: uploaded with a
 * media category, owned by the account's FULL promotable user or listing it in additional_owners,
 * and (for a video) processed. `types` narrows the media types accepted.
 */
export function usableUpload(ctx: ApiContext, mediaKey: string, parameter: string, types?: readonly MediaType[]): Row {
  const upload = findUploadByKey(ctx.store, mediaKey);
  if (upload === undefined || upload.rec['state'] === 'uploading') throw mediaNotFound(mediaKey, parameter, 'among uploaded media');
  const advertiser = fullPromotableUser(ctx);
  if (advertiser === null || !ownersOf(upload).includes(advertiser)) {
    throw invalidMedia(`Media ${mediaKey} is not owned by user ${String(advertiser)}, the advertiser of Account ${accountIdOf(ctx)}; upload it with additional_owners=${String(advertiser)}`, parameter);
  }
  if (upload.rec['media_category'] === null) throw invalidMedia(`Media ${mediaKey} was uploaded without a media_category`, parameter);
  if (upload.rec['state'] !== 'ready') throw invalidMedia(`Media ${mediaKey} is still processing; ask STATUS until it has succeeded`, parameter);
  if (types !== undefined && !types.includes(upload.rec['media_type'] as MediaType)) {
    throw invalidMedia(`Media ${mediaKey} is ${String(upload.rec['media_type'])}; expected ${types.join(' or ')}`, parameter);
  }
  return upload;
}

/** Library media of the path's account: the item and its upload (for the real width and height). */
interface LibraryMedia {
  item: Row;
  upload: Row;
  mediaType: MediaType;
  width: number;
  height: number;
}

/** `mediaKey` from the path's account library (not deleted), or 404 MEDIA_NOT_FOUND naming `parameter`. */
export function libraryMedia(ctx: ApiContext, mediaKey: string, parameter: string): LibraryMedia {
  const item = ctx.store.get('media_library', libraryId(accountIdOf(ctx), mediaKey));
  const upload = findUploadByKey(ctx.store, mediaKey);
  if (item === undefined || item.rec['deleted'] === true || upload === undefined) throw mediaNotFound(mediaKey, parameter, `in the media library of Account ${accountIdOf(ctx)}`);
  return { item, upload, mediaType: upload.rec['media_type'] as MediaType, width: Number(upload.rec['width']), height: Number(upload.rec['height']) };
}

/** The library item of the path's `:media_key`; 404 NOT_FOUND when absent or deleted. */
export function findLibraryItem(ctx: ApiContext): Row {
  const key = ctx.pathParams['media_key'] ?? '';
  const row = ctx.store.get('media_library', libraryId(accountIdOf(ctx), key));
  if (row === undefined || row.rec['deleted'] === true) throw notFound('Media Library', key, accountIdOf(ctx), 'media_key');
  return row;
}

/** The poster URL of a video: its first frame unless a poster image is set. */
export function posterUrl(video: Row, poster: Row | undefined): string {
  return poster === undefined ? `https://media.example.invalid/${String(video.rec['media_key'])}/first-frame.jpg` : mediaUrl(poster);
}
