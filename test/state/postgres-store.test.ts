/**
 * What only the PostgreSQL backend does (src/state/postgres/): its schema created and migrated by
 * adsctl, refusing a database a newer adsctl migrated; advisory locks that the server releases
 * when the holder's connection drops (a runner killed with SIGKILL); force-unlock ending the
 * holder's session; a damaged stored state refused with what is wrong; no password in messages.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../src/state/postgres/migrations.js';
import { describeConnection, PostgresStore } from '../../src/state/postgres/store.js';
import { emptyState } from '../../src/state/state-file.js';
import type { StateStore } from '../../src/state/store.js';
import { freshDatabase } from '../support/postgres.js';

const opened: Array<StateStore | pg.Client> = [];
afterAll(async () => {
  for (const o of opened) await (o instanceof pg.Client ? o.end() : o.close());
});

async function fresh(label: string): Promise<{ url: string; store: PostgresStore; admin: pg.Client }> {
  const url = await freshDatabase(label);
  const store = await PostgresStore.open({ connectionString: url, schema: 'adsctl', sleep: () => Promise.resolve() });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  opened.push(store, admin);
  return { url, store, admin };
}

describe('the PostgreSQL schema', () => {
  it('is created on first use, one table per concern, and migrating again changes nothing', async () => {
    const { url, admin } = await fresh('migrate');
    const tables = async (): Promise<string[]> => (await admin.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'adsctl' ORDER BY 1")).rows.map((r) => r.t);
    expect(await tables()).toEqual(['journal', 'lock_holders', 'lookup_cache', 'migrations', 'state_versions', 'states']);
    const again = await PostgresStore.open({ connectionString: url, schema: 'adsctl' });
    await again.close();
    expect((await admin.query('SELECT version FROM adsctl.migrations')).rows).toEqual([{ version: MIGRATIONS.length }]);
  });

  it('applies a new migration once, and refuses a database migrated by a newer adsctl', async () => {
    const { admin } = await fresh('newer');
    const next = [...MIGRATIONS, (s: string) => `CREATE TABLE ${s}.extra (id integer)`];
    await migrate(admin, 'adsctl', next);
    await migrate(admin, 'adsctl', next);
    expect((await admin.query('SELECT count(*)::int AS n FROM adsctl.migrations')).rows[0]).toEqual({ n: 2 });
    await expect(migrate(admin, 'adsctl')).rejects.toThrow('the schema adsctl was migrated by a newer adsctl (migration 2; this one knows 1): upgrade adsctl');
  });

  it('keeps two schemas of one database apart', async () => {
    const { url, store } = await fresh('schemas');
    const other = await PostgresStore.open({ connectionString: url, schema: 'team_b' });
    opened.push(other);
    await store.write(emptyState('acme', 'local'), 'import');
    expect(await other.accounts()).toEqual([]);
  });
});

describe('PostgreSQL locks', () => {
  it('are released by the server when the holder connection drops, as when a runner is killed', async () => {
    const { store, admin } = await fresh('killed');
    const held = await store.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    expect(await store.lock('acme', 'plan', 0)).toMatchObject({ heldBy: { id: held.info.id } });
    // the holder's session ends without a word, as a SIGKILLed runner's does
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'adsctl lock'");
    const next = await store.lock('acme', 'plan', 0);
    expect('heldBy' in next).toBe(false);
    if (!('heldBy' in next)) await next.release();
    await held.release();
  });

  it('wait for the holder up to the timeout, polling by the injected sleep', async () => {
    const url = await freshDatabase('wait');
    let now = 0;
    const slept: number[] = [];
    const store = await PostgresStore.open({ connectionString: url, schema: 'adsctl', now: () => now, sleep: (ms) => ((now += ms), slept.push(ms), Promise.resolve()) });
    opened.push(store);
    const held = await store.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    expect(await store.lock('acme', 'plan', 1_000)).toMatchObject({ heldBy: { id: held.info.id, operation: 'apply' } });
    expect(slept.reduce((a, b) => a + b, 0)).toBe(1_000);
    await held.release();
  });

  it('force-unlock ends the holder session and frees the lock', async () => {
    const { store } = await fresh('force');
    const held = await store.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    expect(await store.forceUnlock('no-such-id')).toBeUndefined();
    expect((await store.forceUnlock(held.info.id))?.id).toBe(held.info.id);
    const next = await store.lock('acme', 'plan', 0);
    expect('heldBy' in next).toBe(false);
    if (!('heldBy' in next)) await next.release();
    await held.release();
  });
});

describe('PostgreSQL state', () => {
  it('refuses a damaged stored state with what is wrong and what to do', async () => {
    const { store, admin } = await fresh('damaged');
    await store.write(emptyState('acme', 'local'), 'import');
    await admin.query(`UPDATE adsctl.states SET state = jsonb_set(state, '{resources}', '{"campaigns.c": {"kind": "campaign", "id": 5}}')`);
    const read = await store.read('acme', 'local');
    expect(read).toContain('the state of account acme in postgres://');
    expect(read).toContain('resources["campaigns.c"].id must be a string, not 5');
    expect(read).toContain('state push --force');
  });

  it.each([
    { url: 'postgres://ci:s3cret@db.example.net:5432/adsctl', shown: 'postgres://db.example.net:5432/adsctl' },
    { url: 'postgresql://db.example.net/adsctl?sslmode=require&password=s3cret', shown: 'postgres://db.example.net/adsctl' },
  ])('names where it is without the password: $shown', ({ url, shown }) => {
    expect(describeConnection(url)).toBe(shown);
  });

  it('says which server it cannot reach, without the password', async () => {
    await expect(PostgresStore.open({ connectionString: 'postgres://u:s3cret@127.0.0.1:1/none', schema: 'adsctl' })).rejects.toThrow(/^cannot use the state in postgres:\/\/127\.0\.0\.1:1\/none: /);
    await expect(PostgresStore.open({ connectionString: 'postgres://u:s3cret@127.0.0.1:1/none', schema: 'adsctl' })).rejects.not.toThrow('s3cret');
  });
});
