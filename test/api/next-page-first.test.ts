/**
 * A list's next page is asked for as soon as its cursor is known and waits for a slot ahead of
 * requests that start something new (src/api/pagination.ts, src/api/semaphore.ts): a chain of
 * pages, which nothing else can shorten, is not queued behind a hundred chunks of ids.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { listAll } from '../../src/api/pagination.js';
import { Semaphore } from '../../src/api/semaphore.js';

describe('next pages first', () => {
  it('gives a freed slot to a next page before requests that waited longer', async () => {
    const slots = new Semaphore(1);
    await slots.acquire();
    const order: string[] = [];
    const started = [slots.acquire().then(() => order.push('new a')), slots.acquire(true).then(() => order.push('next page')), slots.acquire().then(() => order.push('new b'))];
    for (let i = 0; i < 3; i++) {
      slots.release();
      await Promise.resolve();
      await Promise.resolve();
    }
    await Promise.all(started);
    expect(order).toEqual(['next page', 'new a', 'new b']);
  });

  it('marks every page after the first, and asks for it before copying the page that named it', async () => {
    const sent: Array<{ cursor: unknown; nextPage: boolean }> = [];
    const pages = [
      { data: [1, 2], next_cursor: 'c2' },
      { data: [3, 4], next_cursor: 'c3' },
      { data: [5], next_cursor: null },
    ];
    const client = {
      send: async (req: { params: Record<string, unknown>; nextPage?: boolean }) => {
        sent.push({ cursor: req.params['cursor'], nextPage: req.nextPage === true });
        return { status: 200, headers: {}, body: pages[sent.length - 1] };
      },
    } as unknown as ApiClient;
    expect(await listAll<number>(client, { path: '/12/accounts/a/line_items', endpoint: 'line_item.list', countMax: 2 })).toEqual([1, 2, 3, 4, 5]);
    expect(sent).toEqual([
      { cursor: undefined, nextPage: false },
      { cursor: 'c2', nextPage: true },
      { cursor: 'c3', nextPage: true },
    ]);
  });
});
