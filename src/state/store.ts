/**
 * Where state is kept: the contract every backend fulfils (docs/architecture.md, "State, journal
 * and locks"). The local files under `.adsctl/state/` are the embedded default (local-store.ts);
 * a team keeps state in PostgreSQL (postgres/). The rest of adsctl sees only these interfaces,
 * split as Terraform's statemgr splits its state manager, so each stage takes what it uses: an
 * account's state read (`StateReader`) and written whole with its serial (`StateWriter`), a lock
 * per account (`StateLocker`), the apply journal appended one durable record at a time
 * (`JournalStore`), the versions kept (`HistoryStore`), the lookup cache (`LookupCache`) and the
 * member stores kept beside the state (`MemberStores`). `StateStore` is all of them: what a
 * backend implements, and what the code that opens and closes one holds. No stage asks which
 * backend it has; what differs between them is a method of each (`locate`, `otherBoundAccounts`).
 *
 * Serials: `write` stores a new version with the serial bumped (import, `state rm`, recovery);
 * `checkpoint` stores the state with the serial it carries, which an apply has already moved on by
 * one for every request whose outcome it journalled (journal.ts), so a checkpoint and a replay of
 * the journal on top of an older checkpoint arrive at the same state and the same serial.
 */
import type { MemberRows } from './member-rows.js';
import type { AccountState } from './state-file.js';
import type { JournalContents, JournalHead, JournalRecord } from './journal-record.js';

export interface LockInfo {
  id: string;
  holder: string;
  pid: number;
  created_at: string;
  operation: string;
  /** A local lock's holder process, exactly (lock-holder.ts); absent in lock files of the old format. */
  process?: LockProcess;
  /** A random id a local lock's holder rewrites every few seconds while it runs. */
  heartbeat?: string;
  /**
   * The lock's generation: one more than the last one granted for the account, kept beside its
   * state, so a holder that lost its lock is told by which generation it was replaced. Absent in
   * lock files of the old format.
   */
  generation?: number;
  /** The deadline of each request its holder sends (ADSCTL_REQUEST_TIMEOUT), in ms: how long a write of it can be on the wire. */
  request_timeout_ms?: number;
  /** Only for a lock that cannot be read: what is wrong with it, and where it is. */
  damaged?: { problem: string; file: string };
}

/** Which process holds a local lock, beyond its pid: each part is absent where the host cannot tell. */
export interface LockProcess {
  /** `/proc/sys/kernel/random/boot_id`: one per boot of the kernel. */
  boot_id?: string;
  /** The pid namespace (`readlink /proc/self/ns/pid`), in which `pid` means this process. */
  pid_ns?: string;
  /** Field 22 of `/proc/PID/stat`: when the process started, so a reused pid is told apart. */
  start_time?: string;
}

export interface Lock {
  info: LockInfo;
  /** The lock of a run that is gone, which this one took over. */
  tookOver?: LockInfo;
  /** Why the holder of `tookOver` counts as gone. */
  tookOverBecause?: string;
  /**
   * The former holder may still be running (its heartbeat stood still in another pid namespace,
   * its PostgreSQL session ended, its lock was forced away): a write it sent before may still be
   * on the wire for up to its request deadline, counted from `silentMs` ago (engine/accounts.ts
   * waits that out when its journal has requests not answered).
   */
  previousMayRun?: { requestTimeoutMs: number; silentMs: number };
  /**
   * Aborted when the lock is lost while held (the server ended the session that held it); its
   * reason is an Error naming the account and the cause. A run stops writing when it is.
   */
  lost?: AbortSignal;
  /**
   * Checks, at this moment, that this run still holds the lock (a local lock file still names it;
   * the PostgreSQL session that holds it still answers), and throws the `LockLostError` of
   * `lost` when it does not: called before each write of the service (the API client) so that a
   * run that was stopped or cut off sends nothing once another holds the lock, whatever its timers
   * believe.
   */
  verify?(): void | Promise<void>;
  release(): Promise<void>;
}

/**
 * What `forceUnlock` did: removed the lock, or left it because its holder is provably still
 * running and `force` was not given. Undefined when no lock has the id.
 */
export type ForceUnlockOutcome = { removed: LockInfo } | { live: LockInfo; why: string } | undefined;

/** One kept version of an account's state. */
export interface StateVersion {
  serial: number;
  /** ISO time it was written. */
  written_at: string;
  /** Who wrote it: user@host. */
  written_by: string;
  /** What wrote it: apply, destroy, import, state rm, state push, migrate… */
  operation: string;
  resources: number;
}

/** A version with its state, as `state migrate` carries it from one backend to another. */
export interface KeptVersion extends Omit<StateVersion, 'resources'> {
  state: AccountState;
}

/**
 * The journal of one account, open for appending under its lock. Appends and rewrites take
 * effect in the order they are called, even while earlier ones are still in progress.
 */
export interface JournalLog {
  /** The highest entry number written so far. */
  readonly lastSeq: number;
  /** The journal's head: which it is and the checkpoint serial it continues from; none before `begin`. */
  readonly head: JournalHead | undefined;
  /** Replaces the journal by an empty one with `head` (durable when the promise resolves). */
  begin(head: JournalHead): Promise<void>;
  /** Appends a record; durable (fsynced, or committed) when the promise resolves. */
  append(record: JournalRecord): Promise<void>;
  /** Replaces the whole journal by `records` (the entries still open), continuing from checkpoint `base`, atomically. */
  rewrite(records: readonly JournalRecord[], base?: number): Promise<void>;
}

export type PushOutcome = { pushed: number } | { refused: string };

/**
 * How messages name one account's state and journal: a file path for local files, `of account K
 * in postgres://…` for a database.
 */
export interface AccountLocation {
  /** The checkpoint, after a noun: "the state …", "the checkpoint …". */
  state: string;
  /** The journal, after a noun: "journal …". */
  journal: string;
  /** The journal with no noun before it, as a message's subject: its file, or `the journal of account K in …`. */
  journalAlone: string;
}

/** Reading the accounts' states (plan, orphaned states, `state list|show|pull`). */
export interface StateReader {
  /** The account keys that have state, sorted. */
  accounts(): Promise<string[]>;
  /**
   * An account's state as last checkpointed, or an empty one (serial 0) when it has none; a
   * message naming what is wrong when it cannot be used. Callers replay the journal on top
   * (journal.ts, `loadState`).
   */
  read(key: string, endpoint: string): Promise<AccountState | string>;
  /** How messages name `key`'s state and journal in this backend. */
  locate(key: string): AccountLocation;
  /**
   * The live account ids the states of this backend bind besides `key`'s (asked only while `key`
   * binds no account yet, so a backend may count its state too: the local one reads every file
   * of its directory).
   */
  otherBoundAccounts(key: string): Promise<Set<string>>;
}

/** Writing the accounts' states (apply, recovery, import, the `state` edits). */
export interface StateWriter {
  /** Stores a new version: `state.serial` is bumped first. */
  write(state: AccountState, operation: string): Promise<void>;
  /**
   * Stores the state with the serial it carries; `final` keeps it as a version in the history. The
   * state is serialised before the call returns its promise: changes made to it afterwards (by
   * requests still in flight) are not part of this checkpoint.
   */
  checkpoint(state: AccountState, operation: string, final: boolean): Promise<void>;
  /** Removes an account's state, journal and history (its key was moved). */
  remove(key: string): Promise<void>;
  /**
   * Stores `state` as the account's current version when its serial is above the current one
   * (or `force`); refused with the reason otherwise.
   */
  push(state: AccountState, force: boolean): Promise<PushOutcome>;
}

/** The lock per account a run or a `state` edit holds (the engine's sessions, `state`, `force-unlock`). */
export interface StateLocker {
  /**
   * Takes an account's lock, waiting up to `timeoutMs`; the holder when it could not. The lock
   * names `requestTimeoutMs`, the deadline of the requests the run sends under it.
   */
  lock(key: string, operation: string, timeoutMs: number, holding?: { requestTimeoutMs?: number }): Promise<Lock | { heldBy: LockInfo }>;
  /** The current holder of an account's lock, if any. */
  lockHolder(key: string): Promise<LockInfo | undefined>;
  /**
   * Breaks the lock whose id is `id`, unless its holder is still running (then only with
   * `force`, which also ends that holder's session).
   */
  forceUnlock(id: string, force: boolean): Promise<ForceUnlockOutcome>;
}

/** The apply journal of each account (apply-journal.ts: loading, recovery, apply). */
export interface JournalStore {
  /** The journal's records: open entries, outcomes to replay, and any damage. */
  readJournal(key: string): Promise<JournalContents>;
  /** Opens the journal for appending (cutting off a torn last record); throws on damage. */
  openJournal(key: string): Promise<JournalLog>;
  /** Removes the journal once every entry is resolved. */
  clearJournal(key: string): Promise<void>;
}

/** The versions of each account's state kept (`state history|pull --serial`, `state migrate`). */
export interface HistoryStore {
  /** The versions kept, newest first. */
  history(key: string): Promise<StateVersion[]>;
  /** One kept version, or undefined. */
  version(key: string, serial: number): Promise<AccountState | undefined>;
  /**
   * Keeps versions written elsewhere (`state migrate`), each with its own time, writer and
   * operation, in place of a version of the same serial kept here; only the newest the backend
   * keeps remain.
   */
  keepVersions(key: string, versions: ReadonlyArray<KeptVersion>): Promise<void>;
  /**
   * The kept versions this backend removed (only the newest are kept) since it was last asked
   * that a version control system tracks, by path, each given once: local files in a git work
   * tree, whose commit should record their removal. Absent where versions are no files.
   */
  takeRemovedTracked?(): string[];
}

/** The lookup cache of each endpoint (live/lookups.ts). */
export interface LookupCache {
  /** Where it is, for messages: a directory, or `postgres://host:port/db` without secrets. */
  readonly where: string;
  /** The cache entry `name`, or undefined. */
  readCache(name: string): Promise<unknown>;
  writeCache(name: string, value: unknown): Promise<void>;
}

/** The member stores of an account, where the backend keeps them beside the state (members/store-path.ts). */
export interface MemberStores {
  /**
   * The member stores of `account`, when this backend keeps them beside the state (PostgreSQL);
   * absent when they are files in the configuration root's `.adsctl/state/`.
   */
  memberRows?(account: string): MemberRows;
  /**
   * The check a write of `account`'s member store files passes just before it becomes visible
   * (write-atomic.ts, `Fence`), when this backend keeps them as files and this run holds the
   * account's lock; rows are fenced by the backend itself.
   */
  memberFence?(account: string): (() => void) | undefined;
}

/** A backend: every part above, where it is, and its end. */
export interface StateStore extends StateReader, StateWriter, StateLocker, JournalStore, HistoryStore, LookupCache, MemberStores {
  /** Where the state is, for messages: a directory, or `postgres://host:port/db` without secrets. */
  readonly where: string;
  /** Releases connections; locks still held are released. */
  close(): Promise<void>;
}
