/**
 * Durable state for `--data FILE`: a snapshot (`FILE`) plus an append-only journal
 * (`FILE.journal`) of committed changes. Every commit is appended with a synchronous write before
 * the response leaves, so a process killed at any point loses nothing that a client was told
 * about; a torn last line (killed mid-write, never acknowledged) is ignored on load. The journal is
 * folded into a new snapshot (temp file, fsync, rename) when it grows and on a clean stop.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, ftruncateSync } from 'node:fs';
import { lockDataFile } from './data-lock.js';
import { storedChanges, type MemberChange, type StoredMemberChange } from './member-set.js';
import type { Row } from './row.js';
import type { Store } from './store.js';

const FORMAT = 1;
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

interface Snapshot {
  format: number;
  counter: number;
  rows: Row[];
  /** Audience members, each set as base64 keys (absent in files written before audiences). */
  members?: StoredMemberChange[];
}

/** Keeps a store's state in a file pair; `open` loads what is there and starts journaling. */
export class Journal {
  private readonly file: string;
  private readonly store: Store;
  private fd: number | undefined;
  private bytes = 0;
  private release: (() => void) | undefined;

  private constructor(file: string, store: Store) {
    this.file = file;
    this.store = store;
  }

  /**
   * Loads `file` (and its journal) into `store`; returns whether any state was found. Throws
   * `DataFileInUse` when another live process has it open.
   */
  static open(file: string, store: Store): { journal: Journal; loaded: boolean } {
    const journal = new Journal(file, store);
    journal.release = lockDataFile(file);
    let loaded: boolean;
    try {
      loaded = journal.load();
    } catch (error) {
      journal.release();
      throw error;
    }
    journal.fd = openSync(`${file}.journal`, 'a');
    store.onCommit = (rows, counter, members) => journal.append(rows, counter, members);
    return { journal, loaded };
  }

  private load(): boolean {
    let loaded = false;
    if (existsSync(this.file)) {
      const snap = JSON.parse(readFileSync(this.file, 'utf8')) as Snapshot;
      if (snap.format !== FORMAT) throw new Error(`${this.file}: unsupported data format ${String(snap.format)}`);
      for (const row of snap.rows) this.store.restore(row);
      if (snap.members !== undefined) this.store.members.restore(snap.members);
      this.store.restoreCounter(snap.counter);
      loaded = true;
    }
    const log = `${this.file}.journal`;
    if (existsSync(log)) {
      const text = readFileSync(log, 'utf8');
      this.bytes = Buffer.byteLength(text);
      for (const line of text.split('\n')) {
        if (line === '') continue;
        let entry: { counter: number; rows: Row[]; members?: StoredMemberChange[] };
        try {
          entry = JSON.parse(line) as { counter: number; rows: Row[]; members?: StoredMemberChange[] };
        } catch {
          break; // a torn final write: never acknowledged, so nothing is lost
        }
        for (const row of entry.rows) this.store.restore(row);
        if (entry.members !== undefined) this.store.members.restore(entry.members);
        this.store.restoreCounter(entry.counter);
        loaded = true;
      }
    }
    return loaded;
  }

  private append(rows: Row[], counter: number, members: MemberChange[]): void {
    if (this.fd === undefined) return;
    const line = `${JSON.stringify(members.length === 0 ? { counter, rows } : { counter, rows, members: storedChanges(members) })}\n`;
    writeSync(this.fd, line);
    this.bytes += Buffer.byteLength(line);
    if (this.bytes > COMPACT_AFTER_BYTES) this.compact();
  }

  /** Writes a full snapshot atomically and empties the journal. */
  compact(): void {
    const snap: Snapshot = { format: FORMAT, counter: this.store.idCounter, rows: this.store.allRows(), members: this.store.members.snapshot() };
    const tmp = `${this.file}.tmp-${process.pid}`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(snap));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    if (this.fd !== undefined) {
      ftruncateSync(this.fd, 0);
      this.bytes = 0;
    }
  }

  /** Folds the journal into the snapshot and stops journaling. */
  close(): void {
    this.compact();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.store.onCommit = undefined;
    this.release?.();
  }
}
