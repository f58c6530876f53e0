/**
 * State kept in local files, the embedded default (docs/architecture.md, "State, journal and
 * locks"): under a configuration root's `.adsctl/state/`, per account `<stem>.json` (the last
 * checkpoint, written atomically), `<stem>.journal` (journal.ts), `<stem>.lock` (lock.ts), and
 * the versions kept in `history/<stem>/<serial>.json` (the last ten; one that git tracks, when
 * removed, is noted for the command to tell); the lookup cache in `.adsctl/cache/<name>.json`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemClock, type Clock } from '../clock/clock.js';
import { journalPath, JournalFile, readJournalFile, removeJournalFile, rotateJournalFile } from './journal.js';
import type { JournalContents } from './journal-record.js';
import { missingCheckpoint, type Remains } from './missing-checkpoint.js';
import { acquireLock, forceUnlock, holderName, readLock } from './lock.js';
import { readState, stateStem, statePath, versionFilePieces, writeStateFile, type AccountState } from './state-file.js';
import { boundAccountIds, stateAccounts } from './state-files.js';
import type { AccountLocation, ForceUnlockOutcome, JournalLog, KeptVersion, Lock, LockInfo, PushOutcome, StateStore, StateVersion } from './store.js';
import { writeFileAtomic } from './write-atomic.js';
import { gitTrackedFiles } from './git-tracked.js';
import { directoryProblem } from './local-directory.js';
import { EnvironmentError } from '../diag/environment-error.js';

/** Versions kept per account. */
const KEPT_VERSIONS = 10;

/** A kept version as its file holds it. */
interface VersionFile extends Omit<StateVersion, 'serial' | 'resources'> {
  state: AccountState;
}

export class LocalStore implements StateStore {
  /** The fence of each lock this store holds, by account (lock.ts, `verify`). */
  private readonly held = new Map<string, { lost: AbortSignal; verify: () => void }>();
  /** Kept versions the rotation removed that git tracks, not yet told (`takeRemovedTracked`). */
  private removedTracked: string[] = [];

  constructor(
    readonly stateDir: string,
    private readonly cacheDir: string,
    /** The run's clock: the time each kept version is written at, from which account history is read. */
    private readonly clock: Clock = systemClock,
  ) {}

  get where(): string {
    return this.stateDir;
  }

  /**
   * Throws the `EnvironmentError` of a directory this store cannot use (a file in its way; with
   * `write`, one this user cannot write): one line naming it, where a raw EEXIST or ENOTDIR would
   * otherwise end the run as a bug.
   */
  private usable(dir: string, what: string, write: boolean): void {
    const problem = directoryProblem(dir, what, write);
    if (problem !== undefined) throw new EnvironmentError(problem);
  }

  accounts(): Promise<string[]> {
    this.usable(this.stateDir, 'the state', false);
    const keys = stateAccounts(this.stateDir);
    // an account whose checkpoint is gone is still listed by what remains, so that it can be restored
    const stems = new Set(keys.map(stateStem));
    const left = new Set<string>();
    if (existsSync(this.stateDir)) for (const name of readdirSync(this.stateDir)) if (name.endsWith('.journal')) left.add(name.slice(0, -'.journal'.length));
    const history = join(this.stateDir, 'history');
    if (existsSync(history)) for (const name of readdirSync(history)) left.add(name);
    for (const stem of left) {
      if (stems.has(stem)) continue;
      const newest = this.versionSerials(stem).at(-1);
      const account = newest === undefined ? undefined : this.readVersion(stem, newest)?.state.account;
      keys.push(account !== undefined && stateStem(account) === stem ? account : stem);
    }
    return Promise.resolve(keys.sort());
  }

  read(key: string, endpoint: string): Promise<AccountState | string> {
    if (!existsSync(statePath(this.stateDir, key))) {
      const remains = this.remains(key);
      if (remains !== undefined) return Promise.resolve(missingCheckpoint(statePath(this.stateDir, key), key, remains, `--path ${dirname(dirname(this.stateDir))}`));
    }
    return Promise.resolve(readState(this.stateDir, key, endpoint));
  }

  /** An account's files: a message names them by their paths. */
  locate(key: string): AccountLocation {
    const journal = journalPath(this.stateDir, key);
    return { state: statePath(this.stateDir, key), journal, journalAlone: journal };
  }

  /** Every state file of the directory is read, `key`'s among them (it binds no account when this is asked). */
  otherBoundAccounts(): Promise<Set<string>> {
    return Promise.resolve(boundAccountIds(this.stateDir));
  }

  /** What is left of an account beside its checkpoint: its journal, its kept versions; undefined when neither. */
  private remains(key: string): Remains | undefined {
    const journal = existsSync(journalPath(this.stateDir, key));
    const newest = this.versionSerials(key).at(-1);
    return journal || newest !== undefined ? { journal, ...(newest === undefined ? {} : { newest }) } : undefined;
  }

  /**
   * Throws the `LockLostError` of an account whose lock was lost while held: from then on nothing
   * of its state is written, as with a PostgreSQL session that ended, and the next run recovers.
   */
  private refuseIfLost(key: string): void {
    const lost = this.held.get(key)?.lost;
    if (lost?.aborted === true) throw lost.reason;
  }

  /**
   * The fence of the writes of `key`'s files (write-atomic.ts): the lock file read at the moment of
   * writing, when this store holds the lock; none for a write made without it (`state push` of
   * a state that is not locked, the commands that write no lock).
   */
  private fence(key: string): (() => void) | undefined {
    return this.held.get(key)?.verify;
  }

  memberFence(account: string): (() => void) | undefined {
    return this.fence(account);
  }

  async write(state: AccountState, operation: string): Promise<void> {
    this.refuseIfLost(state.account);
    state.serial++;
    return this.checkpoint(state, operation, true);
  }

  async checkpoint(state: AccountState, operation: string, final: boolean): Promise<void> {
    this.refuseIfLost(state.account);
    writeStateFile(this.stateDir, state, this.fence(state.account));
    if (final) this.keepVersion(state, operation);
    return Promise.resolve();
  }

  async remove(key: string): Promise<void> {
    this.refuseIfLost(key);
    this.fence(key)?.();
    rmSync(statePath(this.stateDir, key), { force: true });
    removeJournalFile(journalPath(this.stateDir, key));
    rmSync(this.historyDir(key), { recursive: true, force: true });
    return Promise.resolve();
  }

  async lock(key: string, operation: string, timeoutMs: number, holding: { requestTimeoutMs?: number } = {}): Promise<Lock | { heldBy: LockInfo }> {
    this.usable(this.stateDir, 'the state', true);
    const taken = await acquireLock(this.stateDir, key, operation, timeoutMs, holding.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: holding.requestTimeoutMs });
    if ('heldBy' in taken) return taken;
    const fence = { lost: taken.lost, verify: taken.verify };
    this.held.set(key, fence);
    // a former holder still appending to the journal it opened appends to a file nobody reads
    rotateJournalFile(journalPath(this.stateDir, key));
    return {
      info: taken.info,
      ...(taken.tookOver === undefined ? {} : { tookOver: taken.tookOver }),
      ...(taken.tookOverBecause === undefined ? {} : { tookOverBecause: taken.tookOverBecause }),
      ...(taken.previousMayRun === undefined ? {} : { previousMayRun: taken.previousMayRun }),
      lost: taken.lost,
      verify: taken.verify,
      release: () => {
        if (this.held.get(key) === fence) this.held.delete(key);
        return Promise.resolve(taken.release());
      },
    };
  }

  lockHolder(key: string): Promise<LockInfo | undefined> {
    return Promise.resolve(readLock(this.stateDir, key));
  }

  forceUnlock(id: string, force: boolean): Promise<ForceUnlockOutcome> {
    this.usable(this.stateDir, 'the state', true);
    return Promise.resolve(forceUnlock(this.stateDir, id, force));
  }

  readJournal(key: string): Promise<JournalContents> {
    return Promise.resolve(readJournalFile(journalPath(this.stateDir, key)));
  }

  openJournal(key: string): Promise<JournalLog> {
    const file = new JournalFile(journalPath(this.stateDir, key), this.fence(key));
    const refuse = (): void => this.refuseIfLost(key);
    return Promise.resolve({
      get lastSeq() {
        return file.lastSeq;
      },
      get head() {
        return file.head;
      },
      begin: async (head) => {
        refuse();
        await file.begin(head);
      },
      append: async (record) => {
        refuse();
        await file.append(record);
      },
      rewrite: async (records, base) => {
        refuse();
        await file.rewrite(records, base);
      },
    });
  }

  async clearJournal(key: string): Promise<void> {
    this.refuseIfLost(key);
    this.fence(key)?.();
    removeJournalFile(journalPath(this.stateDir, key));
    return Promise.resolve();
  }

  history(key: string): Promise<StateVersion[]> {
    return Promise.resolve(
      this.versionSerials(key)
        .reverse()
        .flatMap((serial) => {
          const kept = this.readVersion(key, serial);
          return kept === undefined ? [] : [{ serial, written_at: kept.written_at, written_by: kept.written_by, operation: kept.operation, resources: Object.keys(kept.state.resources).length }];
        }),
    );
  }

  version(key: string, serial: number): Promise<AccountState | undefined> {
    return Promise.resolve(this.readVersion(key, serial)?.state);
  }

  async push(state: AccountState, force: boolean): Promise<PushOutcome> {
    const current = await this.read(state.account, state.endpoint);
    if (!force) {
      if (typeof current === 'string') return { refused: `${current} Pass --force to replace it.` };
      if (current.serial > 0 && state.serial <= current.serial) {
        return { refused: `the state of account ${state.account} is at serial ${current.serial}, and the state pushed is at serial ${state.serial}: it is not newer. Pull the current state, make the change on it, and push that; or pass --force to replace it.` };
      }
    }
    await this.checkpoint(state, 'state push', true);
    return { pushed: state.serial };
  }

  readCache(name: string): Promise<unknown> {
    const path = join(this.cacheDir, `${name}.json`);
    try {
      return Promise.resolve(JSON.parse(readFileSync(path, 'utf8')) as unknown);
    } catch {
      // absent or unreadable: no cache, the lookups are fetched again
      return Promise.resolve(undefined);
    }
  }

  writeCache(name: string, value: unknown): Promise<void> {
    this.usable(this.cacheDir, 'the lookup cache', true);
    writeFileAtomic(join(this.cacheDir, `${name}.json`), `${JSON.stringify(value)}\n`);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private historyDir(key: string): string {
    return join(this.stateDir, 'history', stateStem(key));
  }

  /** The serials kept, oldest first. */
  private versionSerials(key: string): number[] {
    const dir = this.historyDir(key);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((name) => /^(\d+)\.json$/.exec(name)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  private readVersion(key: string, serial: number): VersionFile | undefined {
    try {
      return JSON.parse(readFileSync(join(this.historyDir(key), `${serial}.json`), 'utf8')) as VersionFile;
    } catch {
      return undefined;
    }
  }

  async keepVersions(key: string, versions: ReadonlyArray<KeptVersion>): Promise<void> {
    this.refuseIfLost(key);
    const dir = this.historyDir(key);
    mkdirSync(dir, { recursive: true });
    for (const { serial, written_at, written_by, operation, state } of versions) {
      const kept: VersionFile = { written_at, written_by, operation, state };
      writeFileAtomic(join(dir, `${serial}.json`), versionFilePieces(kept), 0o644, this.fence(key));
    }
    this.rotate(key);
    return Promise.resolve();
  }

  /**
   * The kept versions this store removed since last asked, by path, that git tracked: the commit
   * that records the new state should record their removal too. Each is given once.
   */
  takeRemovedTracked(): string[] {
    const taken = this.removedTracked;
    this.removedTracked = [];
    return taken;
  }

  private keepVersion(state: AccountState, operation: string): void {
    const dir = this.historyDir(state.account);
    mkdirSync(dir, { recursive: true });
    const kept: VersionFile = { written_at: this.clock.now().toISOString(), written_by: holderName(), operation, state };
    writeFileAtomic(join(dir, `${state.serial}.json`), versionFilePieces(kept), 0o644, this.fence(state.account));
    this.rotate(state.account);
  }

  /** Removes the versions of `key` beyond the last KEPT_VERSIONS, noting those git tracks (git-tracked.ts, asked only when some go). */
  private rotate(key: string): void {
    const dir = this.historyDir(key);
    const old = this.versionSerials(key).slice(0, -KEPT_VERSIONS);
    if (old.length === 0) return;
    const tracked = gitTrackedFiles(dir);
    for (const serial of old) {
      const path = join(dir, `${serial}.json`);
      rmSync(path, { force: true });
      if (tracked.has(`${serial}.json`)) this.removedTracked.push(path);
    }
  }
}
