/**
 * What only the PostgreSQL backend does (src/state/postgres/): its schema created and migrated by
 * adsctl, refusing a database a newer adsctl migrated; advisory locks that the server releases
 * when the holder's connection drops (a runner killed with SIGKILL), which tells the holder it lost
 * them, and that hold through the server's idle timeouts; force-unlock refusing a holder still
 * connected unless forced, and then ending its session; a damaged stored state refused with what
 * is wrong; no password in messages.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../src/state/postgres/migrations.js';
import { describeConnection } from '../../src/state/postgres/connection.js';
import { PostgresStore } from '../../src/state/postgres/store.js';
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
    expect(await tables()).toEqual(['journal', 'lock_generations', 'lock_holders', 'lookup_cache', 'member_stores', 'migrations', 'state_versions', 'states']);
    const again = await PostgresStore.open({ connectionString: url, schema: 'adsctl' });
    await again.close();
    expect((await admin.query('SELECT version FROM adsctl.migrations ORDER BY version')).rows).toEqual(MIGRATIONS.map((_, i) => ({ version: i + 1 })));
  });

  it('applies a new migration once, and refuses a database migrated by a newer adsctl', async () => {
    const { admin } = await fresh('newer');
    const next = [...MIGRATIONS, (s: string) => `CREATE TABLE ${s}.extra (id integer)`];
    await migrate(admin, 'adsctl', next);
    await migrate(admin, 'adsctl', next);
    expect((await admin.query('SELECT count(*)::int AS n FROM adsctl.migrations')).rows[0]).toEqual({ n: MIGRATIONS.length + 1 });
    await expect(migrate(admin, 'adsctl')).rejects.toThrow(`the schema adsctl was migrated by a newer adsctl (migration ${MIGRATIONS.length + 1}; this one knows ${MIGRATIONS.length}): upgrade adsctl`);
  });

  it('keeps member stores per account and name, replacing one written again', async () => {
    const { url } = await fresh('member_rows');
    const store = await PostgresStore.open({ connectionString: url, schema: 'adsctl' });
    try {
      const [a, b] = [store.memberRows('acct-a'), store.memberRows('acct-b')];
      const cases: Array<[string, () => Promise<unknown>, unknown]> = [
        ['nothing kept yet', () => a.read('id-1.bin'), undefined],
        ['written', async () => (await a.write('id-1.bin', Buffer.from([1, 2, 3])), a.read('id-1.bin')), Buffer.from([1, 2, 3])],
        ['written again', async () => (await a.write('id-1.bin', Buffer.from([4])), a.read('id-1.bin')), Buffer.from([4])],
        ['another account apart', () => b.read('id-1.bin'), undefined],
        ['listed by name', async () => (await a.write('id-0.bin', Buffer.from([0])), a.names()), ['id-0.bin', 'id-1.bin']],
        ['removed', async () => (await a.remove('id-1.bin'), a.names()), ['id-0.bin']],
      ];
      for (const [what, act, expected] of cases) expect(await act(), what).toEqual(expected);
    } finally {
      await store.close();
    }
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
  /** A second runner on the same database: a store of its own, so a session of its own. */
  async function runner(url: string): Promise<PostgresStore> {
    const store = await PostgresStore.open({ connectionString: url, schema: 'adsctl' });
    opened.push(store);
    return store;
  }

  /** The backend of the session holding the advisory lock of `account`, from its holder row. */
  const holderBackend = async (admin: pg.Client, account: string): Promise<number> =>
    (await admin.query<{ pid: number }>('SELECT backend_pid AS pid FROM adsctl.lock_holders WHERE account = $1', [account])).rows[0]!.pid;

  it('are released by the server when the holder connection drops, as when a runner is killed, and the holder is told', async () => {
    const { url, store, admin } = await fresh('killed');
    const other = await runner(url);
    const held = await store.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    expect(await other.lock('acme', 'plan', 0)).toMatchObject({ heldBy: { id: held.info.id } });
    expect(held.lost?.aborted).toBe(false);
    const lost = new Promise<unknown>((resolve) => held.lost?.addEventListener('abort', () => resolve(held.lost?.reason)));
    // the holder's session ends without a word, as a SIGKILLed runner's does
    await admin.query('SELECT pg_terminate_backend($1)', [await holderBackend(admin, 'acme')]);
    expect(String(await lost)).toMatch(/the state lock of account acme in postgres:\/\/\S+ was lost: the session that held it ended \(terminating connection due to administrator command\)/);
    // the server releases it once the ended backend has exited
    const next = await other.lock('acme', 'plan', 5_000);
    expect('heldBy' in next).toBe(false);
    // the run that lost its lock can write nothing more: its state went through the same session
    await expect(store.write(emptyState('acme', 'local'), 'apply')).rejects.toThrow(/the state lock of account acme in postgres:\/\/\S+ was lost/);
    if (!('heldBy' in next)) await next.release();
    await held.release();
  });

  it('have a generation, one more at every acquisition; a holder whose generation moved on writes nothing and fails verify', async () => {
    const { url, store, admin } = await fresh('generation');
    const other = await runner(url);
    const first = await store.lock('acme', 'apply', 0, { requestTimeoutMs: 7_000 });
    if ('heldBy' in first) throw new Error('not taken');
    expect(first.info).toMatchObject({ generation: 1, request_timeout_ms: 7_000 });
    await store.write(emptyState('acme', 'local'), 'apply');
    await first.release();
    const second = await store.lock('acme', 'apply', 0);
    if ('heldBy' in second) throw new Error('not taken');
    expect(second.info.generation).toBe(2);
    await second.verify?.();
    const journal = await store.openJournal('acme');
    await journal.begin({ journal: '0123456789abcdef', base: 1 });
    // the generation moves on without this session ending (an administrator, another tool): the
    // statements themselves refuse, whatever the session believes
    await admin.query('UPDATE adsctl.lock_generations SET generation = generation + 1 WHERE account = $1', ['acme']);
    await expect(second.verify?.()).rejects.toThrow(/another run holds a later generation of it/);
    await expect(store.checkpoint({ ...emptyState('acme', 'local'), serial: 9 }, 'apply', true)).rejects.toThrow(/another run holds a later generation/);
    await expect(journal.append({ done: 1 })).rejects.toThrow(/another run holds a later generation/);
    await expect(store.clearJournal('acme')).rejects.toThrow(/another run holds a later generation/);
    expect((await admin.query<{ serial: string }>('SELECT serial FROM adsctl.states WHERE account = $1', ['acme'])).rows[0]?.serial).toBe('1');
    expect((await admin.query<{ n: string }>('SELECT count(*) AS n FROM adsctl.journal WHERE account = $1', ['acme'])).rows[0]?.n).toBe('1');
    await second.release();
    // a holder row left by a session that ended: the next run is told its former holder may still run
    const third = await other.lock('acme', 'apply', 0);
    if ('heldBy' in third) throw new Error('not taken');
    expect(third.previousMayRun).toBeUndefined();
    await admin.query('SELECT pg_terminate_backend($1)', [await holderBackend(admin, 'acme')]);
    await admin.query(`UPDATE adsctl.lock_holders SET info = jsonb_set(info, '{process}', '{"boot_id": "elsewhere"}') WHERE account = 'acme'`);
    const fourth = await (await runner(url)).lock('acme', 'apply', 5_000);
    if ('heldBy' in fourth) throw new Error('not taken');
    expect(fourth.tookOver?.id).toBe(third.info.id);
    expect(fourth.previousMayRun).toEqual({ requestTimeoutMs: 60_000, silentMs: 0 });
    await fourth.release();
  });

  it('are busy for the run that holds them: a second lock of one account in one run waits', async () => {
    const { store } = await fresh('one-session');
    const [a, b] = await Promise.all([store.lock('acme', 'apply', 0), store.lock('acme', 'plan', 0)]);
    expect([a, b].filter((l) => 'heldBy' in l)).toHaveLength(1);
    for (const l of [a, b]) if (!('heldBy' in l)) await l.release();
    const again = await store.lock('acme', 'plan', 0);
    expect('heldBy' in again).toBe(false);
    if (!('heldBy' in again)) await again.release();
  });

  it('hold through the server ending idle sessions: the session turns those timeouts off', async () => {
    const { url, store, admin } = await fresh('idle');
    await admin.query(`ALTER DATABASE ${new URL(url).pathname.slice(1)} SET idle_session_timeout = '300ms'`);
    await admin.query(`ALTER DATABASE ${new URL(url).pathname.slice(1)} SET idle_in_transaction_session_timeout = '300ms'`);
    const idle = await PostgresStore.open({ connectionString: url, schema: 'adsctl' });
    opened.push(idle);
    const held = await idle.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(held.lost?.aborted).toBe(false);
    expect(await store.lock('acme', 'plan', 0)).toMatchObject({ heldBy: { id: held.info.id } });
    await held.release();
  });

  it('wait for the holder up to the timeout, polling by the injected sleep', async () => {
    const url = await freshDatabase('wait');
    let now = 0;
    const slept: number[] = [];
    const store = await PostgresStore.open({ connectionString: url, schema: 'adsctl', now: () => now, sleep: (ms) => ((now += ms), slept.push(ms), Promise.resolve()) });
    opened.push(store);
    const other = await PostgresStore.open({ connectionString: url, schema: 'adsctl', now: () => now, sleep: (ms) => ((now += ms), slept.push(ms), Promise.resolve()) });
    opened.push(other);
    const held = await store.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    expect(await other.lock('acme', 'plan', 1_000)).toMatchObject({ heldBy: { id: held.info.id, operation: 'apply' } });
    expect(slept.reduce((a, b) => a + b, 0)).toBe(1_000);
    await held.release();
  });

  it('force-unlock refuses a holder whose session is connected unless forced, then ends it and frees the lock', async () => {
    const { url, store } = await fresh('force');
    const other = await runner(url);
    const held = await store.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    expect(await other.forceUnlock('no-such-id', false)).toBeUndefined();
    expect(await other.forceUnlock(held.info.id, false)).toMatchObject({ live: { id: held.info.id, operation: 'apply' }, why: expect.stringContaining('still connected') });
    expect(held.lost?.aborted).toBe(false);
    expect(await other.forceUnlock(held.info.id, true)).toMatchObject({ removed: { id: held.info.id } });
    await new Promise<void>((resolve) => (held.lost?.aborted === true ? resolve() : held.lost?.addEventListener('abort', () => resolve())));
    const next = await other.lock('acme', 'plan', 5_000);
    expect('heldBy' in next).toBe(false);
    if (!('heldBy' in next)) await next.release();
    await held.release();
  });

  it('force-unlock removes the row of a holder that is gone without --force', async () => {
    const { url, store, admin } = await fresh('force-gone');
    const other = await runner(url);
    const held = await store.lock('acme', 'apply', 0);
    if ('heldBy' in held) throw new Error('not taken');
    const backend = await holderBackend(admin, 'acme');
    await admin.query('SELECT pg_terminate_backend($1)', [backend]);
    await waitFor(() => held.lost?.aborted === true);
    // the client sees its connection end before the server has let the session go: wait for the server
    for (let i = 0; i < 200 && (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [backend])).rows[0].n > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await other.forceUnlock(held.info.id, false)).toMatchObject({ removed: { id: held.info.id } });
    expect((await admin.query('SELECT count(*)::int AS n FROM adsctl.lock_holders')).rows[0]).toEqual({ n: 0 });
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

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
