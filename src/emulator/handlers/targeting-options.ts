/**
 * Targeting option lookups (`GET /12/targeting_criteria/<x>`): global reads, no account, callable
 * with a user or an application-only token, in the targeting rate limit family. Each takes the
 * documented filters; `q` is a case-insensitive match anywhere in the name. Paged lookups take
 * `count` (1..1000, default 200, tv_shows 1..50, default 50) and an opaque `cursor`. Behaviors filter
 * by `behavior_ids` and `q`; behavior taxonomies by `behavior_taxonomy_ids` and
 * `parent_behavior_taxonomy_ids` (children of those nodes).
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { invalidParameter } from '../errors.js';
import { BEHAVIORS, BEHAVIOR_TAXONOMIES } from '../lookups/behaviors.js';
import { EVENTS, EVENT_TYPES, TV_MARKETS, TV_SHOWS } from '../lookups/events-and-tv.js';
import { INTERESTS } from '../lookups/interests.js';
import { localizedName } from '../lookups/localized-names.js';
import { LOCATIONS, LOCATION_TYPES } from '../lookups/locations.js';
import {
  APP_STORE_CATEGORIES, CONVERSATIONS, CONVERSATION_TYPES, DEVICES, LANGUAGES, NETWORK_OPERATORS, PLATFORMS, PLATFORM_VERSIONS,
} from '../lookups/targeting-values.js';
import type { ParamReader } from '../params.js';
import type { Rec } from '../store/row.js';
import { now } from './common.js';

interface Paging {
  count: number;
  offset: number;
}

function readPaging(p: ParamReader, max = 1000, fallback = 200): Paging {
  const count = p.int('count', { min: 1, max, kind: 'Int' }) ?? fallback;
  const raw = p.string('cursor');
  let offset = 0;
  if (typeof raw === 'string') {
    const m = /^c-([0-9a-z]{1,10})$/.exec(raw);
    if (m === null) p.fail(invalidParameter('cursor', `Invalid cursor ${JSON.stringify(raw)}`));
    else offset = parseInt(m[1]!, 36);
  }
  return { count, offset };
}

/** The list envelope over `items`: one page when `paging` is given, all of them otherwise. */
function page(p: ParamReader, items: readonly object[], paging?: Paging): HandlerResult {
  p.finish();
  const copy = (item: object): Rec => ({ ...(item as Rec) });
  if (paging === undefined) return { body: { request: { params: p.echo }, next_cursor: null, data: items.map(copy) } };
  const end = paging.offset + paging.count;
  return {
    body: {
      request: { params: p.echo },
      next_cursor: end < items.length ? `c-${end.toString(36)}` : null,
      data: items.slice(paging.offset, end).map(copy),
    },
  };
}

/** `q`: keeps items whose name contains it, case-insensitively. */
function byQuery<T extends { name: string }>(p: ParamReader, items: readonly T[]): readonly T[] {
  const q = p.string('q', { min: 1, max: 255 });
  if (typeof q !== 'string') return items;
  const needle = q.toLowerCase();
  return items.filter((i) => i.name.toLowerCase().includes(needle));
}

function countryCode(p: ParamReader, name: string): string | undefined {
  const code = p.string(name);
  if (typeof code !== 'string') return undefined;
  if (!/^[A-Za-z]{2}$/.test(code)) {
    p.fail(invalidParameter(name, `Expected a 2 letter ISO country code, got ${JSON.stringify(code)} for ${name}`));
    return undefined;
  }
  return code.toUpperCase();
}

function locations(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const paging = readPaging(p);
  const country = countryCode(p, 'country_code');
  const type = p.oneOf('location_type', LOCATION_TYPES) ?? undefined;
  const items = byQuery(p, LOCATIONS).filter((l) => (country === undefined || l.country_code === country) && (type === undefined || l.location_type === type));
  return page(p, items, paging);
}

function networkOperators(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const paging = readPaging(p);
  const country = countryCode(p, 'country_code') ?? 'US';
  return page(p, byQuery(p, NETWORK_OPERATORS).filter((o) => o.country_code === country), paging);
}

function platforms(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const paging = readPaging(p);
  const lang = p.string('lang');
  if (typeof lang === 'string' && !/^[a-z]{2}$/.test(lang)) p.fail(invalidParameter('lang', `Expected an ISO 639-1 language code, got ${JSON.stringify(lang)} for lang`));
  const items = byQuery(p, PLATFORMS).map((o) => {
    const localized = typeof lang === 'string' ? localizedName('PLATFORM', o.targeting_value, lang) : undefined;
    return localized === undefined ? o : { ...o, localized_name: localized };
  });
  return page(p, items, paging);
}

function appStoreCategories(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const os = p.oneOf('os_type', ['ANDROID', 'IOS'] as const) ?? undefined;
  return page(p, byQuery(p, APP_STORE_CATEGORIES).filter((c) => os === undefined || c.os_type === os));
}

function conversations(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const paging = readPaging(p);
  const type = p.oneOf('conversation_type', CONVERSATION_TYPES) ?? undefined;
  return page(p, CONVERSATIONS.filter((c) => type === undefined || c.conversation_type === type), paging);
}

function events(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const paging = readPaging(p);
  const types = p.list('event_types');
  const bad = types?.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (bad !== undefined) p.fail(invalidParameter('event_types', `Expected a value in ${EVENT_TYPES.join(', ')}, got ${JSON.stringify(bad)} for event_types`));
  const countries = p.list('country_codes', { max: 200, pattern: /^[A-Za-z]{2}$/, typeName: 'a 2 letter ISO country code' })?.map((c) => c.toUpperCase());
  const start = p.time('start_time') ?? now(ctx);
  const end = p.time('end_time') ?? undefined;
  const items = EVENTS.filter(
    (e) =>
      (types === undefined || types.includes(e.event_type)) &&
      (countries === undefined || e.country_code === null || countries.includes(e.country_code)) &&
      e.end_time > start &&
      (end === undefined || e.start_time < end),
  );
  return page(p, items, paging);
}

function tvShows(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const locale = p.string('locale', { required: true });
  if (typeof locale === 'string' && !TV_MARKETS.some((m) => m.locale === locale)) {
    p.fail(invalidParameter('locale', `Unknown TV market locale ${JSON.stringify(locale)}; see targeting_criteria/tv_markets`));
  }
  const paging = readPaging(p, 50, 50);
  const items = byQuery(p, TV_SHOWS).filter((s) => s.locales.some((l) => `${l.language}-${l.country}` === locale));
  return page(p, items, paging);
}

const paged =
  (items: readonly { name: string }[]) =>
  (ctx: ApiContext): HandlerResult => {
    const paging = readPaging(ctx.params);
    return page(ctx.params, byQuery(ctx.params, items), paging);
  };

function behaviors(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const paging = readPaging(p);
  const ids = p.list('behavior_ids', { max: 200 });
  const wanted = ids === undefined ? undefined : new Set(ids);
  return page(p, byQuery(p, BEHAVIORS).filter((b) => wanted === undefined || wanted.has(b.id)), paging);
}

function behaviorTaxonomies(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const paging = readPaging(p);
  const ids = p.list('behavior_taxonomy_ids', { max: 200 });
  const parents = p.list('parent_behavior_taxonomy_ids', { max: 200 });
  const [idSet, parentSet] = [ids, parents].map((l) => (l === undefined ? undefined : new Set(l)));
  const items = BEHAVIOR_TAXONOMIES.filter((t) => (idSet === undefined || idSet.has(t.id)) && (parentSet === undefined || (t.parent_id !== null && parentSet.has(t.parent_id))));
  return page(p, items, paging);
}

const lookup = (name: string, handler: (ctx: ApiContext) => HandlerResult): RouteDef => ({
  method: 'GET',
  path: `/12/targeting_criteria/${name}`,
  family: 'targeting_options',
  access: 'none',
  appOnly: true,
  handler,
});

/** The fourteen `targeting_criteria/<option>` lookups. */
export const routes: RouteDef[] = [
  lookup('app_store_categories', appStoreCategories),
  lookup('behavior_taxonomies', behaviorTaxonomies),
  lookup('behaviors', behaviors),
  lookup('conversations', conversations),
  lookup('devices', paged(DEVICES)),
  lookup('events', events),
  lookup('interests', paged(INTERESTS)),
  lookup('languages', paged(LANGUAGES)),
  lookup('locations', locations),
  lookup('network_operators', networkOperators),
  lookup('platform_versions', (ctx) => page(ctx.params, byQuery(ctx.params, PLATFORM_VERSIONS))),
  lookup('platforms', platforms),
  lookup('tv_markets', (ctx) => page(ctx.params, TV_MARKETS)),
  lookup('tv_shows', tvShows),
];
