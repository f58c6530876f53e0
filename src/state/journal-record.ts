/**
 * One line of the apply journal: an intent (the operations about to be sent in one write request)
 * or the closing of one. Each line carries `sum`, the first 16 hex digits of the SHA-256 of the
 * record's JSON without it, so a line that was damaged is told apart from one written whole. Lines
 * written before the checksum existed have none; they are checked against the schema only.
 */
import { createHash } from 'node:crypto';
import { shapeProblems } from './shape.js';

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

export type JournalRecord = { intent: JournalIntent } | { done: number };

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
