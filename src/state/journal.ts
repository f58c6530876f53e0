/**
 * The apply journal: before every write request, a line naming the operations about to be sent;
 * after its outcome is recorded in state, a line closing it. A run killed between the two leaves
 * an open entry, and the next run resolves its creates by re-reading the service (adopting what
 * was created) before it plans — never by sending them again blindly. NDJSON, appended
 * synchronously, beside the state file.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stateStem } from './state-file.js';

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

type Line = { intent: JournalIntent } | { done: number };

export function journalPath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.journal`);
}

/** Appends to an account's journal; one instance per apply. */
export class Journal {
  private readonly path: string;
  private seq = 0;

  constructor(stateDir: string, accountKey: string) {
    this.path = journalPath(stateDir, accountKey);
    mkdirSync(dirname(this.path), { recursive: true });
    this.seq = readJournal(stateDir, accountKey).lastSeq;
  }

  /** Records operations about to be sent; returns the entry's number for `done`. */
  intend(operations: JournalOperation[], at = Date.now()): number {
    const seq = ++this.seq;
    appendFileSync(this.path, `${JSON.stringify({ intent: { seq, at, operations } } satisfies Line)}\n`);
    return seq;
  }

  /** Records that the outcome of entry `seq` is in the state. */
  done(seq: number): void {
    appendFileSync(this.path, `${JSON.stringify({ done: seq } satisfies Line)}\n`);
  }
}

/** Entries still open (intended, never closed), and the last sequence number used. */
export function readJournal(stateDir: string, accountKey: string): { open: JournalIntent[]; lastSeq: number } {
  const path = journalPath(stateDir, accountKey);
  if (!existsSync(path)) return { open: [], lastSeq: 0 };
  const intents = new Map<number, JournalIntent>();
  let lastSeq = 0;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text === '') continue;
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      break; // a torn last line: that request was never sent
    }
    if ('intent' in line) {
      intents.set(line.intent.seq, line.intent);
      lastSeq = Math.max(lastSeq, line.intent.seq);
    } else intents.delete(line.done);
  }
  return { open: [...intents.values()], lastSeq };
}

/** Removes the journal once every entry is resolved. */
export function clearJournal(stateDir: string, accountKey: string): void {
  const path = journalPath(stateDir, accountKey);
  if (existsSync(path)) unlinkSync(path);
}
