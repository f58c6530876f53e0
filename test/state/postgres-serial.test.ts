/**
 * The PostgreSQL store sends one statement at a time on its session, in call order: operations
 * called at once (a run's accounts checkpointing and journalling together) never reach the driver
 * concurrently, so pg's deprecation warning about its own query queue is never printed, and the
 * journal keeps the order the calls were made in.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/state/postgres/store.js';
import { emptyState } from '../../src/state/state-file.js';
import { freshDatabase } from '../support/postgres.js';

const stores: PostgresStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});

describe('statements on the store session', () => {
  it('go one at a time, in call order, with no driver warning', async () => {
    const warnings: string[] = [];
    const listen = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', listen);
    try {
      const store = await PostgresStore.open({ connectionString: await freshDatabase('serial'), schema: 'adsctl', sleep: () => Promise.resolve() });
      stores.push(store);
      const accounts = ['a1', 'a2', 'a3', 'a4'];
      await Promise.all(accounts.map((a) => store.write({ ...emptyState(a, 'local'), serial: 1 }, 'test')));
      const states = await Promise.all(accounts.map((a) => store.read(a, 'local')));
      expect(states.map((s) => (typeof s === 'string' ? s : s.account))).toEqual(accounts);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    expect(warnings.filter((w) => /client\.query|already executing a query/i.test(w))).toEqual([]);
  });
});
