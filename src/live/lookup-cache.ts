/**
 * The lookup cache as read back: every entry is checked for the shape its lookup has before it is
 * trusted. A damaged entry (valid JSON of the wrong shape, an empty list where the service always
 * has some) is discarded, so the lookup is read again, and named, so the plan says so; a file that
 * is not an object of entries is discarded whole. Without this, a damaged entry stood in for the
 * service until its lifetime ran out (up to 30 days), and failed every plan without naming a file.
 */

type Check = (data: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyList = (each: (item: unknown) => boolean): Check => (data) => Array.isArray(data) && data.length > 0 && data.every(each);
const list = (each: (item: unknown) => boolean): Check => (data) => Array.isArray(data) && data.every(each);

const CHECKS: ReadonlyArray<[RegExp, Check]> = [
  [/^bidding_rules$/, nonEmptyList((r) => isObject(r) && typeof r['currency'] === 'string' && typeof r['minimum_cpe_bid_local_micro'] === 'number' && typeof r['maximum_cpe_bid_local_micro'] === 'number' && typeof r['minimum_denomination'] === 'number')],
  [/^placements$/, nonEmptyList((p) => isObject(p) && typeof p['product_type'] === 'string' && Array.isArray(p['placements']))],
  [/^iab_categories$/, nonEmptyList((c) => typeof c === 'string')],
  // targeting options and the markets TV shows are read by: records of the service's own shapes
  [/^targeting:/, list(isObject)],
];

/** The entries of a cache file that can be trusted, and the names of those discarded (`*` for the whole file). */
export function checkedCache(read: unknown): { entries: Record<string, { fetched_at: number; data: unknown }>; discarded: string[] } {
  if (read === undefined) return { entries: {}, discarded: [] };
  if (!isObject(read)) return { entries: {}, discarded: ['*'] };
  const entries: Record<string, { fetched_at: number; data: unknown }> = {};
  const discarded: string[] = [];
  for (const [name, entry] of Object.entries(read)) {
    const check = CHECKS.find(([pattern]) => pattern.test(name))?.[1];
    const ok = check !== undefined && isObject(entry) && typeof entry['fetched_at'] === 'number' && Number.isFinite(entry['fetched_at']) && check(entry['data']);
    if (ok) entries[name] = { fetched_at: entry['fetched_at'] as number, data: entry['data'] };
    else discarded.push(name);
  }
  return { entries, discarded };
}
