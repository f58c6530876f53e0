/**
 * The apply journal over any backend (store.ts): what makes each write request durable in O(1).
 * Before a request, an intent names its operations; after its answer, a closing record carries
 * the outcome — the addresses it bound or dropped — and the state serial it moved the state to.
 * The state itself is only checkpointed now and then (apply.ts), so a request costs one small
 * durable append, not a rewrite of the whole state.
 *
 * Reading an account's state is therefore: the last checkpoint, then every journalled outcome
 * whose serial is above the checkpoint's, in order (`loadState`). Intents never closed are a run
 * killed while a request was in flight; apply and destroy resolve them by re-reading the service
 * (apply/recover.ts) before they plan — never by sending them again blindly.
 */
import type { JournalContents, JournalDone, JournalIntent, JournalOperation } from './journal-record.js';
import type { AccountState, StateResource } from './state-file.js';
import type { JournalLog, StateStore } from './store.js';

/** What one request changed in the state. */
export interface StateChanges {
  set: Record<string, StateResource>;
  drop: string[];
  /** The live account id bound (a string) or dropped (null). */
  accountId?: string | null;
}

export const noChanges = (): StateChanges => ({ set: {}, drop: [] });

/** Applies the outcomes above the state's serial, in order; returns how many it applied. */
export function replayOutcomes(state: AccountState, outcomes: readonly JournalDone[]): number {
  let applied = 0;
  for (const outcome of outcomes) {
    if (outcome.serial === undefined || outcome.serial <= state.serial) continue;
    for (const address of outcome.drop ?? []) delete state.resources[address];
    Object.assign(state.resources, outcome.set ?? {});
    if (outcome.account_id === null) delete state.account_id;
    else if (outcome.account_id !== undefined) state.account_id = outcome.account_id;
    state.serial = outcome.serial;
    applied++;
  }
  return applied;
}

/**
 * An account's state as the last run left it: the checkpoint with the journalled outcomes on top.
 * The journal's contents come with it (open entries, damage) so the caller need not read it again.
 */
export async function loadState(store: StateStore, key: string, endpoint: string): Promise<{ state: AccountState; journal: JournalContents } | string> {
  const state = await store.read(key, endpoint);
  if (typeof state === 'string') return state;
  const journal = await store.readJournal(key);
  if (journal.damage === undefined) replayOutcomes(state, journal.outcomes);
  return { state, journal };
}

/** The journal of one apply: numbered intents, closings with outcomes, compaction after a checkpoint. */
export class ApplyJournal {
  private seq: number;
  /** Intents written and not yet closed, by number. */
  private readonly open = new Map<number, JournalIntent>();
  /** Outcomes written since the last compaction, in order. */
  private outcomes: JournalDone[] = [];

  constructor(private readonly log: JournalLog) {
    this.seq = log.lastSeq;
  }

  static async open(store: StateStore, key: string): Promise<ApplyJournal> {
    return new ApplyJournal(await store.openJournal(key));
  }

  /** Records operations about to be sent; resolves with the entry's number once it is durable. */
  async intend(operations: JournalOperation[], at: number): Promise<number> {
    const intent: JournalIntent = { seq: ++this.seq, at, operations };
    this.open.set(intent.seq, intent);
    await this.log.append({ intent });
    return intent.seq;
  }

  /**
   * Closes entry `seq`. With `serial`, the record carries the request's outcome (`changes`), which
   * is then durable without a write of the state; without, the outcome is already in the state.
   */
  async close(seq: number, serial?: number, changes?: StateChanges): Promise<void> {
    const record: JournalDone = { done: seq };
    if (serial !== undefined && changes !== undefined) {
      record.serial = serial;
      if (Object.keys(changes.set).length > 0) record.set = changes.set;
      if (changes.drop.length > 0) record.drop = changes.drop;
      if (changes.accountId !== undefined) record.account_id = changes.accountId;
      this.outcomes.push(record);
    }
    this.open.delete(seq);
    await this.log.append(record);
  }

  /** Entries written and not closed. */
  get openEntries(): number {
    return this.open.size;
  }

  /**
   * After a checkpoint of the state at `serial`: keeps only the entries still open and the
   * outcomes the checkpoint does not hold (those closed while it was being written).
   */
  async compact(serial: number): Promise<void> {
    this.outcomes = this.outcomes.filter((o) => (o.serial ?? 0) > serial);
    await this.log.rewrite([...[...this.open.values()].map((intent) => ({ intent })), ...this.outcomes]);
  }
}
