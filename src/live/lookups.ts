/**
 * The lookups a plan validates against: bidding rules per currency, placement combinations per
 * product type, IAB categories, and the caller's permissions on the account. The first three rarely change and the
 * service allows only a few global reads per 15 minutes, so they are cached under `.adsctl/cache/`
 * with a time-to-live (bidding rules and categories a month, as the spec advises for rules;
 * placements a week).
 * Permissions are read fresh.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdsApi } from '../api/ads-api.js';
import type { BiddingRule, PlacementCombination } from '../api/generated/wire.js';

export const BIDDING_RULES_TTL_MS = 30 * 24 * 3600 * 1000;
export const PLACEMENTS_TTL_MS = 7 * 24 * 3600 * 1000;
export const IAB_CATEGORIES_TTL_MS = 30 * 24 * 3600 * 1000;

export interface Lookups {
  biddingRules: BiddingRule[];
  placements: PlacementCombination[];
  /** Permissions of the caller per account id. */
  permissions: Record<string, string[]>;
  /** IAB category ids (line item `categories`); absent when no change sets categories. */
  iabCategories?: string[];
  /** Curated category ids available to the account; absent when no change attaches one. */
  curatedCategories?: string[];
  /** The post ids the plan promotes that were looked up (`checked`), and those the account can see (`found`). */
  posts?: { checked: string[]; found: string[] };
  /** User ids of the account's promotable users (the authors a post may have), when a post names one. */
  promotableUsers?: string[];
}

interface CacheEntry<T> {
  fetched_at: number;
  data: T;
}

interface CacheFile {
  bidding_rules?: CacheEntry<BiddingRule[]>;
  placements?: CacheEntry<PlacementCombination[]>;
  iab_categories?: CacheEntry<string[]>;
}

function cachePath(cacheDir: string, endpoint: string): string {
  return join(cacheDir, `lookups-${endpoint.replace(/[^A-Za-z0-9_.-]+/g, '_')}.json`);
}

function readCache(path: string): CacheFile {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as CacheFile;
  } catch {
    return {};
  }
}

function writeCache(path: string, dir: string, file: CacheFile): void {
  mkdirSync(dir, { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(file)}\n`);
  renameSync(tmp, path);
}

export interface LookupInput {
  api: AdsApi;
  /** Endpoint name, part of the cache file name. */
  endpoint: string;
  cacheDir: string;
  accountIds: readonly string[];
  /** Whether a change sets line item categories (only then are IAB categories read). */
  needIabCategories?: boolean;
  /** Whether a change attaches curated categories (only then are the account's read). */
  needCuratedCategories?: boolean;
  /** Ids of the posts the plan promotes, to look up (none: no read). */
  postIds?: readonly string[];
  /** Whether a post names its author (only then are the promotable users read). */
  needPromotableUsers?: boolean;
  now?: number;
}

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
  const path = cachePath(input.cacheDir, input.endpoint);
  const cache = readCache(path);
  let changed = false;
  const fresh = <T>(entry: CacheEntry<T> | undefined, ttl: number): entry is CacheEntry<T> => entry !== undefined && now - entry.fetched_at < ttl;

  const accountId = input.accountIds[0];
  const postIds = [...new Set(input.postIds ?? [])];
  const [biddingRules, placements, permissions, iabCategories, curatedCategories, posts, promotableUsers] = await Promise.all([
    fresh(cache.bidding_rules, BIDDING_RULES_TTL_MS)
      ? cache.bidding_rules.data
      : input.api.biddingRules().then((data) => {
          cache.bidding_rules = { fetched_at: now, data };
          changed = true;
          return data;
        }),
    fresh(cache.placements, PLACEMENTS_TTL_MS)
      ? cache.placements.data
      : input.api.placements().then((data) => {
          cache.placements = { fetched_at: now, data };
          changed = true;
          return data;
        }),
    Promise.all(input.accountIds.map(async (id) => [id, (await input.api.userAccess(id)).permissions] as const)),
    input.needIabCategories !== true
      ? undefined
      : fresh(cache.iab_categories, IAB_CATEGORIES_TTL_MS)
        ? cache.iab_categories.data
        : input.api.iabCategories().then((records) => {
            const data = records.map((r) => r.id);
            cache.iab_categories = { fetched_at: now, data };
            changed = true;
            return data;
          }),
    // per account and cheap (one account read): not cached
    input.needCuratedCategories === true && accountId !== undefined ? input.api.curatedCategories(accountId).then((records) => records.map((r) => r.id)) : undefined,
    // posts are checked fresh: a post deleted since the last plan must not be promoted
    postIds.length > 0 && accountId !== undefined ? existingPosts(input.api, accountId, postIds).then((found) => ({ checked: postIds, found })) : undefined,
    input.needPromotableUsers === true && accountId !== undefined ? input.api.list('promotable_user', accountId).then((users) => users.map((u) => String(u.user_id))) : undefined,
  ]);
  if (changed) writeCache(path, input.cacheDir, cache);
  return {
    biddingRules,
    placements,
    permissions: Object.fromEntries(permissions),
    ...(iabCategories === undefined ? {} : { iabCategories }),
    ...(curatedCategories === undefined ? {} : { curatedCategories }),
    ...(posts === undefined ? {} : { posts }),
    ...(promotableUsers === undefined ? {} : { promotableUsers }),
  };
}
