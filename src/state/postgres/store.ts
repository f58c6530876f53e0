/**
 * State kept in PostgreSQL, for teams whose CI runs on many machines (docs/architecture.md,
 * "State, journal and locks"). Tables live in a schema of their own, created and migrated by
 * adsctl (migrations.ts): the current state per account with its serial, the versions kept, the
 * journal a row per record, who holds each lock, and the lookup cache.
 *
 * Locks are session-level advisory locks held by the one connection every statement of the run
 * goes through: a runner that dies drops its connection, and the server releases its lock at once;
 * and a run whose session ended (terminated, timed out, cut off) can write nothing more, since its
 * journal and its state went through that session too. The lock is watched: TCP keepalive finds a
 * dead peer, the server's idle timeouts are off for the session, and the end of the connection
 * aborts each held lock's `lost` signal, which stops the apply. A row beside the lock says who
 * holds it, so a run that waits can name the holder; a row whose backend is gone says nothing.
 *
 * Every operation is one statement on that connection, so operations take effect in the order
 * they are called (a journal append issued after a rewrite lands after it), and the state a
 * checkpoint stores is serialised when it is called.
 */
import type { RowFence } from './fence.js';
import { connectionError, describeConnection, keepSessionOpen, KEEPALIVE_AFTER_MS, lockKey, quoteIdent } from './connection.js';
import { journalRows } from './journal.js';
import { memberRows } from './members.js';
import type { MemberRows } from '../member-rows.js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { systemClock, type Clock } from '../../clock/clock.js';
import { lineOf, readJournalLines, type JournalContents } from '../journal-record.js';
import { LockLostError } from '../lock-lost.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, holderName } from '../lock.js';
import { hostFacts, judgeHolder, pidsMeanSame } from '../lock-holder.js';
import { shapeProblems } from '../shape.js';
import { emptyState, STATE_FORMAT_VERSION, type AccountState } from '../state-file.js';
import type { AccountLocation, ForceUnlockOutcome, JournalLog, KeptVersion, Lock, LockInfo, PushOutcome, StateStore, StateVersion } from '../store.js';
import { missingCheckpoint } from '../missing-checkpoint.js';
import { migrate } from './migrations.js';

/** Versions kept per account. */
const KEPT_VERSIONS = 100;

interface PostgresOptions {
  /** The connection string (from the environment, never from a file). */
  connectionString: string;
  /** The schema of adsctl's tables. */
  schema: string;
  /** Waits between attempts to take a lock (injected by tests). */
  sleep?: (ms: number) => Promise<void>;
  /** The clock for lock deadlines (epoch ms). */
  now?: () => number;
  /** The run's clock: the time each kept version is written at, from which account history is read (the wall clock when not given). */
  clock?: Clock;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class PostgresStore implements StateStore {
  readonly where: string;
  private readonly t: { states: string; versions: string; journal: string; locks: string; generations: string; cache: string };
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  /** The locks held, by account, with what aborts their `lost` signal. */
  private readonly held = new Map<string, { lock: Lock; lose: AbortController }>();
  private readonly taking = new Set<string>();
  /** Why the connection ended, once it has; set before `close` ends it on purpose. */
  private ended: string | undefined;
  /** Which locks the end of the session took, and why: every later operation fails saying so. */
  private lostLocks: string | undefined;

  private constructor(
    private readonly client: pg.Client,
    private readonly options: PostgresOptions,
    /** The server process of this session, which `releaseAside` ends. */
    private readonly backendPid: number,
  ) {
    this.where = describeConnection(options.connectionString);
    const s = quoteIdent(options.schema);
    this.t = { states: `${s}.states`, versions: `${s}.state_versions`, journal: `${s}.journal`, locks: `${s}.lock_holders`, generations: `${s}.lock_generations`, cache: `${s}.lookup_cache` };
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
    client.on('error', (error: Error) => this.connectionEnded(error.message));
    client.on('end', () => this.connectionEnded('the server closed the connection'));
  }

  /** Connects and brings the schema up to date; throws with a message naming the server. */
  static async open(options: PostgresOptions): Promise<PostgresStore> {
    const where = describeConnection(options.connectionString);
    const client = new pg.Client({ connectionString: options.connectionString, application_name: 'adsctl', keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_AFTER_MS });
    client.on('error', () => {
      // a connection lost between statements fails the next statement, which says so
    });
    let backendPid: number;
    try {
      await client.connect();
      await keepSessionOpen(client);
      await migrate(client, options.schema);
      backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    } catch (error) {
      await client.end().catch(() => {});
      throw connectionError(where, error);
    }
    return new PostgresStore(client, options, backendPid);
  }

  /** The statement in flight on the session, which the next waits for. */
  private queue: Promise<void> = Promise.resolve();

  /** The session is over: every lock it held is lost, and said so once. */
  private connectionEnded(why: string): void {
    if (this.ended !== undefined) return;
    this.ended = why;
    const lost = [...this.held].map(([key, { lose }]) => {
      const message = `the state lock of account ${key} in ${this.where} was lost: the session that held it ended (${why})`;
      lose.abort(new LockLostError(message));
      return message;
    });
    if (lost.length > 0) this.lostLocks = lost.join('; ');
  }

  /**
   * One statement at a time on the session, in call order: queued here rather than inside the
   * driver, which warns that its own queue of concurrent `client.query()` calls is going away.
   */
  private query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.inTurn(() => this.run<R>(text, values));
  }

  /** Runs `statement` once every statement called before it has ended. */
  private inTurn<T>(statement: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(statement);
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** Statements of this session on the wire now. */
  private running = 0;

  private async run<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.lostLocks !== undefined) throw new LockLostError(this.lostLocks);
    this.running++;
    try {
      return await this.client.query<R>(text, values);
    } catch (error) {
      // the server ending the session (class 57), the connection failing (class 08, or no SQL state at all): the session is over
      const state = (error as { code?: unknown }).code;
      if (typeof state !== 'string' || !/^[0-9A-Z]{5}$/.test(state) || /^(57|08)/.test(state)) this.connectionEnded(error instanceof Error ? error.message : String(error));
      if (this.lostLocks !== undefined) throw new LockLostError(this.lostLocks);
      throw connectionError(this.where, error);
    } finally {
      this.running--;
    }
  }

  /**
   * Releases lock `id` of account `key` while a statement of this session is still running (an
   * interrupt, which cannot wait for a statement that may itself be waiting on another session's
   * lock): from a connection of its own, ends this session, which rolls back the statement and
   * frees its advisory locks, and deletes the holder row.
   */
  private async releaseAside(key: string, id: string): Promise<void> {
    const aside = new pg.Client({ connectionString: this.options.connectionString, application_name: 'adsctl', connectionTimeoutMillis: 2_000 });
    aside.on('error', () => {});
    try {
      await aside.connect();
      await aside.query('SELECT pg_terminate_backend($1)', [this.backendPid]);
      await aside.query(`DELETE FROM ${this.t.locks} WHERE account = $1 AND info->>'id' = $2`, [key, id]);
    } finally {
      await aside.end().catch(() => {});
    }
  }

  /** The generation of `key`'s lock while this session holds it; null when it does not (a write then is not fenced). */
  private generationOf(key: string): number | null {
    return this.held.get(key)?.lock.info.generation ?? null;
  }

  /**
   * The condition a write of `key`'s rows is made under, with the lock's generation as parameter
   * `$n`: that the account's generation is still the one this session was granted. A session that
   * is alive holds its advisory lock, so this holds with it; it is checked in the statement
   * itself all the same, so no write can land for a lock that moved on.
   */
  private fenceCondition(n: number): string {
    return `($${n}::bigint IS NULL OR EXISTS (SELECT 1 FROM ${this.t.generations} g WHERE g.account = $1 AND g.generation = $${n}::bigint))`;
  }

  /** The `LockLostError` of a write of `key` that its fence refused. */
  private refused(key: string): LockLostError {
    return new LockLostError(`the state lock of account ${key} in ${this.where} was lost: another run holds a later generation of it, and nothing more is written by this one`);
  }

  /** How the rows of `key` are written under its lock's generation (fence.ts). */
  private rowFence(key: string): RowFence {
    return { condition: (n) => this.fenceCondition(n), write: (text, values) => this.fencedWrite(key, text, values) };
  }

  /** Runs `text` (whose `$1` is the account and `$n` the generation) as a fenced write of `key`; refused when the fence kept it from writing. */
  private async fencedWrite(key: string, text: string, values: unknown[]): Promise<void> {
    const generation = this.generationOf(key);
    const { rows } = await this.query<{ fenced: boolean }>(text, [...values, generation]);
    if (rows[0]?.fenced !== true) throw this.refused(key);
  }

  async accounts(): Promise<string[]> {
    const { rows } = await this.query<{ account: string }>(`SELECT account FROM ${this.t.states} UNION SELECT DISTINCT account FROM ${this.t.journal} UNION SELECT DISTINCT account FROM ${this.t.versions} ORDER BY account`);
    return rows.map((r) => r.account);
  }

  async read(key: string, endpoint: string): Promise<AccountState | string> {
    const { rows } = await this.query<{ state: unknown }>(`SELECT state FROM ${this.t.states} WHERE account = $1`, [key]);
    if (rows.length === 0) {
      // a checkpoint gone while its journal or versions remain is not an empty state
      const { rows: left } = await this.query<{ journal: boolean; newest: string | null }>(
        `SELECT EXISTS (SELECT 1 FROM ${this.t.journal} WHERE account = $1) AS journal, (SELECT max(serial) FROM ${this.t.versions} WHERE account = $1) AS newest`,
        [key],
      );
      const remains = left[0];
      if (remains !== undefined && (remains.journal || remains.newest !== null)) {
        return missingCheckpoint(`the state of account ${key} in ${this.where}`, key, { journal: remains.journal, ...(remains.newest === null ? {} : { newest: Number(remains.newest) }) }, '');
      }
      return emptyState(key, endpoint);
    }
    return this.checked(rows[0]!.state, `the state of account ${key} in ${this.where}`);
  }

  /** An account's rows: a message names them by the account and the database. */
  locate(key: string): AccountLocation {
    const of = `of account ${key} in ${this.where}`;
    return { state: of, journal: of, journalAlone: `the journal ${of}` };
  }

  async otherBoundAccounts(key: string): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const other of await this.accounts()) {
      if (other === key) continue;
      const state = await this.read(other, '');
      if (typeof state !== 'string' && state.account_id !== undefined) ids.add(state.account_id);
    }
    return ids;
  }

  private checked(value: unknown, what: string): AccountState | string {
    const version = (value as { format_version?: unknown } | null)?.format_version;
    if (typeof version === 'number' && version !== STATE_FORMAT_VERSION) return `${what}: state format ${version}, which this adsctl does not know (it reads format ${STATE_FORMAT_VERSION}); use the adsctl that wrote it`;
    const problems = shapeProblems('state', value, 'the state');
    if (problems.length > 0) return `${what} is damaged: ${problems.join('; ')}. Nothing was changed: put back a good version (adsctl state history, state pull --serial N, state push --force), then run adsctl again.`;
    return value as AccountState;
  }

  async write(state: AccountState, operation: string): Promise<void> {
    state.serial++;
    await this.checkpoint(state, operation, true);
  }

  checkpoint(state: AccountState, operation: string, final: boolean): Promise<void> {
    // serialised now: requests still in flight may change the state before the statement runs
    const json = JSON.stringify(state);
    return this.store(state.account, state.serial, json, operation, final).then(() => undefined);
  }

  private async store(account: string, serial: number, json: string, operation: string, final: boolean): Promise<void> {
    await this.fencedWrite(
      account,
      `WITH fence AS (SELECT ${this.fenceCondition(8)} AS ok), current AS (
         INSERT INTO ${this.t.states} (account, serial, state, updated_at) SELECT $1, $2, $3::jsonb, now() WHERE (SELECT ok FROM fence)
         ON CONFLICT (account) DO UPDATE SET serial = EXCLUDED.serial, state = EXCLUDED.state, updated_at = now()
       ), kept AS (
         INSERT INTO ${this.t.versions} (account, serial, state, written_at, written_by, operation)
         SELECT $1, $2, $3::jsonb, $7::timestamptz, $4, $5 WHERE $6 AND (SELECT ok FROM fence)
         ON CONFLICT (account, serial) DO UPDATE SET state = EXCLUDED.state, written_at = EXCLUDED.written_at, written_by = EXCLUDED.written_by, operation = EXCLUDED.operation
       ), pruned AS (
         DELETE FROM ${this.t.versions} WHERE $6 AND (SELECT ok FROM fence) AND account = $1 AND serial < (
           SELECT coalesce(min(serial), 0) FROM (SELECT serial FROM ${this.t.versions} WHERE account = $1 ORDER BY serial DESC LIMIT ${KEPT_VERSIONS - 1}) newest
         )
       )
       SELECT ok AS fenced FROM fence`,
      [account, serial, json, holderName(), operation, final, (this.options.clock ?? systemClock).now().toISOString()],
    );
  }

  async keepVersions(key: string, versions: ReadonlyArray<KeptVersion>): Promise<void> {
    for (const { serial, written_at, written_by, operation, state } of versions) {
      await this.fencedWrite(
        key,
        `WITH fence AS (SELECT ${this.fenceCondition(7)} AS ok), kept AS (
           INSERT INTO ${this.t.versions} (account, serial, state, written_at, written_by, operation) SELECT $1, $2, $3::jsonb, $4, $5, $6 WHERE (SELECT ok FROM fence)
           ON CONFLICT (account, serial) DO UPDATE SET state = EXCLUDED.state, written_at = EXCLUDED.written_at, written_by = EXCLUDED.written_by, operation = EXCLUDED.operation
         )
         SELECT ok AS fenced FROM fence`,
        [key, serial, JSON.stringify(state), written_at, written_by, operation],
      );
    }
    await this.fencedWrite(
      key,
      `WITH fence AS (SELECT ${this.fenceCondition(2)} AS ok), pruned AS (
         DELETE FROM ${this.t.versions} WHERE (SELECT ok FROM fence) AND account = $1 AND serial < (
           SELECT coalesce(min(serial), 0) FROM (SELECT serial FROM ${this.t.versions} WHERE account = $1 ORDER BY serial DESC LIMIT ${KEPT_VERSIONS}) newest
         )
       )
       SELECT ok AS fenced FROM fence`,
      [key],
    );
  }

  async remove(key: string): Promise<void> {
    await this.fencedWrite(
      key,
      `WITH fence AS (SELECT ${this.fenceCondition(2)} AS ok),
         a AS (DELETE FROM ${this.t.states} WHERE account = $1 AND (SELECT ok FROM fence)),
         b AS (DELETE FROM ${this.t.versions} WHERE account = $1 AND (SELECT ok FROM fence)),
         c AS (DELETE FROM ${this.t.journal} WHERE account = $1 AND (SELECT ok FROM fence))
       SELECT ok AS fenced FROM fence`,
      [key],
    );
  }

  async lock(key: string, operation: string, timeoutMs: number, holding: { requestTimeoutMs?: number } = {}): Promise<Lock | { heldBy: LockInfo }> {
    const facts = hostFacts();
    const info: LockInfo = { id: randomUUID(), holder: holderName(), pid: process.pid, created_at: new Date().toISOString(), operation, process: facts.process, request_timeout_ms: holding.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS };
    const k = lockKey(this.options.schema, key);
    const deadline = this.now() + timeoutMs;
    for (;;) {
      // the session's advisory locks stack: a lock this run holds, or is taking, is busy for it too
      if (!this.held.has(key) && !this.taking.has(key)) {
        this.taking.add(key);
        try {
          const { rows } = await this.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS taken', [k]);
          if (rows[0]?.taken === true) break;
        } finally {
          this.taking.delete(key);
        }
      }
      if (this.now() >= deadline) {
        return { heldBy: (await this.lockHolder(key)) ?? { id: 'unknown', holder: 'another adsctl run', pid: 0, created_at: '', operation: 'unknown' } };
      }
      await this.sleep(Math.min(250, Math.max(10, deadline - this.now())));
    }
    const lose = new AbortController();
    let released = false;
    const lock: Lock = {
      info,
      lost: lose.signal,
      // one statement through the session: it answers only while the session, and so its advisory lock, lives
      verify: async () => {
        if (lose.signal.aborted) throw lose.signal.reason;
        if (released) throw new LockLostError(`the state lock of account ${key} in ${this.where} was released: this run may write nothing more`);
        const { rows } = await this.query<{ generation: string }>(`SELECT generation FROM ${this.t.generations} WHERE account = $1`, [key]);
        if (Number(rows[0]?.generation) !== info.generation) throw this.refused(key);
      },
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(key);
        if (lose.signal.aborted) return;
        try {
          if (this.running > 0) {
            await this.releaseAside(key, info.id);
            return;
          }
          await this.inTurn(() => this.client.query(`DELETE FROM ${this.t.locks} WHERE account = $1 AND info->>'id' = $2`, [key, info.id]));
          await this.inTurn(() => this.client.query('SELECT pg_advisory_unlock($1::bigint)', [k]));
        } catch {
          // the session is gone, and the lock with it
        }
      },
    };
    this.held.set(key, { lock, lose });
    try {
      // the next generation, then the row naming the holder with it
      const { rows } = await this.query<{ generation: string }>(
        `INSERT INTO ${this.t.generations} (account, generation) VALUES ($1, 1)
         ON CONFLICT (account) DO UPDATE SET generation = ${this.t.generations}.generation + 1 RETURNING generation`,
        [key],
      );
      info.generation = Number(rows[0]!.generation);
      const { rows: before } = await this.query<{ info: LockInfo }>(`SELECT info FROM ${this.t.locks} WHERE account = $1`, [key]);
      if (before[0] !== undefined) {
        // a row left by a holder whose session ended without releasing: the process may still be
        // running, its writes on the wire; when its session ended is not known here, so from now
        const former = before[0].info;
        lock.tookOver = former;
        lock.tookOverBecause = 'its session ended without releasing it';
        // unless its process is seen gone from here (this boot and pid namespace), which sends nothing more
        const gone = pidsMeanSame(former, facts) && judgeHolder(former, facts, new Set(), 0) !== undefined;
        if (!gone) lock.previousMayRun = { requestTimeoutMs: former.request_timeout_ms ?? DEFAULT_REQUEST_TIMEOUT_MS, silentMs: 0 };
      }
      await this.query(
        `INSERT INTO ${this.t.locks} (account, info, backend_pid) VALUES ($1, $2::jsonb, pg_backend_pid())
         ON CONFLICT (account) DO UPDATE SET info = EXCLUDED.info, backend_pid = EXCLUDED.backend_pid`,
        [key, JSON.stringify(info)],
      );
    } catch (error) {
      await lock.release();
      throw error;
    }
    return lock;
  }

  async lockHolder(key: string): Promise<LockInfo | undefined> {
    const { rows } = await this.query<{ info: LockInfo }>(
      `SELECT info FROM ${this.t.locks} WHERE account = $1 AND backend_pid IN (SELECT pid FROM pg_stat_activity)`,
      [key],
    );
    return rows[0]?.info;
  }

  async forceUnlock(id: string, force: boolean): Promise<ForceUnlockOutcome> {
    const { rows } = await this.query<{ account: string; info: LockInfo; backend_pid: number; live: boolean }>(
      `SELECT account, info, backend_pid, backend_pid IN (SELECT pid FROM pg_stat_activity) AS live FROM ${this.t.locks} WHERE info->>'id' = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    if (row.live && !force) return { live: row.info, why: `its session is still connected to ${this.where}` };
    if (row.live) await this.query('SELECT pg_terminate_backend($1)', [row.backend_pid]);
    await this.query(`DELETE FROM ${this.t.locks} WHERE account = $1 AND info->>'id' = $2`, [row.account, id]);
    return { removed: row.info };
  }

  async readJournal(key: string): Promise<JournalContents> {
    const { rows } = await this.query<{ record: unknown }>(`SELECT record FROM ${this.t.journal} WHERE account = $1 ORDER BY position`, [key]);
    if (rows.length === 0) return { open: [], outcomes: [], lastSeq: 0, whole: 0 };
    return { ...readJournalLines(rows.map((row) => lineOf(row.record)), `the journal of account ${key} in ${this.where}, record`), whole: 0, present: true };
  }

  async openJournal(key: string): Promise<JournalLog> {
    const contents = await this.readJournal(key);
    if (contents.damage !== undefined) throw new Error(`the journal of account ${key} in ${this.where} cannot be read whole: record ${contents.damage.line} is damaged (${contents.damage.problem})`);
    return journalRows((text, values) => this.query(text, values), this.rowFence(key), this.t.journal, key, contents);
  }

  async clearJournal(key: string): Promise<void> {
    await this.fencedWrite(key, `WITH fence AS (SELECT ${this.fenceCondition(2)} AS ok), gone AS (DELETE FROM ${this.t.journal} WHERE account = $1 AND (SELECT ok FROM fence)) SELECT ok AS fenced FROM fence`, [key]);
  }

  async history(key: string): Promise<StateVersion[]> {
    const { rows } = await this.query<{ serial: string; written_at: Date; written_by: string; operation: string; resources: string }>(
      `SELECT serial, written_at, written_by, operation, (SELECT count(*) FROM jsonb_object_keys(state->'resources')) AS resources
       FROM ${this.t.versions} WHERE account = $1 ORDER BY serial DESC`,
      [key],
    );
    return rows.map((r) => ({ serial: Number(r.serial), written_at: r.written_at.toISOString(), written_by: r.written_by, operation: r.operation, resources: Number(r.resources) }));
  }

  async version(key: string, serial: number): Promise<AccountState | undefined> {
    const { rows } = await this.query<{ state: unknown }>(`SELECT state FROM ${this.t.versions} WHERE account = $1 AND serial = $2`, [key, serial]);
    const found = rows[0] === undefined ? undefined : this.checked(rows[0].state, `version ${serial} of the state of account ${key}`);
    return typeof found === 'object' ? found : undefined;
  }

  async push(state: AccountState, force: boolean): Promise<PushOutcome> {
    const { rows } = await this.query<{ serial: string }>(`SELECT serial FROM ${this.t.states} WHERE account = $1`, [state.account]);
    const current = rows[0] === undefined ? undefined : Number(rows[0].serial);
    if (!force && current !== undefined && state.serial <= current) {
      return { refused: `the state of account ${state.account} in ${this.where} is at serial ${current}, and the state pushed is at serial ${state.serial}: it is not newer. Pull the current state, make the change on it, and push that; or pass --force to replace it.` };
    }
    await this.checkpoint(state, 'state push', true);
    return { pushed: state.serial };
  }

  async readCache(name: string): Promise<unknown> {
    const { rows } = await this.query<{ value: unknown }>(`SELECT value FROM ${this.t.cache} WHERE name = $1`, [name]);
    return rows[0]?.value;
  }

  async writeCache(name: string, value: unknown): Promise<void> {
    await this.query(
      `INSERT INTO ${this.t.cache} (name, value, updated_at) VALUES ($1, $2::jsonb, now()) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [name, JSON.stringify(value)],
    );
  }

  memberRows(account: string): MemberRows {
    return memberRows((text, values) => this.query(text, values), `${quoteIdent(this.options.schema)}.member_stores`, account, this.where, this.rowFence(account));
  }

  async close(): Promise<void> {
    for (const { lock } of [...this.held.values()]) await lock.release();
    this.ended ??= 'closed';
    await this.client.end().catch(() => {});
  }
}
