/**
 * A post's content as the manifest writes it (posts, draft posts, scheduled posts): `media` by
 * logical name become `media_keys` references, and a post needs text, media or both.
 */
import { quoteValue } from '../diag/quote.js';
import { asSeq, childPointer } from './entry-nodes.js';
import type { EntryReader } from './manifest-reading.js';

/** A post's `media` (logical names) as `media_keys` references. */
const readPostMedia: EntryReader = (ctx, resource, map, pointer) => {
  const media = map.byKey.get('media');
  if (media === undefined) return;
  const raw = map.byKey.get('media_keys');
  if (raw !== undefined) {
    ctx.report(childPointer(pointer, 'media'), 'reference-conflict', 'media and media_keys both say which media to attach; keep one', ctx.rangeOf(media.value), [{ message: 'media_keys is set here', range: ctx.rangeOf(raw.value) }]);
    return;
  }
  const at = childPointer(pointer, 'media');
  const refs = (asSeq(media.value)?.items ?? []).map((item, i) => {
    const ref = ctx.reference(item, childPointer(at, i), 'media', 'media');
    if (ref !== undefined) resource.references[`media_keys[${i}]`] = ref.$target;
    return ref;
  });
  if (refs.some((r) => r === undefined)) return;
  resource.attributes['media_keys'] = refs;
  resource.attributeSources['media_keys'] = ctx.rangeOf(media.value);
};

/** Checks a post has text or media. */
const checkPostContent: EntryReader = (ctx, resource, map, pointer) => {
  if (!map.byKey.has('text') && !map.byKey.has('media') && !map.byKey.has('media_keys')) {
    ctx.report(pointer, 'missing-field', `post ${quoteValue(resource.address.steps[0]?.key ?? '')} needs text, media or both`, resource.source);
  }
};

/** A post's media, then the check that it has content. */
export const readPostContent: EntryReader = (ctx, resource, map, pointer) => {
  readPostMedia(ctx, resource, map, pointer);
  checkPostContent(ctx, resource, map, pointer);
};
