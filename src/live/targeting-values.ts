/**
 * Looking targeting values up (`GET /12/targeting_criteria/<lookup>`) in as few requests as the
 * lookups' filters allow. Each lookup is read in waves, narrowest first, and the reading stops at
 * the first wave after which every value looked for was found:
 *
 * - `locations`: one location type at a time, broadest first (COUNTRIES, REGIONS, METROS, CITIES,
 *   POSTAL_CODES), 1,000 a page. The lookup has no filter by value, and a value does not say its
 *   country, so this is the narrowest read that still proves a value unknown; a country is one
 *   request, and a value no type lists costs one request per type more than a read of all of them.
 * - `network_operators`: the US (the lookup's default country) first, then every other country
 *   of the `locations` lookup's COUNTRIES, at once.
 * - `tv_shows`: the shows of every market of `tv_markets`, 50 a page (the lookup needs a locale).
 * - `events`: current and upcoming events first, then past events too.
 * - the others: one read of the whole lookup (`app_store_categories` and `platform_versions` are
 *   not paged).
 *
 * Every read is cached apart (see lookups.ts), so a wave read once serves later plans too.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { Params } from '../api/client.js';
import { targetingLookupOf, type TargetingLookup } from '../kinds/targeting-lookups.js';

/** One option of a lookup: the value a criterion takes, its name, and its country when it has one. */
export interface TargetingOption {
  value: string;
  name: string;
  country?: string;
}

/** What the lookups say about the values of one targeting type. */
export interface TargetingValues {
  /** The values looked up. */
  checked: string[];
  /** The options read while looking for them: the whole lookup whenever one was not found. */
  options: TargetingOption[];
}

/** One request (with its pages) of a lookup: the unit that is cached. */
export interface LookupRead {
  /** Names the read in the cache: the lookup and its filters. */
  key: string;
  /** The lookup read: `GET /12/targeting_criteria/<lookup>`. */
  lookup: string;
  params: Params;
  /** How the lookup pages when not at 1,000 a page. */
  paging: { countMax?: number; paged?: false };
  /** The item field holding the option's value (`targeting_value`, a market's `locale`). */
  valueField: string;
  /** How long a cached copy of the read is used. */
  ttlMs: number;
}

/** Reads the options of one lookup read, from the cache or the service. */
type ReadOptions = (read: LookupRead) => Promise<TargetingOption[]>;

/** Targeting options change seldom: a cached read is used for a week. */
const TARGETING_OPTIONS_TTL_MS = 7 * 24 * 3600 * 1000;
/** Events are added often: a cached read of them is used for a day. */
const EVENTS_TTL_MS = 24 * 3600 * 1000;

/** The `location_type` filter values, broadest first. */
const LOCATION_TYPES = ['COUNTRIES', 'REGIONS', 'METROS', 'CITIES', 'POSTAL_CODES'] as const;

/** The start of every event the `events` lookup can list. */
const EARLIEST_EVENT = '1970-01-01T00:00:00Z';

const read = (lookup: string, params: Params = {}, more: Partial<LookupRead> = {}): LookupRead => {
  const filters = Object.entries(params)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join('&');
  return { key: filters === '' ? lookup : `${lookup}?${filters}`, lookup, params, paging: {}, valueField: 'targeting_value', ttlMs: TARGETING_OPTIONS_TTL_MS, ...more };
};

const countries = read('locations', { location_type: 'COUNTRIES' });
const operators = (country: string): LookupRead => read('network_operators', { country_code: country });

/** The waves of reads of each lookup, in order; a later wave may depend on what an earlier read found. */
const WAVES: Record<TargetingLookup, (options: ReadOptions) => AsyncGenerator<LookupRead[]>> = {
  async *locations() {
    for (const type of LOCATION_TYPES) yield [read('locations', { location_type: type })];
  },
  async *network_operators(options) {
    yield [operators('US')];
    const codes = new Set((await options(countries)).flatMap((c) => (c.country === undefined || c.country === 'US' ? [] : [c.country])));
    yield [...codes].sort().map(operators);
  },
  async *tv_shows(options) {
    const markets = await options(read('tv_markets', {}, { paging: { paged: false }, valueField: 'locale' }));
    yield markets.map((m) => read('tv_shows', { locale: m.value }, { paging: { countMax: 50 } }));
  },
  async *events() {
    yield [read('events', {}, { ttlMs: EVENTS_TTL_MS })];
    yield [read('events', { start_time: EARLIEST_EVENT }, { ttlMs: EVENTS_TTL_MS })];
  },
  async *app_store_categories() {
    yield [read('app_store_categories', {}, { paging: { paged: false } })];
  },
  async *platform_versions() {
    yield [read('platform_versions', {}, { paging: { paged: false } })];
  },
  async *conversations() {
    yield [read('conversations')];
  },
  async *devices() {
    yield [read('devices')];
  },
  async *interests() {
    yield [read('interests')];
  },
  async *languages() {
    yield [read('languages')];
  },
  async *platforms() {
    yield [read('platforms')];
  },
};

/** The options of one lookup read from the service (every page); `maxWaitMs` bounds the wait for its budget. */
export async function readTargetingOptions(api: AdsApi, r: LookupRead, options: { maxWaitMs?: number } = {}): Promise<TargetingOption[]> {
  const items = await api.targetingOptions(r.lookup, r.params, { ...r.paging, ...options });
  return items.map((item) => {
    const country = item['country_code'];
    return { value: String(item[r.valueField]), name: String(item['name']), ...(typeof country === 'string' ? { country } : {}) };
  });
}

/** The options of `lookup` read wave by wave until every value of `wanted` was found, or the lookup is read whole. */
async function lookFor(lookup: TargetingLookup, wanted: ReadonlySet<string>, options: ReadOptions): Promise<TargetingOption[]> {
  const out: TargetingOption[] = [];
  const seen = new Set<string>();
  const missing = new Set(wanted);
  for await (const wave of WAVES[lookup](options)) {
    for (const list of await Promise.all(wave.map(options))) {
      for (const option of list) {
        missing.delete(option.value);
        if (seen.has(option.value)) continue;
        seen.add(option.value);
        out.push(option);
      }
    }
    if (missing.size === 0) break;
  }
  return out;
}

/**
 * Looks up the values of each lookup-backed targeting type of `wanted` (types without a lookup
 * are left out), each lookup once for all the types it serves, the lookups at once.
 */
export async function fetchTargetingValues(wanted: Readonly<Record<string, readonly string[]>>, options: ReadOptions): Promise<Record<string, TargetingValues>> {
  const byLookup = new Map<TargetingLookup, Set<string>>();
  for (const [type, values] of Object.entries(wanted)) {
    const lookup = targetingLookupOf(type);
    if (lookup === undefined || values.length === 0) continue;
    const set = byLookup.get(lookup) ?? new Set<string>();
    for (const value of values) set.add(value);
    byLookup.set(lookup, set);
  }
  const read = new Map(await Promise.all([...byLookup].map(async ([lookup, values]) => [lookup, await lookFor(lookup, values, options)] as const)));
  const out: Record<string, TargetingValues> = {};
  for (const [type, values] of Object.entries(wanted)) {
    const lookup = targetingLookupOf(type);
    const found = lookup === undefined ? undefined : read.get(lookup);
    if (found !== undefined) out[type] = { checked: [...new Set(values)], options: found };
  }
  return out;
}
