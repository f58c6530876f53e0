/**
 * The lookups a plan validates against: bidding rules per currency, placement combinations per
 * product type, IAB categories, the targeting options its new criteria's values must be among
 * (targeting-values.ts), and the caller's permissions on the account. All but the permissions
 * rarely change and the service allows only a few global reads per 15 minutes, so they are cached
 * in the state backend (`.adsctl/cache/` for local state, a table for PostgreSQL)
 * with a time-to-live (bidding rules and categories a month, as the spec advises for rules;
 * placements and targeting options a week, events a day), each targeting option read apart.
 * Permissions are read fresh.
 *
 * The global lookups are the same for every account of an endpoint: a run fetches each at most
 * once (`SharedLookups`), however many accounts ask at the same moment. When the service's budget
 * for one is spent and a copy past its lifetime is cached, that copy is used, with a warning,
 * rather than waiting up to 15 minutes for the next window.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { LookupCache } from '../state/store.js';
import { ApiError } from '../api/errors.js';
import type { BiddingRule, PlacementCombination } from '../api/generated/wire.js';
import { checkedCache } from './lookup-cache.js';
import { fetchTargetingValues, readTargetingOptions, type LookupRead, type TargetingOption, type TargetingValues } from './targeting-values.js';

export const BIDDING_RULES_TTL_MS = 30 * 24 * 3600 * 1000;
const PLACEMENTS_TTL_MS = 7 * 24 * 3600 * 1000;
const IAB_CATEGORIES_TTL_MS = 30 * 24 * 3600 * 1000;

export interface Lookups {
  biddingRules: BiddingRule[];
  placements: PlacementCombination[];
  /** Permissions of the caller per account id. */
  permissions: Record<string, string[]>;
  /** IAB category ids (line item `categories`); absent when no change sets categories. */
  iabCategories?: string[];
  /** Curated category ids available to the account; absent when no change attaches one. */
  curatedCategories?: string[];
  /** Per targeting type, the values of new criteria that were looked up and the options read; absent when none were. */
  targetingValues?: Record<string, TargetingValues>;
  /** The post ids the plan promotes that were looked up (`checked`), and those the account can see (`found`). */
  posts?: { checked: string[]; found: string[] };
  /** User ids of the account's promotable users (the authors a post may have), when a post names one. */
  promotableUsers?: string[];
  /** Cached lookups used past their lifetime because the service's budget for them was spent. */
  stale?: string[];
  /** Entries of the lookup cache that were damaged, discarded and read again (`*`: the whole file), and where the cache is. */
  discarded?: { where: string; entries: string[] };
}

/**
 * The global lookups of one run, shared by its accounts: the first account to need one fetches
 * it, the others wait for that fetch. Keyed by the cache file (one per endpoint) and the lookup.
 */
export class SharedLookups {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  /** The value of `key`, fetched by `fetch` unless this run has already fetched (or is fetching) it. */
  once<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    let pending = this.inFlight.get(key) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = fetch();
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}

interface CacheEntry<T> {
  fetched_at: number;
  data: T;
}

interface CacheFile {
  bidding_rules?: CacheEntry<BiddingRule[]>;
  placements?: CacheEntry<PlacementCombination[]>;
  iab_categories?: CacheEntry<string[]>;
  /** One entry per targeting option read (`targeting:<lookup>?<filters>`). */
  [read: `targeting:${string}`]: CacheEntry<TargetingOption[]>;
}

/** The cache entry of an endpoint's lookups (`.adsctl/cache/<name>.json` for local state). */
function cacheName(endpoint: string): string {
  return `lookups-${endpoint.replace(/[^A-Za-z0-9_.-]+/g, '_')}`;
}

interface LookupInput {
  api: AdsApi;
  /** Endpoint name, part of the cache entry's name. */
  endpoint: string;
  /** Where the lookup cache is kept: the state backend's cache. */
  cache: LookupCache;
  accountIds: readonly string[];
  /** Whether a change sets line item categories (only then are IAB categories read). */
  needIabCategories?: boolean;
  /** Whether a change attaches curated categories (only then are the account's read). */
  needCuratedCategories?: boolean;
  /** Per targeting type, the values of new criteria to look up (none: no read). */
  targetingValues?: Readonly<Record<string, readonly string[]>>;
  /** Ids of the posts the plan promotes, to look up (none: no read). */
  postIds?: readonly string[];
  /** Whether a post names its author (only then are the promotable users read). */
  needPromotableUsers?: boolean;
  /** The run's shared global lookups; without it, this call fetches its own. */
  shared?: SharedLookups;
  now?: number;
}

/** How long a lookup read waits for the service's budget when a cached copy could stand in: not at all. */
const NO_WAIT = 0;

/** A rate-limit refusal: the service's budget for the read is spent. */
const rateLimited = (error: unknown): boolean => error instanceof ApiError && error.status === 429;

/**
 * The posts among `ids` the account can promote: those of its FULL promotable user, then, for the
 * rest, those of its other promotable users; 200 ids a request, and nothing more when the first
 * user's posts are all there are.
 */
async function existingPosts(api: AdsApi, accountId: string, ids: readonly string[]): Promise<string[]> {
  const found = new Set(await api.publishedPosts(accountId, ids));
  let rest = ids.filter((id) => !found.has(id));
  if (rest.length === 0) return [...found];
  for (const user of await api.list('promotable_user', accountId)) {
    if (user.promotable_user_type === 'FULL' || rest.length === 0) continue;
    for (const id of await api.publishedPosts(accountId, rest, user.user_id)) found.add(id);
    rest = rest.filter((id) => !found.has(id));
  }
  return [...found];
}

/** Fetches (or takes from the cache) the lookups for the given accounts. */
export async function fetchLookups(input: LookupInput): Promise<Lookups> {
  const now = input.now ?? Date.now();
  const cacheEntry = cacheName(input.endpoint);
  const checked = checkedCache(await input.cache.readCache(cacheEntry));
  const cache = checked.entries as CacheFile;
  /** The entries this call fetched, written over the cache as it is when the call ends. */
  const fetched: Record<string, CacheEntry<unknown>> = {};

  const accountId = input.accountIds[0];
  const postIds = [...new Set(input.postIds ?? [])];
  const shared = input.shared ?? new SharedLookups();
  const stale: string[] = [];
  /**
   * A global lookup: the cached copy while fresh; else fetched once for the run (and cached),
   * without waiting for the budget when an old copy can stand in — which is then used, and said
   * (as `label`).
   */
  const global = async <T>(name: keyof CacheFile & string, ttl: number, fetch: (options: { maxWaitMs?: number }) => Promise<T>, label: string = name): Promise<T> => {
    const entry = cache[name] as CacheEntry<T> | undefined;
    if (entry !== undefined && now - entry.fetched_at < ttl) return entry.data;
    const got = await shared.once(`${input.cache.where}\u0000${cacheEntry}\u0000${name}`, async (): Promise<{ data: T; stale: boolean }> => {
      try {
        return { data: await fetch(entry === undefined ? {} : { maxWaitMs: NO_WAIT }), stale: false };
      } catch (error) {
        if (entry === undefined || !rateLimited(error)) throw error;
        return { data: entry.data, stale: true };
      }
    });
    if (got.stale) stale.push(label);
    else fetched[name] = { fetched_at: now, data: got.data };
    return got.data;
  };
  const targetingOptions = (r: LookupRead): Promise<TargetingOption[]> =>
    global(`targeting:${r.key}`, r.ttlMs, (options) => readTargetingOptions(input.api, r, options), `${r.lookup} targeting options`);
  const wanted = Object.values(input.targetingValues ?? {}).some((values) => values.length > 0);
  const [biddingRules, placements, permissions, iabCategories, targetingValues, curatedCategories, posts, promotableUsers] = await Promise.all([
    global('bidding_rules', BIDDING_RULES_TTL_MS, (options) => input.api.biddingRules(undefined, options)),
    global('placements', PLACEMENTS_TTL_MS, (options) => input.api.placements(undefined, options)),
    Promise.all(input.accountIds.map(async (id) => [id, (await input.api.userAccess(id)).permissions] as const)),
    input.needIabCategories !== true ? undefined : global('iab_categories', IAB_CATEGORIES_TTL_MS, async () => (await input.api.iabCategories()).map((r) => r.id)),
    wanted ? fetchTargetingValues(input.targetingValues ?? {}, targetingOptions) : undefined,
    // per account and cheap (one account read): not cached
    input.needCuratedCategories === true && accountId !== undefined ? input.api.curatedCategories(accountId).then((records) => records.map((r) => r.id)) : undefined,
    // posts are checked fresh: a post deleted since the last plan must not be promoted
    postIds.length > 0 && accountId !== undefined ? existingPosts(input.api, accountId, postIds).then((found) => ({ checked: postIds, found })) : undefined,
    input.needPromotableUsers === true && accountId !== undefined ? input.api.list('promotable_user', accountId).then((users) => users.map((u) => String(u.user_id))) : undefined,
  ]);
  if (Object.keys(fetched).length > 0 || checked.discarded.length > 0) {
    // other accounts of the run may have written entries of their own since this call read the
    // cache; damaged entries are not written back
    const base = checkedCache(await input.cache.readCache(cacheEntry)).entries;
    await input.cache.writeCache(cacheEntry, { ...base, ...fetched });
  }
  return {
    biddingRules,
    placements,
    permissions: Object.fromEntries(permissions),
    ...(iabCategories === undefined ? {} : { iabCategories }),
    ...(targetingValues === undefined ? {} : { targetingValues }),
    ...(curatedCategories === undefined ? {} : { curatedCategories }),
    ...(posts === undefined ? {} : { posts }),
    ...(promotableUsers === undefined ? {} : { promotableUsers }),
    ...(stale.length === 0 ? {} : { stale: [...new Set(stale)] }),
    ...(checked.discarded.length === 0 ? {} : { discarded: { where: `${input.cache.where} (${cacheEntry}.json)`, entries: checked.discarded } }),
  };
}
