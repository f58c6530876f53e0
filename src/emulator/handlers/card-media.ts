/**
 * The `media_metadata` the service adds to the MEDIA and SWIPEABLE_MEDIA components of a card (also
 * inside `slides`), keyed by media key (docs/service-behaviour.md, "Cards"): the media's `type`
 * (IMAGE or VIDEO), `url`, `width` and `height` in pixels, and for a video `video_duration`
 * (milliseconds) and `video_aspect_ratio` (`16:9`). It is written when the card is saved, from the
 * uploads behind the (already checked) library media.
 */
import type { ApiContext } from '../context.js';
import type { Rec } from '../store/row.js';
import { aspectRatioLabel } from '../upload/aspect-ratio.js';
import { mediaUrl } from '../upload/uploaded-media.js';
import { libraryMedia } from './media-library-item.js';

/** The metadata of one library media key. */
function metadataOf(ctx: ApiContext, mediaKey: string): Rec {
  const { upload, mediaType, width, height } = libraryMedia(ctx, mediaKey, 'media_key');
  const base: Rec = { type: mediaType, url: mediaUrl(upload), width, height };
  return mediaType === 'VIDEO' ? { ...base, video_duration: Number(upload.rec['duration_ms']), video_aspect_ratio: aspectRatioLabel(width, height) } : base;
}

/** A component with `media_metadata` when it is a media component; others unchanged. */
function withMetadata(ctx: ApiContext, comp: Rec): Rec {
  const keys = comp['type'] === 'MEDIA' ? [String(comp['media_key'])] : comp['type'] === 'SWIPEABLE_MEDIA' ? (comp['media_keys'] as unknown[]).map(String) : undefined;
  if (keys === undefined) return comp;
  return { ...comp, media_metadata: Object.fromEntries(keys.map((k) => [k, metadataOf(ctx, k)])) };
}

/** Checked `components` or `slides` as the service stores and shows them, media metadata added. */
export function withMediaMetadata(ctx: ApiContext, parts: { components?: unknown; slides?: unknown }): Rec {
  const list = (l: unknown): Rec[] => (l as Rec[]).map((c) => withMetadata(ctx, c));
  return parts.slides === undefined ? { components: list(parts.components) } : { slides: (parts.slides as unknown[]).map(list) };
}
