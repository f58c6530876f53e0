/**
 * The media library (Part B, Media library): uploaded media an account keeps for its creatives,
 * by media key. POST takes a `media_key` the account may use (see `usableUpload`), `name` (100),
 * `file_name` (255), and for videos only `title` (70), `description` (200) and `poster_media_key`
 * (an uploaded image; the first frame otherwise, whose key records show). PUT changes the same fields (an empty value
 * unsets one) and ignores read-only fields sent back unchanged. A video uploaded as AMPLIFY_VIDEO
 * also becomes a PREROLL account media asset. The list pages by 20 (at most 50), filters on
 * `media_type`, and `q` matches whole terms of name, title, file_name and description,
 * case-insensitively. DELETE hides an item; posting its key again brings it back with new values.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { badRequest, invalidParameter } from '../errors.js';
import { listPage, readListParams } from '../list.js';
import type { ParamReader } from '../params.js';
import type { Rec, Row } from '../store/row.js';
import { aspectRatioLabel } from '../upload/aspect-ratio.js';
import { findUploadByKey, mediaUrl, type MediaType } from '../upload/uploaded-media.js';
import { accountIdOf, now } from './common.js';
import { findLibraryItem, firstFrameKey, libraryId, libraryWire, posterUrl, usableUpload } from './media-library-item.js';

const MEDIA_TYPES = ['GIF', 'IMAGE', 'VIDEO'] as const;
const VIDEO_ONLY = ['title', 'description', 'poster_media_key'] as const;
const READ_ONLY = ['aspect_ratio', 'created_at', 'deleted', 'duration', 'media_status', 'media_type', 'media_url', 'poster_media_url', 'tweeted', 'updated_at'] as const;

/** Whole-word, case-insensitive match of every term of `q` against the item's texts. */
function termMatch(q: string, rec: Rec): boolean {
  const words = new Set(
    ['name', 'title', 'file_name', 'description'].flatMap((f) => (typeof rec[f] === 'string' ? (rec[f] as string).toLowerCase().split(/[^\p{L}\p{N}]+/u) : [])),
  );
  return q.toLowerCase().split(/\s+/).filter((t) => t !== '').every((t) => words.has(t));
}

function listLibrary(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { countDefault: 20, countMax: 50, withDeleted: false, withTotalCount: false });
  const mediaType = p.oneOf('media_type', MEDIA_TYPES);
  const term = p.string('q', { min: 1, max: 255 });
  p.finish();
  const keep = (row: Row): boolean => (mediaType === undefined || row.rec['media_type'] === mediaType) && (typeof term !== 'string' || termMatch(term, row.rec));
  return { body: listPage(p, q, ctx.store.table('media_library').ofAccount(accountIdOf(ctx)), keep, libraryWire) };
}

/**
 * The writable fields sent, checked against the upload's media type (`null`: unset by an empty
 * value). A `poster_media_key` equal to the item's `current` one is sent back unchanged (SDKs send
 * every field on update, the first frame's key too) and ignored.
 */
function readFields(ctx: ApiContext, p: ParamReader, upload: Row | undefined, current?: Rec): Rec {
  const fields: Rec = {};
  const put = (name: string, value: unknown): void => {
    if (value !== undefined) fields[name] = value;
  };
  put('name', p.string('name', { max: 100, nullable: true }));
  put('file_name', p.string('file_name', { max: 255, nullable: true }));
  put('title', p.string('title', { max: 70, nullable: true }));
  put('description', p.string('description', { max: 200, nullable: true }));
  const poster = p.string('poster_media_key', { nullable: true });
  if (upload === undefined) return fields;
  if (upload.rec['media_type'] !== 'VIDEO') {
    const sent = { title: fields['title'], description: fields['description'], poster_media_key: poster };
    for (const f of VIDEO_ONLY) if (typeof sent[f] === 'string') p.fail(invalidParameter(f, `${f} is only for videos`));
    return fields;
  }
  if (typeof poster === 'string' && poster !== current?.['poster_media_key']) {
    fields['poster_media_url'] = mediaUrl(usableUpload(ctx, poster, 'poster_media_key', ['IMAGE']));
    fields['poster_media_key'] = poster;
  }
  if (poster === null) Object.assign(fields, { poster_media_url: posterUrl(upload, undefined), poster_media_key: firstFrameKey(String(upload.rec['media_key'])) });
  return fields;
}

/** The PREROLL account media asset of an AMPLIFY_VIDEO upload, unless the account has it already. */
function addPreroll(ctx: ApiContext, upload: Row, time: string): void {
  const accountId = accountIdOf(ctx);
  const key = upload.rec['media_key'];
  if (ctx.store.table('account_media').ofAccount(accountId).some((r) => r.rec['media_key'] === key && r.rec['deleted'] !== true)) return;
  const id = ctx.store.newId();
  ctx.store.insert('account_media', id, accountId, { id, media_key: key, creative_type: 'PREROLL', media_url: mediaUrl(upload), created_at: time, updated_at: time, deleted: false });
}

function postLibrary(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const key = p.string('media_key', { required: true });
  const fields = readFields(ctx, p, typeof key === 'string' ? findUploadByKey(ctx.store, key) : undefined);
  p.finish();
  const usable = usableUpload(ctx, key!, 'media_key');
  const mediaType = usable.rec['media_type'] as MediaType;
  const id = libraryId(accountIdOf(ctx), key!);
  const existing = ctx.store.get('media_library', id);
  if (existing !== undefined && existing.rec['deleted'] !== true) throw badRequest('INVALID_PARAMETER', `Media ${key!} is already in the media library`, 'media_key');
  const time = now(ctx);
  const video = mediaType === 'VIDEO';
  const rec: Rec = {
    media_key: key,
    media_type: mediaType,
    name: null,
    title: null,
    description: null,
    file_name: null,
    media_url: mediaUrl(usable),
    poster_media_url: video ? posterUrl(usable, undefined) : null,
    poster_media_key: video ? firstFrameKey(key!) : null,
    aspect_ratio: aspectRatioLabel(Number(usable.rec['width']), Number(usable.rec['height'])),
    ...(video ? { duration: usable.rec['duration_ms'] } : {}),
    media_status: 'TRANSCODE_COMPLETED',
    tweeted: false,
    created_at: time,
    updated_at: time,
    deleted: false,
    ...fields,
  };
  const row = existing === undefined ? ctx.store.insert('media_library', id, accountIdOf(ctx), rec) : ctx.store.update(existing, rec);
  if (usable.rec['media_category'] === 'AMPLIFY_VIDEO') addPreroll(ctx, usable, time);
  return { status: 201, body: single(p, libraryWire(row)) };
}

function putLibrary(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const row = findLibraryItem(ctx);
  const wire = libraryWire(row);
  p.readOnly(READ_ONLY, wire);
  const fields = readFields(ctx, p, findUploadByKey(ctx.store, String(row.rec['media_key'])), wire);
  p.finish();
  ctx.store.update(row, { ...fields, updated_at: now(ctx) });
  return { body: single(p, libraryWire(row)) };
}

function getLibrary(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  return { body: single(ctx.params, libraryWire(findLibraryItem(ctx))) };
}

function deleteLibrary(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findLibraryItem(ctx);
  ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
  return { body: single(ctx.params, libraryWire(row)) };
}

const COLLECTION = '/12/accounts/:account_id/media_library';

/** The media library endpoints. */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'account_read', access: 'read', handler: listLibrary },
  { method: 'GET', path: `${COLLECTION}/:media_key`, family: 'account_read', access: 'read', handler: getLibrary },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'creative', handler: postLibrary },
  { method: 'PUT', path: `${COLLECTION}/:media_key`, family: 'write', access: 'creative', handler: putLibrary },
  { method: 'DELETE', path: `${COLLECTION}/:media_key`, family: 'write', access: 'creative', handler: deleteLibrary },
];
