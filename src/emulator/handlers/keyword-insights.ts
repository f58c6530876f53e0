/**
 * `GET /12/insights/keywords/search` (Part B, Keyword insights): post volume for the input
 * keywords per time bucket, and 30 related keywords, scoped to one country. Parameters:
 * `granularity` (DAY or HOUR) and `keywords` (comma list, OR-ed) and `start_time` required;
 * `end_time` (default now, by the emulator's clock); `location` (a COUNTRIES value of the
 * locations lookup, default United States; any other level is 400 `INVALID_PARAMETER`);
 * `negative_keywords` (comma list). At most 10 keywords and negative keywords together (400
 * `INVALID_PARAMETER`); `end_time` must be after `start_time` and at most 7 days later (400
 * `INVALID_TIME_WINDOW`).
 *
 * Volumes are made up but deterministic: each keyword has an hourly volume that depends only on
 * the keyword, the country and the hour; a bucket (one hour, or one day, starting at
 * `start_time`; the last one may be shorter) sums the hours it starts, and every negative
 * keyword removes a fixed share. Answer: `data` {related_keywords (30 strings), tweet_volume
 * (one integer per bucket)}.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { WireError, invalidParameter } from '../errors.js';
import { findLocation } from '../lookups/locations.js';
import { parseTime } from '../clock.js';

const MAX_KEYWORDS = 10;
const MAX_RANGE_MS = 7 * 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
const RELATED = 30;
const DEFAULT_COUNTRY = 'US';
const VOCABULARY = [
  'news', 'tips', 'today', 'live', 'update', 'guide', 'best', 'new', 'community', 'events', 'deals', 'review', 'trends',
  'photos', 'video', 'launch', 'season', 'weekend', 'fans', 'help', 'ideas', 'love', 'free', 'tech', 'sale', 'official',
  'challenge', 'week', 'highlights', 'podcast', 'gear', 'club', 'world', 'local', 'daily', 'story', 'team', 'games',
];

/** FNV-1a, 32 bits: the emulator's stable hash for made-up figures. */
function h32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hourVolume(keyword: string, country: string, hour: number): number {
  const base = 200 + (h32(`${country}:${keyword.toLowerCase()}`) % 5000);
  const factor = 0.6 + (h32(`${keyword.toLowerCase()}:${hour}`) % 800) / 1000;
  return Math.floor(base * factor);
}

function relatedKeywords(keywords: readonly string[], negatives: readonly string[], country: string): string[] {
  const excluded = new Set([...keywords, ...negatives].map((k) => k.toLowerCase()));
  const seed = `${country}:${[...keywords].map((k) => k.toLowerCase()).sort().join(',')}`;
  const candidates = new Set<string>();
  for (const kw of keywords) {
    const k = kw.toLowerCase();
    candidates.add(`#${k.replace(/\s+/g, '')}`);
    candidates.add(`${k}s`);
    for (const w of VOCABULARY) {
      candidates.add(w);
      candidates.add(`${k} ${w}`);
    }
  }
  return [...candidates]
    .filter((c) => !excluded.has(c))
    .sort((a, b) => h32(`${seed}:${a}`) - h32(`${seed}:${b}`) || a.localeCompare(b))
    .slice(0, RELATED);
}

function search(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const granularity = p.oneOf('granularity', ['DAY', 'HOUR'] as const, { required: true });
  const keywords = p.list('keywords', { required: true });
  const start = p.time('start_time', { required: true });
  const end = p.time('end_time');
  const location = p.string('location');
  const negatives = p.list('negative_keywords') ?? [];
  if (keywords !== undefined && keywords.length + negatives.length > MAX_KEYWORDS) {
    p.fail(invalidParameter('keywords', `A maximum of ${MAX_KEYWORDS} keywords and negative_keywords combined can be provided, got ${keywords.length + negatives.length}`));
  }
  let country = DEFAULT_COUNTRY;
  if (typeof location === 'string') {
    const found = findLocation(location);
    if (found === undefined) p.fail(invalidParameter('location', `Unknown location ${JSON.stringify(location)}`));
    else if (found.location_type !== 'COUNTRIES') p.fail(invalidParameter('location', `Only country locations are supported, got the ${found.location_type} location ${found.name}`));
    else country = found.country_code;
  }
  p.finish();
  const startMs = parseTime(start!)!.getTime();
  const endMs = typeof end === 'string' ? parseTime(end)!.getTime() : ctx.clock.now().getTime();
  if (endMs <= startMs) throw new WireError(400, [{ code: 'INVALID_TIME_WINDOW', message: 'end_time must be later than start_time', parameter: 'end_time' }]);
  if (endMs - startMs > MAX_RANGE_MS) throw new WireError(400, [{ code: 'INVALID_TIME_WINDOW', message: 'end_time - start_time must be at most 7 days', parameter: 'end_time' }]);

  const size = granularity === 'DAY' ? 24 * HOUR_MS : HOUR_MS;
  const cut = Math.min(0.9, negatives.reduce((s, n) => s + (h32(n.toLowerCase()) % 15) / 100, 0));
  const volumes: number[] = [];
  for (let bs = startMs; bs < endMs; bs += size) {
    const be = Math.min(bs + size, endMs);
    const hours = Math.max(1, Math.round((be - bs) / HOUR_MS));
    const first = Math.floor(bs / HOUR_MS);
    let total = 0;
    for (let j = 0; j < hours; j++) for (const k of keywords!) total += hourVolume(k, country, first + j);
    volumes.push(total - Math.floor(total * cut));
  }
  return { body: { request: { params: p.echo }, data: { related_keywords: relatedKeywords(keywords!, negatives, country), tweet_volume: volumes } } };
}

/** The keyword insights endpoint (no account in the path; its own rate limit category). */
export const routes: RouteDef[] = [{ method: 'GET', path: '/12/insights/keywords/search', family: 'insights', access: 'none', handler: search }];
