/**
 * Media files on this machine: their content hash (the identity of an upload), their MIME type
 * from the extension, the largest file the upload service takes of each type, reading one into
 * the manifest's media entry (read and hashed then, so an edited file is seen by every plan), and
 * reading one at apply time, refused when it no longer matches the plan. A file is read only when
 * it is a regular file inside the project root within its type's limit (local-file.ts).
 */
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { quoteValue } from '../diag/quote.js';
import { SERVICE_LIMITS } from '../service/limits.js';
import type { WriteContext } from './descriptor.js';
import { childPointer, idValue, stringValue } from './entry-nodes.js';
import type { FileLimit } from './local-file.js';
import type { EntryReader } from './manifest-reading.js';
import { LocalWriteError } from './write-error.js';

/** The identity of a file's content: `sha256:<hex>`. */
export function contentHashOf(data: Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

const MIME: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
};

/** The media_category a file is uploaded with when the manifest names none, by its MIME type. */
const CATEGORY: Readonly<Record<string, string>> = {
  'image/jpeg': 'TWEET_IMAGE',
  'image/png': 'TWEET_IMAGE',
  'image/webp': 'TWEET_IMAGE',
  'image/gif': 'TWEET_GIF',
  'video/mp4': 'TWEET_VIDEO',
  'video/quicktime': 'TWEET_VIDEO',
};

/** The largest file of each media type the upload service takes (docs/service-behaviour.md, "File sizes"). */
const IMAGE_LIMIT: FileLimit = { bytes: SERVICE_LIMITS.mediaImageBytes, what: 'an image' };
const LIMITS: Readonly<Record<string, FileLimit>> = {
  'image/gif': { bytes: SERVICE_LIMITS.mediaGifBytes, what: 'a GIF' },
  'video/mp4': { bytes: SERVICE_LIMITS.mediaVideoBytes, what: 'a video' },
  'video/quicktime': { bytes: SERVICE_LIMITS.mediaVideoBytes, what: 'a video' },
};

/** The media file types adsctl uploads, by extension. */
export const MEDIA_TYPES = {
  extensions: Object.keys(MIME),
  /** The MIME type of `path` by its extension, or undefined for an extension the service does not take. */
  mimeOf(path: string): string {
    return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
  },
  known(path: string): boolean {
    return Object.hasOwn(MIME, extname(path).toLowerCase());
  },
  /** The media_category of `path` when the manifest names none: images TWEET_IMAGE, GIFs TWEET_GIF, videos TWEET_VIDEO. */
  categoryOf(path: string): string | undefined {
    return CATEGORY[MIME[extname(path).toLowerCase()] ?? ''];
  },
  /** The largest file of `path`'s type the upload service takes: images 5 MiB, GIFs 15 MiB, videos 512 MiB. */
  limitOf(path: string): FileLimit {
    return LIMITS[MIME[extname(path).toLowerCase()] ?? ''] ?? IMAGE_LIMIT;
  },
};

/**
 * The bytes of the media file `path`, refused unless it is still a file adsctl reads (a regular
 * file inside the project root, within its type's limit) and its bytes still hash to `expected`
 * (what the plan saw).
 */
export async function readMediaFile(ctx: WriteContext, path: string, expected: string, address: string): Promise<Buffer> {
  let data: Buffer;
  try {
    data = await ctx.readFile(path, MEDIA_TYPES.limitOf(path));
  } catch (error) {
    if (error instanceof LocalWriteError) throw new LocalWriteError(`${address}: nothing was sent: ${error.message}`);
    throw new LocalWriteError(`${address}: cannot read ${ctx.filePath(path)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (contentHashOf(data) !== expected) throw new LocalWriteError(`${address}: ${ctx.filePath(path)} changed since the plan was made; plan again`);
  return data;
}

/**
 * `media: hero` → the media's file read and hashed, its media_category the one given or else the
 * one its type implies; or, with `id`, the library item it names bound as it is (no file: adsctl
 * does not have its bytes). One of the two is needed.
 */
export const readMediaEntry: EntryReader = (ctx, resource, map, pointer) => {
  const id = map.byKey.get('id');
  const entry = map.byKey.get('file');
  const name = resource.address.steps.at(-1)?.key ?? '';
  if (id !== undefined) {
    const value = idValue(id.value);
    if (value === 'invalid') ctx.report(childPointer(pointer, 'id'), 'id-format', `id ${ctx.textOf(id.value.start, id.value.end)} is not an id as written; write ids as quoted strings`, ctx.rangeOf(id.value));
    else if (value !== undefined) {
      resource.importId = value;
      resource.namedById = true;
    }
    for (const field of ['file', 'media_category']) {
      const given = map.byKey.get(field);
      if (given !== undefined) ctx.report(childPointer(pointer, field), 'media-content', `media ${quoteValue(name)} names an existing library item by id, so it takes no ${field}: adsctl never uploads it`, ctx.rangeOf(given.value));
    }
    return;
  }
  if (entry === undefined) {
    ctx.report(pointer, 'missing-field', `media ${quoteValue(name)} needs file (a file to upload), or id (an item already in the media library)`, resource.source);
    return;
  }
  const path = stringValue(entry?.value);
  if (entry === undefined || path === undefined) return;
  const at = childPointer(pointer, 'file');
  const range = ctx.rangeOf(entry.value);
  if (!MEDIA_TYPES.known(path)) {
    ctx.report(at, 'media-type', `file ${quoteValue(path)} is not an image, GIF or video adsctl can upload (${MEDIA_TYPES.extensions.join(', ')})`, range);
    return;
  }
  const read = ctx.readFile(path, MEDIA_TYPES.limitOf(path));
  if (read.problem !== undefined) {
    ctx.report(at, read.problem.code, read.problem.message, range);
    return;
  }
  const data = read.bytes;
  resource.attributes['file'] = path;
  resource.attributeSources['file'] = range;
  if (!map.byKey.has('media_category')) {
    // an explicit media_category overrides this (AMPLIFY_VIDEO, say)
    resource.attributes['media_category'] = MEDIA_TYPES.categoryOf(path);
    resource.attributeSources['media_category'] = range;
  }
  resource.attributes['file_size'] = data.length;
  resource.attributeSources['file_size'] = range;
  resource.attributes['content_hash'] = contentHashOf(data);
  resource.attributeSources['content_hash'] = range;
};
