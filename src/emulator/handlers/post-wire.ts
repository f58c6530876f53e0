/**
 * Posts as the posts endpoints show them (Part B, Posts): one post object for published posts,
 * drafts and scheduled posts alike, with its `tweet_type`, the author in `user` (only the id with
 * `trim_user`), and the text as `text` (compat mode: at most 140 characters, `truncated` when
 * cut) or as `full_text` with `display_text_range` (extended mode, which GET tweets uses).
 * `conversation_settings` is shown by GET, not by the POST tweet response. Seeded posts and the
 * reposts promotion makes hold fewer fields; the missing ones show as unset. Every post object
 * also has the fields of post-fields.ts (`tweet_id`, `entities`, `source`...), and its
 * `created_at` in the post format, not ISO 8601.
 */
import type { ApiContext } from '../context.js';
import type { Rec, Row } from '../store/row.js';
import { postFields, postTime } from './post-fields.js';

/** The post types (Part B enumerations). */
export const TWEET_TYPES = ['DRAFT', 'PUBLISHED', 'SCHEDULED'] as const;
export type TweetType = (typeof TWEET_TYPES)[number];

/** The store kind holding each post type. */
export const KIND_OF: Record<TweetType, 'draft_post' | 'post' | 'scheduled_post'> = { DRAFT: 'draft_post', PUBLISHED: 'post', SCHEDULED: 'scheduled_post' };

/** How a post object is rendered. */
interface TweetView {
  trimUser: boolean;
  mode: 'compat' | 'extended';
  conversationSettings: boolean;
}

/** The view GET tweets uses unless told otherwise. */
export const GET_VIEW: TweetView = { trimUser: false, mode: 'extended', conversationSettings: true };

const COMPAT_MAX = 140;

/** The author of a stored post of any type. */
export function authorOf(row: Row): string {
  return String(row.kind === 'post' ? row.ext['user_id'] : row.rec['user_id']);
}

/** Whether a post is a reply or mention (its text starts with `@`), which lists leave out by default. */
export function isMentionOrReply(row: Row): boolean {
  return typeof row.rec['text'] === 'string' && row.rec['text'].startsWith('@');
}

function userObject(ctx: ApiContext, userId: string, trim: boolean): Rec {
  if (trim) return { id: userId, id_str: userId };
  const user = ctx.store.get('user', userId);
  return { id: userId, id_str: userId, name: user?.rec['name'] ?? null, screen_name: user?.rec['screen_name'] ?? null };
}

/** The post object of a stored post, draft or scheduled post. */
export function tweetWire(ctx: ApiContext, row: Row, type: TweetType, view: TweetView): Rec {
  const rec = row.rec;
  const text = typeof rec['text'] === 'string' ? rec['text'] : '';
  const chars = [...text];
  const out: Rec = { id: row.id, id_str: row.id, tweet_type: type, name: rec['name'] ?? null };
  if (view.mode === 'extended') {
    out['full_text'] = text;
    out['display_text_range'] = [0, chars.length];
    out['truncated'] = false;
  } else {
    out['text'] = chars.length > COMPAT_MAX ? `${chars.slice(0, COMPAT_MAX - 1).join('')}…` : text;
    out['truncated'] = chars.length > COMPAT_MAX;
  }
  out['nullcast'] = rec['nullcast'] === true;
  out['card_uri'] = rec['card_uri'] ?? null;
  out['media_keys'] = Array.isArray(rec['media_keys']) ? [...(rec['media_keys'] as string[])] : [];
  out['additional_media_info'] = rec['additional_media_info'] ?? null;
  if (view.conversationSettings) out['conversation_settings'] = rec['conversation_settings'] ?? 'EVERYONE';
  out['scheduled_at'] = type === 'SCHEDULED' ? rec['scheduled_at'] : null;
  out['created_at'] = postTime(String(rec['created_at']));
  out['user'] = userObject(ctx, authorOf(row), view.trimUser);
  return { ...out, ...postFields(ctx, row, text) };
}
