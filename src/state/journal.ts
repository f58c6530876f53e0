/**
 * The apply journal kept as a local file (`.adsctl/state/<account>.journal`): NDJSON, a head line
 * then one checksummed, numbered record a line (journal-record.ts), appended with `fdatasync` so a
 * record is on disk before the request it announces is sent, or before the outcome it carries is
 * counted as done; the head's count of records is then rewritten in place.
 *
 * Only a last line without its newline is a write torn by the kill: that request was never sent
 * (or its outcome never counted), and the line is ignored (and cut off before the next append).
 * Any other damage — a whole line that fails its checksum or its shape, a record missing or out of
 * place, fewer records than the head counts — makes the journal unreadable: the run stops, naming
 * the file and the line, because what it lost may be a create the service carried out.
 */
import { closeSync, existsSync, fdatasyncSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeLine, encodeHead, encodeRecord, readJournalLines, type JournalContents, type JournalDamage, type JournalHead, type JournalRecord } from './journal-record.js';
import { stateStem } from './state-file.js';
import type { JournalLog } from './store.js';
import { TMP_SUFFIX, type Fence } from './write-atomic.js';

export function journalPath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.journal`);
}

/** What a journal file holds; any damage but a torn last line is reported, not skipped. */
export function readJournalFile(path: string): JournalContents {
  if (!existsSync(path)) return { open: [], outcomes: [], lastSeq: 0, whole: 0 };
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  // the part after the last newline: empty, or a torn write
  const torn = lines.pop()!;
  const read = readJournalLines(lines.map(decodeLine), path, lines.length + (torn === '' ? 0 : 1));
  return { ...read, whole: Buffer.byteLength(text) - Buffer.byteLength(torn), present: true };
}

/** What a user is told about a damaged journal: where, what, and what to do. */
export function describeJournalDamage(damage: JournalDamage): string {
  if (damage.said !== undefined) return damage.said;
  const when = damage.since === undefined ? '' : ` since ${new Date(damage.since).toISOString()}`;
  const what = damage.line > damage.lines ? `it ends after line ${damage.lines} (${damage.problem})` : `line ${damage.line} of ${damage.lines} is damaged (${damage.problem})`;
  return (
    `${damage.path}:${damage.line}: the apply journal cannot be read whole: ${what}. ` +
    'It records writes an interrupted apply sent; without all of it adsctl cannot tell which of them the service carried out, so it changes nothing. ' +
    `Keep the file. If you have a copy of it, put the copy back and run adsctl apply again. Otherwise ${lostJournalRemedy(damage.path, when)}`
  );
}

/**
 * What to do when a journal is lost for good (`present`: its file, damaged, is still there): the
 * objects its apply created are on the service with no binding, so they are bound by hand before
 * anything is created again.
 */
export function lostJournalRemedy(path: string, when: string, present = true): string {
  const local = path.endsWith('.journal');
  const checkpoint = local ? `${path.slice(0, -'.journal'.length)}.json` : undefined;
  const root = dirname(dirname(dirname(path)));
  const aside = !present ? '' : local ? `move it aside (mv ${path} ${path}.damaged), ` : 'delete its rows, ';
  return (
    aside +
    `put the checkpoint back without its claim on the journal (${checkpoint === undefined ? 'adsctl state pull --serial N > state.json, then adsctl state push --force state.json' : `adsctl state push --path ${root} --force ${checkpoint}`}), ` +
    `find on the service what that apply created${when}, bind each object with adsctl import, and only then run adsctl apply again.`
  );
}

/** Appends to a journal file; one instance per run, under the account's lock. */
export class JournalFile implements JournalLog {
  private fd: number | undefined;
  private end = 0;
  private count: number;
  lastSeq: number;
  head: JournalHead | undefined;

  /**
   * Opens the journal, cutting off a torn last line; throws on damage the session should have
   * refused. With a `fence`, every append and rewrite is made only while it holds (write-atomic.ts).
   */
  constructor(
    private readonly path: string,
    private readonly fence?: Fence,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    const contents = readJournalFile(path);
    if (contents.damage !== undefined) throw new Error(describeJournalDamage(contents.damage));
    if (existsSync(path)) truncateSync(path, contents.whole);
    this.lastSeq = contents.lastSeq;
    this.head = contents.head;
    this.count = contents.head === undefined ? 0 : countRecords(path);
  }

  /** Starts the journal afresh: a head naming it and the checkpoint serial it continues from. */
  begin(head: JournalHead): Promise<void> {
    this.head = head;
    this.lastSeq = 0;
    return this.rewrite([], head.base);
  }

  /**
   * Appends one record and waits until it is on disk, then counts it in the head (the file is
   * opened at the first append). In a journal without a head, the record is appended alone.
   */
  append(record: JournalRecord): Promise<void> {
    if (this.fd === undefined) {
      this.fd = openSync(this.path, existsSync(this.path) ? 'r+' : 'w+', 0o644);
      this.end = fstatSync(this.fd).size;
    }
    const n = this.head === undefined ? undefined : this.count + 1;
    const line = Buffer.from(encodeRecord(record, n));
    this.fence?.();
    // the file this descriptor holds must still be the journal: a run that took the lock over
    // gave the journal a file of its own (`rotateJournalFile`), and this one's appends are over
    if (this.fence !== undefined && !sameFile(this.fd, this.path)) {
      this.close();
      this.fence();
      throw new Error(`the journal ${this.path} was replaced while this run appended to it`);
    }
    writeSync(this.fd, line, 0, line.length, this.end);
    fdatasyncSync(this.fd);
    this.end += line.length;
    if (this.head !== undefined) {
      this.count++;
      writeSync(this.fd, encodeHead(this.head, this.count), 0);
      fdatasyncSync(this.fd);
    }
    return Promise.resolve();
  }

  /** Replaces the file by `records` after a head continuing from `base`: written aside, fsynced, renamed into place. */
  rewrite(records: readonly JournalRecord[], base?: number): Promise<void> {
    this.close();
    if (this.head !== undefined && base !== undefined) this.head = { ...this.head, base };
    const tmp = `${this.path}${TMP_SUFFIX}`;
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      const head = this.head === undefined ? '' : encodeHead(this.head, records.length);
      writeSync(fd, head + records.map((r, i) => encodeRecord(r, this.head === undefined ? undefined : i + 1)).join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      this.fence?.();
      renameSync(tmp, this.path);
    } catch (error) {
      rmSync(tmp, { force: true });
      // written aside and removed by the run that took the lock over
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.fence?.();
      throw error;
    }
    this.count = this.head === undefined ? 0 : records.length;
    return Promise.resolve();
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Whether descriptor `fd` holds the file at `path` now. */
function sameFile(fd: number, path: string): boolean {
  const held = fstatSync(fd);
  try {
    const named = statSync(path);
    return named.ino === held.ino && named.dev === held.dev;
  } catch {
    return false;
  }
}

/**
 * Gives the journal at `path` a file of its own, with the same content (written aside, fsynced,
 * renamed into place): called by a run that has just taken the account's lock, so that a former
 * holder that still has the old file open (stopped, then resumed) appends to a file nobody reads.
 */
export function rotateJournalFile(path: string): void {
  if (!existsSync(path)) return;
  const tmp = `${path}${TMP_SUFFIX}`;
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, readFileSync(path));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** How many record lines follow the head of a whole journal file. */
function countRecords(path: string): number {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').length - 1;
}

/** Removes a journal file once every entry is resolved. */
export function removeJournalFile(path: string): void {
  if (existsSync(path)) unlinkSync(path);
}
