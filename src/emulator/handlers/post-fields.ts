/**
 * The fields a post object carries besides what the posts endpoints take (docs/service-behaviour.md,
 * "Posts"): `tweet_id`, the post's `entities` found in its text, `lang`, the `source` app, the
 * counters and flags of a fresh post, the location and reply fields (always unset: the ads API
 * neither geotags nor replies), `contributors` and `scopes`, and `created_at` in the post format
 * (`Tue Aug 27 22:22:12 +0000 2019`) where every other record writes ISO 8601.
 */
import type { ApiContext } from '../context.js';
import type { Rec, Row } from '../store/row.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** The source of posts the emulator did not see being made (seeded posts, reposts, scheduled posts). */
const ADS_SOURCE = '<a href="https://ads.twitter.com" rel="nofollow">Twitter for Advertisers</a>';

const pad = (n: number): string => String(n).padStart(2, '0');

/** An ISO 8601 time (`2019-08-27T22:22:12Z`) in the post format: `Tue Aug 27 22:22:12 +0000 2019`. */
export function postTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new TypeError(`not an ISO 8601 time: ${iso}`);
  const clock = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${clock} +0000 ${d.getUTCFullYear()}`;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What POST tweet records about how a post was made: `source`, the calling app as a link, and
 * `contributors`, the calling user's id (a JSON number, as the service writes it) when it posts as
 * another user, else null.
 */
export function authorship(ctx: ApiContext, asUserId: string): Rec {
  const app = ctx.store.get('app', ctx.principal.consumerKey);
  const name = typeof app?.rec['name'] === 'string' ? app.rec['name'] : ctx.principal.consumerKey;
  const caller = ctx.principal.kind === 'user' ? ctx.principal.userId : undefined;
  const contributor = caller !== undefined && caller !== asUserId && Number.isSafeInteger(Number(caller)) ? [Number(caller)] : null;
  return { source: `<a href="https://ads-api.twitter.com" rel="nofollow">${escapeHtml(name)}</a>`, contributors: contributor };
}

/** One match of `pattern` in `text`, with its place counted in code points as the service counts. */
interface Found {
  text: string;
  indices: [number, number];
}

function findAll(text: string, pattern: RegExp): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(pattern)) {
    const lead = m[1] ?? '';
    const start = [...text.slice(0, (m.index ?? 0) + lead.length)].length;
    const body = m[0].slice(lead.length);
    out.push({ text: body, indices: [start, start + [...body].length] });
  }
  return out;
}

/** The user with `screenName` (case-insensitive), if the emulator knows one. */
function userNamed(ctx: ApiContext, screenName: string): Row | undefined {
  const wanted = screenName.toLowerCase();
  for (const row of ctx.store.table('user').all()) if (String(row.rec['screen_name']).toLowerCase() === wanted) return row;
  return undefined;
}

/**
 * The entities of a post's text: `#hashtags`, `$symbols`, `http(s)` links and `@mentions` of users
 * that exist (others are plain text), each with its `[start, end)` place in code points.
 */
function entitiesOf(ctx: ApiContext, text: string): Rec {
  const hashtags = findAll(text, /(^|[^\p{L}\p{N}_&#])#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*/gu).map((f) => ({ text: f.text.slice(1), indices: f.indices }));
  const symbols = findAll(text, /(^|\s)\$[A-Za-z]{1,6}(?![\p{L}\p{N}_])/gu).map((f) => ({ text: f.text.slice(1), indices: f.indices }));
  const urls = findAll(text, /(^|[^\p{L}\p{N}_])https?:\/\/[^\s]+/gu).map((f) => ({
    url: f.text,
    expanded_url: f.text,
    display_url: f.text.replace(/^https?:\/\//, ''),
    indices: f.indices,
  }));
  const user_mentions = findAll(text, /(^|[^\p{L}\p{N}_@])@[A-Za-z0-9_]{1,15}/gu).flatMap((f) => {
    const user = userNamed(ctx, f.text.slice(1));
    return user === undefined ? [] : [{ screen_name: user.rec['screen_name'], name: user.rec['name'] ?? null, id: Number(user.id), id_str: user.id, indices: f.indices }];
  });
  return { hashtags, symbols, user_mentions, urls };
}

/** `und` for text without a letter (links, mentions, emoji only), else `en`: the emulator detects no other language. */
const langOf = (text: string): string => (/\p{L}/u.test(text.replace(/https?:\/\/\S+|[@#$][\p{L}\p{N}_]+/gu, '')) ? 'en' : 'und');

/** The service's post fields of a stored post with `text`, in the order its recorded posts show them. */
export function postFields(ctx: ApiContext, row: Row, text: string): Rec {
  const rec = row.rec;
  const nullcast = rec['nullcast'] === true;
  return {
    tweet_id: row.id,
    entities: entitiesOf(ctx, text),
    lang: langOf(text),
    source: typeof rec['source'] === 'string' ? rec['source'] : ADS_SOURCE,
    retweet_count: 0,
    favorite_count: 0,
    favorited: false,
    retweeted: false,
    geo: null,
    coordinates: null,
    place: null,
    contributors: Array.isArray(rec['contributors']) ? [...(rec['contributors'] as number[])] : null,
    scopes: { followers: !nullcast },
    in_reply_to_status_id: null,
    in_reply_to_status_id_str: null,
    in_reply_to_user_id: null,
    in_reply_to_user_id_str: null,
    in_reply_to_screen_name: null,
  };
}
