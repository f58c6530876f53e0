/**
 * The rules of image and video conversation cards (Part B): every call-to-action is a hashtag of
 * at most 20 characters (not counting `#`) and needs its post text (`*_cta_tweet`); a card has a
 * `second_cta` or a `title` (23); `thank_you_text` 23; `name` 80. An image card's `media_key` is a
 * library image at least 800 px wide with aspect ratio 1.91:1; a video card's is a library video
 * of 16:9 with an optional `poster_media_key` (a library image) and `unlocked_video_media_key` (a
 * library video). `unlocked_image_media_key` (an image at least 800 px wide, 5:2) is write-only:
 * the card shows `unlocked_image_url` instead. On PUT every field is optional, an empty value
 * unsets an optional one, read-only fields sent back unchanged are ignored, and the rules hold for
 * the card as it will be.
 */
import type { ApiContext } from '../context.js';
import { WireError, combine, invalidParameter, missingParameter } from '../errors.js';
import type { ParamReader } from '../params.js';
import type { Rec, Row } from '../store/row.js';
import { hasAspectRatio } from '../upload/aspect-ratio.js';
import { mediaUrl, type MediaType } from '../upload/uploaded-media.js';
import { invalidMedia, libraryMedia, posterUrl } from './media-library-item.js';

/** Which conversation card: image or video. */
export type ConversationFormat = 'image' | 'video';

const CTAS = ['first_cta', 'second_cta', 'third_cta', 'fourth_cta'] as const;
const HASHTAG = /^#[\p{L}\p{N}_]+$/u;
const READ_ONLY = ['id', 'card_type', 'card_uri', 'media_url', 'unlocked_image_url', 'poster_media_url', 'created_at', 'updated_at', 'deleted'] as const;

/** What a POST or PUT changes: the record's fields, and the write-only ones kept aside. */
interface ConversationChange {
  rec: Rec;
  ext: Rec;
}

interface MediaRule {
  type: MediaType;
  ratio?: [label: string, value: number];
  minWidth?: number;
}

const RULES: Record<string, MediaRule> = {
  image: { type: 'IMAGE', ratio: ['1.91:1', 1.91], minWidth: 800 },
  video: { type: 'VIDEO', ratio: ['16:9', 16 / 9] },
  unlocked_image_media_key: { type: 'IMAGE', ratio: ['5:2', 2.5], minWidth: 800 },
  unlocked_video_media_key: { type: 'VIDEO' },
  poster_media_key: { type: 'IMAGE' },
};

/** The library media `key` checked against `rule`; its URL. */
function checkMedia(ctx: ApiContext, key: string, param: string, rule: MediaRule): string {
  const m = libraryMedia(ctx, key, param);
  if (m.mediaType !== rule.type) throw invalidMedia(`Media ${key} is ${m.mediaType}; ${param} must be ${rule.type === 'IMAGE' ? 'an image' : 'a video'}`, param);
  if (rule.minWidth !== undefined && m.width < rule.minWidth) throw invalidMedia(`Media ${key} is ${m.width} px wide; ${param} must be at least ${rule.minWidth} px wide`, param);
  if (rule.ratio !== undefined && !hasAspectRatio(m.width, m.height, rule.ratio[1])) {
    throw invalidMedia(`Media ${key} is ${m.width}x${m.height}; ${param} must have aspect ratio ${rule.ratio[0]}`, param);
  }
  return mediaUrl(m.upload);
}

function readCta(p: ParamReader, name: string, required: boolean, nullable: boolean): string | null | undefined {
  const v = p.string(name, { required, nullable, min: 1 });
  if (typeof v === 'string' && (!HASHTAG.test(v) || [...v].length - 1 > 20)) {
    p.fail(invalidParameter(name, `${name} must be a hashtag of at most 20 characters not counting the #, got ${JSON.stringify(v)}`));
    return undefined;
  }
  return v;
}

/**
 * Reads a POST (`row` undefined) or PUT of a conversation card of `format`; returns the changed
 * fields, or throws every problem of the parameters, then of the media.
 */
export function readConversationCard(ctx: ApiContext, format: ConversationFormat, row: Row | undefined): ConversationChange {
  const p = ctx.params;
  const current = row?.rec;
  const creating = current === undefined;
  const opt = { nullable: !creating, min: 1 };
  const req = { required: creating, min: 1 };
  if (current !== undefined) p.readOnly(READ_ONLY, current);
  const rec: Rec = {};
  const set = (name: string, value: unknown): void => {
    if (value !== undefined) rec[name] = value;
  };
  set('name', p.string('name', { ...req, max: 80 }));
  CTAS.forEach((cta, i) => {
    set(cta, readCta(p, cta, creating && i === 0, i > 0 && !creating));
    set(`${cta}_tweet`, p.string(`${cta}_tweet`, i === 0 ? req : opt));
  });
  set('title', p.string('title', { ...opt, max: 23 }));
  set('thank_you_text', p.string('thank_you_text', { ...req, max: 23 }));
  set('thank_you_url', p.string('thank_you_url', opt));
  const keys: Record<string, string | null | undefined> = { media_key: p.string('media_key', req), unlocked_image_media_key: p.string('unlocked_image_media_key', opt) };
  if (format === 'video') {
    keys['poster_media_key'] = p.string('poster_media_key', opt);
    keys['unlocked_video_media_key'] = p.string('unlocked_video_media_key', opt);
  }
  p.finish();

  const merged: Rec = { ...(current ?? {}), ...rec };
  const rules: WireError[] = [];
  if (!isSet(merged['second_cta']) && !isSet(merged['title'])) rules.push(new WireError(400, [{ code: 'MISSING_PARAMETER', message: 'title is required when second_cta is absent, and second_cta when title is absent', parameter: 'title' }]));
  for (const cta of CTAS.slice(1)) if (isSet(merged[cta]) && !isSet(merged[`${cta}_tweet`])) rules.push(missingParameter(`${cta}_tweet`));
  if (rules.length > 0) throw combine(rules);
  return { rec: { ...rec, ...mediaFields(ctx, format, keys, row) }, ext: writeOnly(keys) };
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** The record fields that follow from the media keys sent (null for a key unset by PUT). */
function mediaFields(ctx: ApiContext, format: ConversationFormat, keys: Record<string, string | null | undefined>, row: Row | undefined): Rec {
  const out: Rec = {};
  const main = keys['media_key'];
  if (typeof main === 'string') {
    out['media_key'] = main;
    out['media_url'] = checkMedia(ctx, main, 'media_key', RULES[format]!);
  }
  const poster = keys['poster_media_key'];
  if (format === 'video' && (typeof main === 'string' || poster !== undefined)) {
    const posterKey = poster === undefined ? row?.ext['poster_media_key'] : poster;
    out['poster_media_url'] =
      typeof posterKey === 'string'
        ? checkMedia(ctx, posterKey, 'poster_media_key', RULES['poster_media_key']!)
        : posterUrl(libraryMedia(ctx, String(main ?? row?.rec['media_key']), 'media_key').upload, undefined);
  }
  const unlocked = keys['unlocked_image_media_key'];
  if (unlocked !== undefined) out['unlocked_image_url'] = unlocked === null ? null : checkMedia(ctx, unlocked, 'unlocked_image_media_key', RULES['unlocked_image_media_key']!);
  const video = keys['unlocked_video_media_key'];
  if (video !== undefined) {
    if (video !== null) checkMedia(ctx, video, 'unlocked_video_media_key', RULES['unlocked_video_media_key']!);
    out['unlocked_video_media_key'] = video;
  }
  return out;
}

/** The write-only media keys the card keeps without showing them. */
function writeOnly(keys: Record<string, string | null | undefined>): Rec {
  const out: Rec = {};
  for (const k of ['unlocked_image_media_key', 'poster_media_key']) if (keys[k] !== undefined) out[k] = keys[k];
  return out;
}
