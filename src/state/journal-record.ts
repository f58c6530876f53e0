/**
 * One line of the apply journal: an intent (the operations about to be sent in one write request)
 * or the closing of one. Each line carries `sum`, the first 16 hex digits of the SHA-256 of the
 * record's JSON without it, so a line that was damaged is told apart from one written whole. Lines
 * written before the checksum existed have none; they are checked against the schema only.
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
}

const checksum = (json: string): string => createHash('sha256').update(json).digest('hex').slice(0, 16);

/** The line for `record`, newline included. */
export function encodeRecord(record: JournalRecord): string {
  const json = JSON.stringify(record);
  return `${json.slice(0, -1)},"sum":"${checksum(json)}"}\n`;
}

/** A line read back: the record, or what is wrong with it. */
export type DecodedLine = { record: JournalRecord } | { problem: string };

/** Reads one line (without its newline) and checks its checksum, when it has one, and its shape. */
export function decodeRecord(line: string): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: 'it is not JSON' };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'sum' in value) {
    const { sum, ...record } = value as Record<string, unknown>;
    if (sum !== checksum(JSON.stringify(record))) return { problem: 'its checksum does not match its content' };
  }
  const problems = shapeProblems('journal', value, 'the record', 1);
  if (problems.length > 0) return { problem: `it is not a journal record (${problems[0]!})` };
  const { sum: _, ...record } = value as JournalRecord & { sum?: string };
  return { record: record as JournalRecord };
}

/** What records read back whole say: the entries still open and the outcomes to replay. */
export function summariseJournal(records: readonly JournalRecord[]): Pick<JournalContents, 'open' | 'outcomes' | 'lastSeq'> {
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
