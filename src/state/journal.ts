/**
 * The apply journal kept as a local file (`.adsctl/state/<account>.journal`): NDJSON, one
 * checksummed record a line (journal-record.ts), appended with `fdatasync` so a record is on disk
 * before the request it announces is sent, or before the outcome it carries is counted as done.
 *
 * A last line that is cut short or fails its checksum is a write torn by the kill: that request
 * was never sent (or its outcome never counted), and the line is ignored (and cut off before the
 * next append). Damage to any earlier line makes the journal unreadable: the run stops, naming the
 * file and the line, because what it lost may be a create the service carried out.
 */
import { closeSync, existsSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeRecord, encodeRecord, summariseJournal, type JournalContents, type JournalDamage, type JournalRecord } from './journal-record.js';
import { stateStem } from './state-file.js';
import type { JournalLog } from './store.js';

export function journalPath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.journal`);
}

/** When the line's entry was intended, if it is a readable intent. */
function intentTime(line: string): number | undefined {
  const decoded = line === '' ? undefined : decodeRecord(line);
  return decoded !== undefined && 'record' in decoded && 'intent' in decoded.record ? decoded.record.intent.at : undefined;
}

const earliestIntent = (times: ReadonlyArray<number | undefined>): number | undefined =>
  times.reduce<number | undefined>((min, t) => (t === undefined ? min : Math.min(min ?? t, t)), undefined);

/** What a journal file holds; damage before the last line is reported, not skipped. */
export function readJournalFile(path: string): JournalContents {
  if (!existsSync(path)) return { open: [], outcomes: [], lastSeq: 0, whole: 0 };
  const lines = readFileSync(path, 'utf8').split('\n');
  const written = lines.filter((l) => l !== '').length;
  const records: JournalRecord[] = [];
  let whole = 0;
  for (const [i, text] of lines.entries()) {
    if (text === '') {
      if (i < lines.length - 1) whole += 1;
      continue;
    }
    const decoded = decodeRecord(text);
    if ('problem' in decoded) {
      if (lines.slice(i + 1).every((l) => l === '')) break;
      const since = earliestIntent([...records.map((r) => ('intent' in r ? r.intent.at : undefined)), ...lines.slice(i + 1).map(intentTime)]);
      return { ...summariseJournal(records), whole, damage: { path, line: i + 1, lines: written, problem: decoded.problem, ...(since === undefined ? {} : { since }) } };
    }
    whole += Buffer.byteLength(text) + (i < lines.length - 1 ? 1 : 0);
    records.push(decoded.record);
  }
  return { ...summariseJournal(records), whole };
}

/** What a user is told about a damaged journal: where, what, and what to do. */
export function describeJournalDamage(damage: JournalDamage): string {
  const when = damage.since === undefined ? '' : ` since ${new Date(damage.since).toISOString()}`;
  return (
    `${damage.path}:${damage.line}: the apply journal cannot be read whole: line ${damage.line} of ${damage.lines} is damaged (${damage.problem}). ` +
    'It records writes an interrupted apply sent; without all of it adsctl cannot tell which of them the service carried out, so it changes nothing. ' +
    `Keep the file. If you have a copy of it, put the copy back and run adsctl apply again. Otherwise move it aside (mv ${damage.path} ${damage.path}.damaged), ` +
    `find on the service what that apply created${when}, bind each object with adsctl import, and run adsctl apply again.`
  );
}

/** Appends to a journal file; one instance per run, under the account's lock. */
export class JournalFile implements JournalLog {
  private fd: number | undefined;
  readonly lastSeq: number;

  /** Opens the journal, cutting off a torn last line; throws on damage the session should have refused. */
  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    const contents = readJournalFile(path);
    if (contents.damage !== undefined) throw new Error(describeJournalDamage(contents.damage));
    if (existsSync(path)) truncateSync(path, contents.whole);
    this.lastSeq = contents.lastSeq;
  }

  /** Appends one record and waits until it is on disk (the file is opened at the first append). */
  append(record: JournalRecord): Promise<void> {
    this.fd ??= openSync(this.path, 'a', 0o644);
    writeSync(this.fd, encodeRecord(record));
    fdatasyncSync(this.fd);
    return Promise.resolve();
  }

  /** Replaces the file by `records`: written aside, fsynced, renamed into place. */
  rewrite(records: readonly JournalRecord[]): Promise<void> {
    this.close();
    const tmp = `${this.path}.tmp-${process.pid}`;
    const fd = openSync(tmp, 'w', 0o644);
    try {
      writeSync(fd, records.map(encodeRecord).join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    return Promise.resolve();
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Removes a journal file once every entry is resolved. */
export function removeJournalFile(path: string): void {
  if (existsSync(path)) unlinkSync(path);
}
