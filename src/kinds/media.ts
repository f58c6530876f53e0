/**
 * A media file of the manifest (Part B, Media library, and the upload service): a local image,
 * GIF or video, uploaded in chunks and added to the account's media library. The file's content
 * hash is its identity: an edited file is uploaded anew (a replacement, the old item stays in the
 * library, which has no DELETE), an unchanged one never again. `name`, `file_name`, `title` and
 * `description` change in place. The library item's `media_key` is the live id. An entry with
 * `id` names an item already in the library, whose bytes adsctl does not have: it is bound, never
 * uploaded (what `adsctl generate` writes for the account's library).
 */
import { basename } from 'node:path';
import { SEGMENT_MAX_BYTES } from '../api/upload.js';
import type { Media } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { firstText } from './write-back.js';
import { MEDIA_TYPES, readMediaEntry, readMediaFile } from './media-file.js';
import { manifestFields } from './manifest-fields.js';

const LIBRARY_FIELDS = ['name', 'file_name', 'title', 'description'] as const;

function libraryParams(params: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of LIBRARY_FIELDS) if (typeof params[f] === 'string') out[f] = params[f];
  return out;
}

/** A media file. */
export const MEDIA: KindDescriptor = {
  kind: 'media',
  noun: 'media item',
  parent: 'account',
  address: { collection: 'media', key: 'name' },
  manifest: manifestFields<Media>('Media', { plain: ['media_category', 'name', 'file_name', 'title', 'description'], special: ['id', 'file'], read: readMediaEntry }),
  generate: { nameOf: firstText('name', 'file_name'), comment: 'library items named by id: adsctl does not have their files, and never uploads them', byId: true, oneLine: true },
  attributes: [
    { ...field('file', 'scalar', 'update'), informational: true },
    { ...field('file_size', 'scalar', 'update'), informational: true },
    { ...required('content_hash', 'scalar', 'replace'), writeOnly: true },
    { ...required('media_category', 'scalar', 'replace'), writeOnly: true },
    field('name', 'scalar', 'update'),
    { field: 'file_name', shape: 'scalar', change: 'update', fallback: (after) => (typeof after['file'] === 'string' ? basename(after['file']) : undefined) },
    field('title', 'scalar', 'update'),
    field('description', 'scalar', 'update'),
  ],
  computed: ['media_key', 'media_type', 'media_url', 'poster_media_key', 'media_status', 'duration', 'aspect_ratio', 'created_at', 'updated_at', 'deleted'],
  read: {
    via: 'custom',
    idField: 'media_key',
    read: async (api, accountId, { bound }) => (bound.size === 0 ? [] : (await api.mediaLibrary(accountId)).filter((r) => bound.has(String(r['media_key'])))),
    whole: async (api, accountId) => await api.mediaLibrary(accountId),
  },
  write: {
    create: {
      via: 'single',
      send: async (api, accountId, item, ctx) => {
        const path = String(item.params['file']);
        const data = await readMediaFile(ctx, path, String(item.params['content_hash']), item.address);
        const category = String(item.params['media_category']);
        const uploaded = await api.uploadMedia(
          { data, mimeType: MEDIA_TYPES.mimeOf(path), category },
          { onProgress: (message: string) => ctx.progress(item.address, message) },
        );
        await api.addToMediaLibrary(accountId, { media_key: uploaded.media_key, ...libraryParams(item.params) });
        return uploaded.media_key;
      },
      // INIT, one APPEND a segment, FINALIZE, and the library's POST (a video's STATUS polls come on top)
      requests: (params) => 3 + Math.max(1, Math.ceil(Number(params['file_size'] ?? 0) / SEGMENT_MAX_BYTES)),
    },
    update: {
      via: 'single',
      send: async (api, accountId, item) => {
        await api.updateMediaLibraryItem(accountId, item.id ?? '', libraryParams(item.params));
        return item.id ?? '';
      },
    },
  },
  // an imported library item is taken to hold the manifest's file (the service shows no content hash)
  import: { via: 'read' },
  replaceOrder: 'create-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
};
