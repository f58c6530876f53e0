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
 *
 * Checkpoint and journal vouch for each other: the journal's head names its id and the checkpoint
 * serial it continues from, and the checkpoint names the journal it relies on (`journal_id`) or the
 * one it absorbed (`absorbed_journal`). A piece that is missing, empty or older than the other is
 * refused (`linkJournal`), never read as "nothing to recover".
 */
import { randomBytes } from 'node:crypto';
import { lostJournalRemedy } from './journal.js';
import type { JournalContents, JournalDone, JournalIntent, JournalOperation } from './journal-record.js';
import type { AccountState, StateResource } from './state-file.js';
import type { JournalLog, JournalStore, StateReader, StateWriter } from './store.js';

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

/** A journal refused for not fitting its checkpoint: the message says it all. */
const refused = (journal: JournalContents, where: string, said: string): JournalContents => ({ ...journal, damage: { path: where, line: 1, lines: 0, problem: said, said } });

/**
 * The journal as it goes with the checkpoint `state`: a leftover of a journal the checkpoint
 * absorbed reads as empty; a journal the checkpoint relies on that is missing or empty, one older
 * than the checkpoint's serial allows, or one of another run, is refused with what to do.
 * `where` names the journal, `checkpoint` the checkpoint, in messages.
 */
function linkJournal(state: AccountState, journal: JournalContents, where: string, checkpoint: string): JournalContents {
  if (journal.damage !== undefined) return journal;
  const { head } = journal;
  const empty = journal.open.length === 0 && journal.outcomes.length === 0;
  const since = journal.open.reduce<number | undefined>((min, i) => Math.min(min ?? i.at, i.at), undefined);
  const when = since === undefined ? '' : ` since ${new Date(since).toISOString()}`;
  if (head === undefined) {
    if (state.journal_id === undefined) return journal;
    return refused(
      journal,
      where,
      `${where}: the apply journal is ${journal.present === true ? (empty ? 'empty' : 'not the one the checkpoint names (it has no head)') : 'missing'}, but ${checkpoint} (serial ${state.serial}) says journal ${state.journal_id} holds the outcomes of an apply after it. ` +
        'Without it adsctl cannot tell what that apply created, so it changes nothing. ' +
        `If you have a copy of the journal, put it back and run adsctl apply again. Otherwise ${lostJournalRemedy(where, when, journal.present === true)}`,
    );
  }
  if (state.absorbed_journal === head.journal) return { open: [], outcomes: [], lastSeq: 0, whole: journal.whole, present: true };
  if (head.base > state.serial) {
    return refused(
      journal,
      where,
      `${where}: the apply journal continues from serial ${head.base}, but ${checkpoint} is at serial ${state.serial}: the checkpoint is older than the journal, and the outcomes between them are in neither. ` +
        `Nothing was changed. Put back the newest checkpoint (a backup; adsctl state history lists the versions kept, and one at serial ${head.base} or later can be put back with adsctl state pull --serial N > state.json, then adsctl state push --force state.json) and run adsctl apply again.`,
    );
  }
  if (state.journal_id !== undefined && state.journal_id !== head.journal) {
    return refused(
      journal,
      where,
      `${where}: the apply journal is journal ${head.journal}, but ${checkpoint} (serial ${state.serial}) names journal ${state.journal_id}: they are pieces of different runs. ` +
        `Nothing was changed. Put back the journal or the checkpoint that belongs with the other (from a backup) and run adsctl apply again.`,
    );
  }
  return journal;
}

/**
 * An account's state as the last run left it: the checkpoint with the journalled outcomes on top.
 * The journal's contents come with it (open entries, damage, a journal that does not fit the
 * checkpoint) so the caller need not read it again.
 */
export async function loadState(store: StateReader & JournalStore, key: string, endpoint: string): Promise<{ state: AccountState; journal: JournalContents } | string> {
  const state = await store.read(key, endpoint);
  if (typeof state === 'string') return state;
  const where = store.locate(key);
  const journal = linkJournal(state, await store.readJournal(key), where.journalAlone, `the checkpoint ${where.state}`);
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

  /**
   * Opens the journal of `state`'s account for an apply. A journal not yet begun (or one the
   * checkpoint absorbed) is begun afresh, continuing from the state's serial; then the checkpoint
   * is written naming it, before any request is sent, so a journal lost from then on is missed.
   */
  static async open(store: JournalStore & StateWriter, state: AccountState): Promise<ApplyJournal> {
    const log = await store.openJournal(state.account);
    if (log.head === undefined || log.head.journal === state.absorbed_journal) await log.begin({ journal: randomBytes(8).toString('hex'), base: state.serial });
    const journal = new ApplyJournal(log);
    const id = log.head!.journal;
    if (state.journal_id !== id) {
      state.journal_id = id;
      delete state.absorbed_journal;
      await store.checkpoint(state, 'apply', false);
    }
    return journal;
  }

  /** Marks `state` as holding every outcome of this journal, before its final checkpoint and the journal's removal. */
  absorbInto(state: AccountState): void {
    absorbJournal(state, this.log.head?.journal);
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
    await this.log.rewrite([...[...this.open.values()].map((intent) => ({ intent })), ...this.outcomes], serial);
  }
}

/** Marks `state` as holding every outcome of journal `id` (when it has one): no journal is needed beside it. */
export function absorbJournal(state: AccountState, id: string | undefined): void {
  delete state.journal_id;
  if (id !== undefined) state.absorbed_journal = id;
}
