/**
 * One line of the apply journal: its head (which journal it is, the checkpoint serial it continues
 * from, how many records were written after it), an intent (the operations about to be sent in one
 * write request) or the closing of one. Each line carries `sum`, the first 16 hex digits of the
 * SHA-256 of the record's JSON without it, so a line that was damaged is told apart from one
 * written whole; each record after the head carries `n`, its position, so a line removed or moved
 * is seen. Journals written before the head existed have neither head nor positions, and lines
 * written before the checksum existed have no sum; they are checked against the schema only.
 */
import { createHash } from 'node:crypto';
import { shapeProblems } from './shape.js';
import type { StateResource } from './state-file.js';

export interface JournalOperation {
  address: string;
  kind: string;
  action: 'create' | 'update' | 'delete';
  /** Parameters of a create (resolved ids), to recognise the object when re-reading. */
  params?: Record<string, unknown>;
}

export interface JournalIntent {
  seq: number;
  /** Epoch milliseconds when the request was about to be sent. */
  at: number;
  operations: JournalOperation[];
}

/**
 * The closing of entry `done`. With `serial`, it carries the outcome itself — what the request
 * changed in the state, which then was at `serial` — so the state need not be written for it to
 * be durable: a reader replays every outcome above the serial of the state it read. Without
 * `serial`, the outcome was written to the state before the entry was closed.
 */
export interface JournalDone {
  done: number;
  serial?: number;
  /** Addresses bound (or bound anew), with what the state now holds for each. */
  set?: Record<string, StateResource>;
  /** Addresses dropped from the state. */
  drop?: string[];
  /** The live account id, bound (a string) or dropped (null). */
  account_id?: string | null;
}

export type JournalRecord = { intent: JournalIntent } | JournalDone;

/**
 * What a journal says of itself in its first line: its id (which the checkpoint names) and the
 * serial of the checkpoint it continues from; `records`, rewritten in place after every append,
 * how many records follow, so a journal whose end was cut off is told from a torn last write.
 */
export interface JournalHead {
  journal: string;
  base: number;
}

/** A line as read: the head, or a record with its position (none in a journal without a head). */
type JournalLine = { head: JournalHead; records: number } | { record: JournalRecord; n?: number };

/** A line before the last that cannot be read: the journal cannot be trusted to be whole. */
export interface JournalDamage {
  /** The file, or where the backend keeps it. */
  path: string;
  /** 1-based. */
  line: number;
  lines: number;
  problem: string;
  /** When the earliest readable entry was written (epoch ms), if any is. */
  since?: number;
  /** The whole message, for a journal that does not fit its checkpoint (apply-journal.ts). */
  said?: string;
}

export interface JournalContents {
  /** Entries intended and never closed. */
  open: JournalIntent[];
  /** Closings that carry outcomes, in the order written. */
  outcomes: JournalDone[];
  lastSeq: number;
  /** Bytes of whole records: the file without a torn last line (local files only). */
  whole: number;
  damage?: JournalDamage;
  /** The journal's head, when it has one (journals of earlier versions have none). */
  head?: JournalHead;
  /** The journal exists (a file, or rows), even if it holds nothing whole. */
  present?: true;
}

const checksum = (json: string): string => createHash('sha256').update(json).digest('hex').slice(0, 16);

const sealed = (value: object): string => {
  const json = JSON.stringify(value);
  return `${json.slice(0, -1)},"sum":"${checksum(json)}"}`;
};

/** The line for `record` (at position `n`, in a journal with a head), newline included. */
export function encodeRecord(record: JournalRecord, n?: number): string {
  return `${sealed(n === undefined ? record : { ...record, n })}\n`;
}

/** Width of the head line: it is rewritten in place, so it never changes length. */
const HEAD_WIDTH = 160;

/** The head line, padded to a fixed width, newline included. */
export function encodeHead(head: JournalHead, records: number): string {
  return `${sealed({ head, records }).padEnd(HEAD_WIDTH - 1)}\n`;
}

/** A line read back: the record, or what is wrong with it. */
type DecodedLine = { record: JournalRecord } | { problem: string };

/** Checks a line's value against the schema: the head or a record with its position. */
export function lineOf(value: unknown): { line: JournalLine } | { problem: string } {
  const problems = shapeProblems('journal', value, 'the record', 1);
  if (problems.length > 0) return { problem: `it is not a journal record (${problems[0]!})` };
  const { sum: _, ...rest } = value as Record<string, unknown>;
  if ('head' in rest) return { line: rest as { head: JournalHead; records: number } };
  const { n, ...record } = rest as { n?: number };
  return { line: { record: record as JournalRecord, ...(n === undefined ? {} : { n }) } };
}

/** Reads one line (without its newline): checks its checksum, when it has one, and its shape. */
export function decodeLine(text: string): { line: JournalLine } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'it is not JSON' };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'sum' in value) {
    const { sum, ...record } = value as Record<string, unknown>;
    if (sum !== checksum(JSON.stringify(record))) return { problem: 'its checksum does not match its content' };
  }
  return lineOf(value);
}

/** Reads one record line (without its newline); a head is not a record. */
export function decodeRecord(text: string): DecodedLine {
  const decoded = decodeLine(text);
  if ('problem' in decoded) return decoded;
  if ('head' in decoded.line) return { problem: 'it is the head of a journal, not a record' };
  return { record: decoded.line.record };
}

/**
 * Reads the lines of a journal in order (each decoded, or what is wrong with it): the first may be
 * its head, and then every record must carry the next position and as many records must follow as
 * the head says were written. Any line that is not right is damage at that line, never skipped.
 * `where` names the journal in messages; `total` is how many lines it has.
 */
export function readJournalLines(lines: ReadonlyArray<{ line: JournalLine } | { problem: string }>, where: string, total = lines.length): Omit<JournalContents, 'whole'> {
  const records: JournalRecord[] = [];
  let head: JournalHead | undefined;
  let declared = 0;
  const since = (): number | undefined =>
    lines.reduce<number | undefined>((min, l) => ('line' in l && 'record' in l.line && 'intent' in l.line.record ? Math.min(min ?? l.line.record.intent.at, l.line.record.intent.at) : min), undefined);
  const damaged = (line: number, problem: string): Omit<JournalContents, 'whole'> => {
    const at = since();
    return { ...summariseJournal(records), ...(head === undefined ? {} : { head }), damage: { path: where, line, lines: total, problem, ...(at === undefined ? {} : { since: at }) } };
  };
  for (const [i, entry] of lines.entries()) {
    if ('problem' in entry) return damaged(i + 1, entry.problem);
    const { line } = entry;
    if ('head' in line) {
      if (i !== 0) return damaged(i + 1, 'it is the first line of a journal, found after the first: lines were moved');
      head = line.head;
      declared = line.records;
      continue;
    }
    const expected = records.length + 1;
    if (head !== undefined && line.n !== expected) {
      return damaged(i + 1, line.n === undefined ? 'it has no position' : `it is record ${line.n}, where record ${expected} belongs: records were removed or moved`);
    }
    if (head === undefined && line.n !== undefined) return damaged(1, 'the first line, which names the checkpoint the journal continues from, is missing');
    records.push(line.record);
  }
  if (head !== undefined && records.length < declared) {
    return damaged(lines.length + 1, `the journal ends after record ${records.length}, but its first line says ${declared} were written: its end was cut off`);
  }
  return { ...summariseJournal(records), ...(head === undefined ? {} : { head }) };
}

/** What records read back whole say: the entries still open and the outcomes to replay. */
function summariseJournal(records: readonly JournalRecord[]): Pick<JournalContents, 'open' | 'outcomes' | 'lastSeq'> {
  const intents = new Map<number, JournalIntent>();
  const outcomes: JournalDone[] = [];
  let lastSeq = 0;
  for (const record of records) {
    if ('intent' in record) {
      intents.set(record.intent.seq, record.intent);
      lastSeq = Math.max(lastSeq, record.intent.seq);
      continue;
    }
    intents.delete(record.done);
    if (record.serial !== undefined) outcomes.push(record);
  }
  return { open: [...intents.values()], outcomes, lastSeq };
}
