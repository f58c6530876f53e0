/**
 * A post's content as the manifest writes it (posts, draft posts, scheduled posts): `media` by
 * logical name become `media_keys` references, and a post needs text, media or both; and how
 * generate writes them back.
 */
import { quoteValue } from '../diag/quote.js';
import { asSeq, childPointer } from './entry-nodes.js';
import type { EntryReader } from './manifest-reading.js';
import { firstText, type NamesById, type WriteBack, type WrittenEntry } from './write-back.js';

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

/** A post's logical name when it has no name: its first words. */
function leadingWords(text: unknown): string | undefined {
  return typeof text === 'string' ? text.split(/\s+/).filter((w) => w !== '').slice(0, 5).join(' ') : undefined;
}

/**
 * A live post's card (`card:` or `conversation_card:`) and media (`media:`) by logical name where
 * the manifest holds them, its raw `card_uri` and `media_keys` otherwise.
 */
function writePostContent(record: Readonly<Record<string, unknown>>, names: NamesById): WrittenEntry[] {
  const out: WrittenEntry[] = [];
  const uri = record['card_uri'];
  if (typeof uri === 'string' && uri !== '') {
    const id = uri.startsWith('card://') ? uri.slice('card://'.length) : uri;
    const card = names.get('cards')?.get(id);
    const conversation = names.get('conversation_cards')?.get(id);
    out.push(card !== undefined ? { key: 'card', value: { scalar: card } } : conversation !== undefined ? { key: 'conversation_card', value: { scalar: conversation } } : { key: 'card_uri', value: { scalar: uri } });
  }
  const media = Array.isArray(record['media_keys']) ? record['media_keys'].map(String) : [];
  if (media.length > 0) {
    const byName = media.map((m) => names.get('media')?.get(m));
    out.push(byName.every((n) => n !== undefined) ? { key: 'media', value: { scalar: byName } } : { key: 'media_keys', value: { scalar: media } });
  }
  return out;
}

/**
 * How generate writes a post, draft or scheduled post: named by its name or its first words, its
 * card and media by logical name, and never its author.
 */
export const POST_WRITE_BACK: WriteBack = {
  nameOf: (r) => firstText('name')(r) ?? leadingWords(r['text']),
  never: { as_user_id: 'every post generate reads is the account\'s FULL promotable user\'s, the author a manifest that names none writes as' },
  own: { fields: ['card_uri', 'media_keys'], write: writePostContent },
};
