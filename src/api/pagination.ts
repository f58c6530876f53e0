/**
 * Reading lists at the least cost: the largest page an endpoint allows, cursors followed to the
 * end, id filters cut into chunks of 200 fetched in parallel. Never `with_total_count`, which
 * has its own small budget and is not needed to read everything.
 */
import type { ApiClient, Params } from './client.js';

/** The list envelope: `data`, `next_cursor`. */
interface ListBody<T> {
  data: T[];
  next_cursor?: string | null;
}

export interface ListRequest {
  path: string;
  params?: Params;
  endpoint: string;
  accountId?: string;
  /** The endpoint's largest `count` (1000 unless it states its own). */
  countMax?: number;
  /** False for a list that takes no `count` or `cursor` (the do-not-reach lists): one request reads it all. */
  paged?: false;
  /** Bounds each request's wait for its rate-limit budget (a lookup with a cached copy to fall back on). */
  maxWaitMs?: number;
}

/**
 * Every record of a list, following cursors; one request per `countMax` records. Each next page
 * is asked for as soon as its cursor is known, before the records of the page that named it are
 * copied, and waits for a slot ahead of requests that start something new (`nextPage`).
 */
export async function listAll<T>(client: ApiClient, req: ListRequest): Promise<T[]> {
  const out: T[] = [];
  const paged = req.paged !== false;
  const page = (cursor: string | undefined): Promise<{ body: ListBody<T> }> =>
    client.send<ListBody<T>>({
      method: 'GET',
      path: req.path,
      endpoint: req.endpoint,
      ...(req.accountId === undefined ? {} : { accountId: req.accountId }),
      ...(req.maxWaitMs === undefined ? {} : { maxWaitMs: req.maxWaitMs }),
      ...(cursor === undefined ? {} : { nextPage: true }),
      params: paged ? { ...req.params, count: req.countMax ?? 1000, ...(cursor === undefined ? {} : { cursor }) } : (req.params ?? {}),
    });
  let pending: Promise<{ body: ListBody<T> }> | undefined = page(undefined);
  while (pending !== undefined) {
    const res: { body: ListBody<T> } = await pending;
    const cursor = paged && typeof res.body.next_cursor === 'string' && res.body.next_cursor !== '' ? res.body.next_cursor : undefined;
    pending = cursor === undefined ? undefined : page(cursor);
    for (const item of res.body.data) out.push(item);
  }
  return out;
}

/** Splits `items` into chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Every record matching an id filter: ids de-duplicated, cut into chunks of `chunkSize` (200),
 * each chunk listed (with cursors) in parallel; results in chunk order.
 */
export async function listByIds<T>(client: ApiClient, req: ListRequest, idParam: string, ids: readonly string[], chunkSize = 200): Promise<T[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const parts = await Promise.all(chunk(unique, chunkSize).map((part) => listAll<T>(client, { ...req, params: { ...req.params, [idParam]: part } })));
  return parts.flat();
}
