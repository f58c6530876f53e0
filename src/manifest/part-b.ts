/**
 * The Part B sections of a manifest file: media files (read and hashed here, so an edited file
 * is seen by every plan), cards and posts naming media and cards by logical name, custom
 * audiences with their member file and permissions, and the do-not-reach list. Member files are
 * only located here; their identifiers are read by the plan (src/members/), never by validate's
 * loader, so nothing private is held longer than one plan needs.
 */
import { dirname, isAbsolute, join } from 'node:path';
import { quoteValue } from '../diag/quote.js';
import { didYouMean } from '../diag/suggest.js';
import { withLeafDefaults } from '../kinds/flexible-audience.js';
import { contentHashOf, MEDIA_TYPES } from '../kinds/media-file.js';
import { ACCOUNT_ADDRESS, childAddress } from './address.js';
import { rangeOf, report, type FileContext } from './context.js';
import { asMap, asSeq, childPointer, plainValue, stringValue } from './nodes.js';
import { normaliseTimestamp } from './time.js';
import type { DesiredResource, NamedReference } from './types.js';
import type { YMap, YNode } from './yaml-tree.js';

/** The path of a file the manifest names, as the process opens it. */
function manifestRelative(ctx: FileContext, path: string): string {
  return isAbsolute(path) ? path : join(dirname(ctx.doc.file), path);
}

/**
 * A reference by logical name to an entry of the top-level `collection`, checked; undefined (and
 * an error at `node`) when the name is not defined there.
 */
export function namedReference(ctx: FileContext, node: YNode, pointer: string, collection: string, field: string): NamedReference | undefined {
  const name = stringValue(node);
  if (name === undefined) return undefined;
  const known = ctx.names.get(collection) ?? [];
  if (!known.includes(name)) {
    const where = known.length === 0 ? `this manifest has no ${collection}` : `it is not defined under ${collection}${didYouMean(name, known)}`;
    report(ctx, pointer, 'unknown-reference', `${field} ${quoteValue(name)} does not exist: ${where}`, rangeOf(ctx, node));
    return undefined;
  }
  return { $target: childAddress(ACCOUNT_ADDRESS, collection, name) };
}

/** Records a named reference at `path` of `resource` for its edges. */
function noteReference(resource: DesiredResource, path: string, ref: NamedReference): void {
  resource.references[path] = ref.$target;
}

/** `media: hero` → the media's file read and hashed. */
export function readMediaFile(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string): void {
  const entry = map.byKey.get('file');
  const path = stringValue(entry?.value);
  if (entry === undefined || path === undefined) return;
  const at = childPointer(pointer, 'file');
  const range = rangeOf(ctx, entry.value);
  if (!MEDIA_TYPES.known(path)) {
    report(ctx, at, 'media-type', `file ${quoteValue(path)} is not an image, GIF or video adsctl can upload (${MEDIA_TYPES.extensions.join(', ')})`, range);
    return;
  }
  const data = ctx.readFile(manifestRelative(ctx, path));
  if (data === undefined) {
    report(ctx, at, 'file-not-found', `file ${quoteValue(path)} does not exist (paths are relative to the manifest)`, range);
    return;
  }
  resource.attributes['file'] = path;
  resource.attributeSources['file'] = range;
  resource.attributes['file_size'] = data.length;
  resource.attributeSources['file_size'] = range;
  resource.attributes['content_hash'] = contentHashOf(data);
  resource.attributeSources['content_hash'] = range;
}

/** A card component with `media` turned into `media_key` (MEDIA) or `media_keys` (SWIPEABLE_MEDIA) references. */
function cardComponent(ctx: FileContext, resource: DesiredResource, node: YNode, pointer: string, path: string): unknown {
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
    const ref = namedReference(ctx, media.value, at, 'media', 'media');
    if (ref !== undefined) {
      out['media_key'] = ref;
      noteReference(resource, `${path}.media_key`, ref);
    }
    return out;
  }
  out['media_keys'] = list.items.map((item, i) => {
    const ref = namedReference(ctx, item, childPointer(at, i), 'media', 'media');
    if (ref !== undefined) noteReference(resource, `${path}.media_keys[${i}]`, ref);
    return ref ?? null;
  });
  return out;
}

/** A card's `components` or `slides`, media named by logical name. */
export function readCardContent(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string): void {
  const components = map.byKey.get('components');
  const slides = map.byKey.get('slides');
  if (components !== undefined && slides !== undefined) {
    report(ctx, childPointer(pointer, 'slides'), 'card-content', 'a card has components or slides, not both', rangeOf(ctx, slides.value), [{ message: 'components are set here', range: rangeOf(ctx, components.value) }]);
    return;
  }
  if (components === undefined && slides === undefined) {
    report(ctx, pointer, 'missing-field', `card ${quoteValue(resource.address.steps[0]?.key ?? '')} needs components (or slides for a multi-destination carousel)`, resource.source);
    return;
  }
  if (components !== undefined) {
    const at = childPointer(pointer, 'components');
    const items = asSeq(components.value)?.items ?? [];
    resource.attributes['components'] = items.map((item, i) => cardComponent(ctx, resource, item, childPointer(at, i), `components[${i}]`));
    resource.attributeSources['components'] = rangeOf(ctx, components.value);
  }
  if (slides !== undefined) {
    const at = childPointer(pointer, 'slides');
    resource.attributes['slides'] = (asSeq(slides.value)?.items ?? []).map((slide, s) =>
      (asSeq(slide)?.items ?? []).map((item, i) => cardComponent(ctx, resource, item, childPointer(childPointer(at, s), i), `slides[${s}][${i}]`)),
    );
    resource.attributeSources['slides'] = rangeOf(ctx, slides.value);
  }
}

/** A post's `media` (logical names) as `media_keys` references. */
export function readPostMedia(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string): void {
  const media = map.byKey.get('media');
  if (media === undefined) return;
  const raw = map.byKey.get('media_keys');
  if (raw !== undefined) {
    report(ctx, childPointer(pointer, 'media'), 'reference-conflict', 'media and media_keys both say which media to attach; keep one', rangeOf(ctx, media.value), [{ message: 'media_keys is set here', range: rangeOf(ctx, raw.value) }]);
    return;
  }
  const at = childPointer(pointer, 'media');
  const refs = (asSeq(media.value)?.items ?? []).map((item, i) => {
    const ref = namedReference(ctx, item, childPointer(at, i), 'media', 'media');
    if (ref !== undefined) noteReference(resource, `media_keys[${i}]`, ref);
    return ref;
  });
  if (refs.some((r) => r === undefined)) return;
  resource.attributes['media_keys'] = refs;
  resource.attributeSources['media_keys'] = rangeOf(ctx, media.value);
}

/** Checks a post has text or media. */
export function checkPostContent(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string): void {
  if (!map.byKey.has('text') && !map.byKey.has('media') && !map.byKey.has('media_keys')) {
    report(ctx, pointer, 'missing-field', `post ${quoteValue(resource.address.steps[0]?.key ?? '')} needs text, media or both`, resource.source);
  }
}

/**
 * A member file's section (`users: { file, ... }`), read into the membership resource: the file
 * must exist; its identifiers are read when a plan is made.
 */
export function readMemberFile(ctx: FileContext, members: DesiredResource, users: YMap, at: string): void {
  const file = users.byKey.get('file');
  const path = stringValue(file?.value);
  if (file !== undefined && path !== undefined) {
    members.attributes['file'] = path;
    members.attributeSources['file'] = rangeOf(ctx, file.value);
    if (!ctx.fileExists(manifestRelative(ctx, path))) report(ctx, childPointer(at, 'file'), 'file-not-found', `file ${quoteValue(path)} does not exist (paths are relative to the manifest)`, rangeOf(ctx, file.value));
  }
  for (const name of ['type', 'default_region']) {
    const e = users.byKey.get(name);
    const v = stringValue(e?.value);
    if (e === undefined || v === undefined) continue;
    members.attributes[name] = v;
    members.attributeSources[name] = rangeOf(ctx, e.value);
  }
  for (const name of ['effective_at', 'expires_at']) {
    const e = users.byKey.get(name);
    const text = stringValue(e?.value);
    if (e === undefined || text === undefined) continue;
    const normalised = normaliseTimestamp(text);
    if (normalised === undefined) {
      report(ctx, childPointer(at, name), 'time-format', `${name} ${quoteValue(text)} is not an ISO 8601 date-time with seconds and a zone, e.g. 2026-06-01T00:00:00Z`, rangeOf(ctx, e.value));
      continue;
    }
    members.attributes[name] = normalised;
    members.attributeSources[name] = rangeOf(ctx, e.value);
  }
  const effective = members.attributes['effective_at'];
  const expires = members.attributes['expires_at'];
  if (typeof effective === 'string' && typeof expires === 'string' && expires <= effective) {
    report(ctx, childPointer(at, 'expires_at'), 'time-order', `expires_at ${expires} must be later than effective_at ${effective}`, members.attributeSources['expires_at'] ?? members.source);
  }
}

/** A segment tree with each leaf's `custom_audience` (a logical name) as a reference to its id. */
function segmentNode(ctx: FileContext, resource: DesiredResource, node: YNode, pointer: string, path: string): unknown {
  const map = asMap(node);
  if (map === undefined) return plainValue(node);
  const children = asSeq(map.byKey.get('child_segments')?.value);
  if (children !== undefined) {
    const at = childPointer(pointer, 'child_segments');
    return {
      ...(map.byKey.has('boolean_operator') ? { boolean_operator: plainValue(map.byKey.get('boolean_operator')!.value) } : {}),
      child_segments: children.items.map((child, i) => segmentNode(ctx, resource, child, childPointer(at, i), `${path}.child_segments[${i}]`)),
    };
  }
  const leaf = { ...(plainValue(node) as Record<string, unknown>) };
  const name = map.byKey.get('custom_audience');
  if (name === undefined) return leaf;
  delete leaf['custom_audience'];
  if (map.byKey.has('custom_audience_id')) {
    report(ctx, childPointer(pointer, 'custom_audience'), 'reference-conflict', 'custom_audience and custom_audience_id both say which audience; keep one', rangeOf(ctx, name.value));
    return leaf;
  }
  const ref = namedReference(ctx, name.value, childPointer(pointer, 'custom_audience'), 'custom_audiences', 'custom_audience');
  if (ref !== undefined) {
    leaf['custom_audience_id'] = ref;
    noteReference(resource, `${path}.custom_audience_id`, ref);
  }
  return leaf;
}

/** A flexible audience's `segments`, audiences named by logical name. */
export function readSegments(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string): void {
  const entry = map.byKey.get('segments');
  if (entry === undefined) return;
  // with the service's defaults of each leaf, as it stores them: what is applied is what it shows
  resource.attributes['segments'] = withLeafDefaults(segmentNode(ctx, resource, entry.value, childPointer(pointer, 'segments'), 'segments'));
  resource.attributeSources['segments'] = rangeOf(ctx, entry.value);
}
