/**
 * A card's `components` or `slides` as the manifest writes them: media named by logical name
 * (`media: hero`, or a list for SWIPEABLE_MEDIA) become references filling `media_key` or
 * `media_keys`, resolved by the diff to the media's key; and the same written back by generate.
 */
import { quoteValue } from '../diag/quote.js';
import { asMap, asSeq, childPointer, plainValue, type YNode } from './entry-nodes.js';
import type { EntryContext, EntryReader, EntryResource } from './manifest-reading.js';
import type { NamesById, WrittenEntry } from './write-back.js';

/** A card component with `media` turned into `media_key` (MEDIA) or `media_keys` (SWIPEABLE_MEDIA) references. */
function cardComponent(ctx: EntryContext, resource: EntryResource, node: YNode, pointer: string, path: string): unknown {
  const map = asMap(node);
  const value = plainValue(node);
  if (map === undefined || value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const media = map.byKey.get('media');
  if (media === undefined) return out;
  delete out['media'];
  const at = childPointer(pointer, 'media');
  const list = asSeq(media.value);
  if (list === undefined) {
    const ref = ctx.reference(media.value, at, 'media', 'media');
    if (ref !== undefined) {
      out['media_key'] = ref;
      resource.references[`${path}.media_key`] = ref.$target;
    }
    return out;
  }
  out['media_keys'] = list.items.map((item, i) => {
    const ref = ctx.reference(item, childPointer(at, i), 'media', 'media');
    if (ref !== undefined) resource.references[`${path}.media_keys[${i}]`] = ref.$target;
    return ref ?? null;
  });
  return out;
}

/** A card's `components` or `slides`, media named by logical name. */
export const readCardContent: EntryReader = (ctx, resource, map, pointer) => {
  const components = map.byKey.get('components');
  const slides = map.byKey.get('slides');
  if (components !== undefined && slides !== undefined) {
    ctx.report(childPointer(pointer, 'slides'), 'card-content', 'a card has components or slides, not both', ctx.rangeOf(slides.value), [{ message: 'components are set here', range: ctx.rangeOf(components.value) }]);
    return;
  }
  if (components === undefined && slides === undefined) {
    ctx.report(pointer, 'missing-field', `card ${quoteValue(resource.address.steps[0]?.key ?? '')} needs components (or slides for a multi-destination carousel)`, resource.source);
    return;
  }
  if (components !== undefined) {
    const at = childPointer(pointer, 'components');
    const items = asSeq(components.value)?.items ?? [];
    resource.attributes['components'] = items.map((item, i) => cardComponent(ctx, resource, item, childPointer(at, i), `components[${i}]`));
    resource.attributeSources['components'] = ctx.rangeOf(components.value);
  }
  if (slides !== undefined) {
    const at = childPointer(pointer, 'slides');
    resource.attributes['slides'] = (asSeq(slides.value)?.items ?? []).map((slide, s) =>
      (asSeq(slide)?.items ?? []).map((item, i) => cardComponent(ctx, resource, item, childPointer(childPointer(at, s), i), `slides[${s}][${i}]`)),
    );
    resource.attributeSources['slides'] = ctx.rangeOf(slides.value);
  }
};

/** A live component's fields, its `media_key` as `media` and its `media_keys` as a `media` list where the manifest names them all. */
function writtenComponent(component: unknown, names: NamesById): Array<[string, unknown]> {
  const mediaName = (key: unknown): string | undefined => names.get('media')?.get(String(key));
  const fields = Object.entries((component ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined);
  return fields.map(([k, v]): [string, unknown] => {
    if (k === 'media_key' && mediaName(v) !== undefined) return ['media', mediaName(v)];
    if (k === 'media_keys' && Array.isArray(v) && v.every((m) => mediaName(m) !== undefined)) return ['media', v.map(mediaName)];
    return [k, v];
  });
}

/** A live card's `components` (one line each) or `slides` (a list of such lists), media by logical name: how generate writes them. */
export function writeCardContent(record: Readonly<Record<string, unknown>>, names: NamesById): WrittenEntry[] {
  const out: WrittenEntry[] = [];
  const components = record['components'];
  const slides = record['slides'];
  if (Array.isArray(components)) out.push({ key: 'components', value: { list: components.map((c) => ({ flow: writtenComponent(c, names) })) } });
  if (Array.isArray(slides)) out.push({ key: 'slides', value: { list: slides.map((s) => ({ list: (Array.isArray(s) ? s : []).map((c) => ({ flow: writtenComponent(c, names) })) })) } });
  return out;
}
