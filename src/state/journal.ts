/**
 * The apply journal: before every write request, a line naming the operations about to be sent;
 * after its outcome is recorded in state, a line closing it. A run killed between the two leaves
 * an open entry, and the next run resolves its creates by re-reading the service (adopting what
 * was created) before it plans — never by sending them again blindly. NDJSON, appended
 * synchronously, beside the state file, one checksummed record a line (journal-record.ts).
 *
 * A last line that is cut short or fails its checksum is a write torn by the kill: that request
 * was never sent, and the line is ignored (and cut off before the next append). Damage to any
 * earlier line makes the journal unreadable: the run stops, naming the file and the line, because
 * what it lost may be a create the service carried out.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeRecord, encodeRecord, type JournalIntent, type JournalOperation } from './journal-record.js';
import { stateStem } from './state-file.js';

export function journalPath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.journal`);
}

/** A line before the last that cannot be read: the journal cannot be trusted to be whole. */
export interface JournalDamage {
  path: string;
  /** 1-based. */
  line: number;
  lines: number;
  problem: string;
  /** When the earliest readable entry was written (epoch ms), if any is. */
  since?: number;
}

export interface JournalContents {
  /** Entries intended and never closed. */
  open: JournalIntent[];
  lastSeq: number;
  /** Bytes of whole records: the file without a torn last line. */
  whole: number;
  damage?: JournalDamage;
}

/** When the line's entry was intended, if it is a readable intent. */
function intentTime(line: string): number | undefined {
  const decoded = line === '' ? undefined : decodeRecord(line);
  return decoded !== undefined && 'record' in decoded && 'intent' in decoded.record ? decoded.record.intent.at : undefined;
}

const earliestIntent = (times: ReadonlyArray<number | undefined>): number | undefined =>
  times.reduce<number | undefined>((min, t) => (t === undefined ? min : Math.min(min ?? t, t)), undefined);

/** What an account's journal holds; damage before the last line is reported, not skipped. */
export function readJournal(stateDir: string, accountKey: string): JournalContents {
  const path = journalPath(stateDir, accountKey);
  if (!existsSync(path)) return { open: [], lastSeq: 0, whole: 0 };
  const lines = readFileSync(path, 'utf8').split('\n');
  const written = lines.filter((l) => l !== '').length;
  const intents = new Map<number, JournalIntent>();
  let lastSeq = 0;
  let since: number | undefined;
  let whole = 0;
  for (const [i, text] of lines.entries()) {
    if (text === '') {
      if (i < lines.length - 1) whole += 1;
      continue;
    }
    const decoded = decodeRecord(text);
    if ('problem' in decoded) {
      if (lines.slice(i + 1).every((l) => l === '')) break;
      const first = earliestIntent([since, ...lines.slice(i + 1).map(intentTime)]);
      return { open: [...intents.values()], lastSeq, whole, damage: { path, line: i + 1, lines: written, problem: decoded.problem, ...(first === undefined ? {} : { since: first }) } };
    }
    whole += Buffer.byteLength(text) + (i < lines.length - 1 ? 1 : 0);
    const { record } = decoded;
    if ('intent' in record) {
      intents.set(record.intent.seq, record.intent);
      lastSeq = Math.max(lastSeq, record.intent.seq);
      since = Math.min(since ?? record.intent.at, record.intent.at);
    } else intents.delete(record.done);
  }
  return { open: [...intents.values()], lastSeq, whole };
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

/** The message for a journal that cannot be read whole, or undefined when it can (or there is none). */
export function journalProblem(stateDir: string, accountKey: string): string | undefined {
  const { damage } = readJournal(stateDir, accountKey);
  return damage === undefined ? undefined : describeJournalDamage(damage);
}

/** Appends to an account's journal; one instance per apply, under the account's lock. */
export class Journal {
  private readonly path: string;
  private seq = 0;

  /** Opens the journal, cutting off a torn last line; throws on damage the session should have refused. */
  constructor(stateDir: string, accountKey: string) {
    this.path = journalPath(stateDir, accountKey);
    mkdirSync(dirname(this.path), { recursive: true });
    const contents = readJournal(stateDir, accountKey);
    if (contents.damage !== undefined) throw new Error(describeJournalDamage(contents.damage));
    if (existsSync(this.path)) truncateSync(this.path, contents.whole);
    this.seq = contents.lastSeq;
  }

  /** Records operations about to be sent; returns the entry's number for `done`. */
  intend(operations: JournalOperation[], at = Date.now()): number {
    const seq = ++this.seq;
    appendFileSync(this.path, encodeRecord({ intent: { seq, at, operations } }));
    return seq;
  }

  /** Records that the outcome of entry `seq` is in the state. */
  done(seq: number): void {
    appendFileSync(this.path, encodeRecord({ done: seq }));
  }
}

/** Removes the journal once every entry is resolved. */
export function clearJournal(stateDir: string, accountKey: string): void {
  const path = journalPath(stateDir, accountKey);
  if (existsSync(path)) unlinkSync(path);
}
