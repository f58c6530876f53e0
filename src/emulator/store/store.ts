/**
 * The emulator's backend: every stored record in indexed tables, changed only inside a
 * transaction. A transaction either commits (its changed rows go to the journal listener, so a
 * `--data` file keeps them) or rolls back completely, which is how batches are all-or-nothing.
 */
import { entityId, snowflakeId } from '../ids.js';
import type { Kind, Rec, Row } from './row.js';
import { Table, type IndexKey } from './table.js';
import { MemberSets, type MemberChange } from './member-set.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const byField = (field: string): IndexKey => (row) => str(row.rec[field]);

const INDEXES: Record<Kind, Record<string, IndexKey>> = {
  user: { screen_name: (row) => str(row.rec['screen_name'])?.toLowerCase() },
  app: {},
  request_token: {},
  access_token: {},
  bearer_token: { app: (row) => str(row.ext['consumer_key']) },
  account: {},
  account_app: {},
  account_media: {},
  funding_instrument: {},
  campaign: { funding_instrument: byField('funding_instrument_id') },
  line_item: { campaign: byField('campaign_id'), funding_instrument: byField('funding_instrument_id') },
  targeting_criterion: { line_item: byField('line_item_id') },
  line_item_curated_category: { line_item: byField('line_item_id') },
  media_creative: { line_item: byField('line_item_id'), campaign: (row) => str(row.ext['campaign_id']) },
  promoted_account: { line_item: byField('line_item_id') },
  promoted_tweet: { line_item: byField('line_item_id') },
  promotable_user: {},
  post: { user: (row) => str(row.ext['user_id']) },
  draft_post: {},
  scheduled_post: {},
  media: {},
  media_library: {},
  card: {},
  conversation_card: {},
  history: { entity: byField('entity_id') },
  custom_audience: {},
  audience_permission: { audience: byField('custom_audience_id'), granted: byField('granted_account_id') },
  do_not_reach_list: {},
};

type Undo = { op: 'add'; row: Row } | { op: 'update'; row: Row; rec: Rec; ext: Rec };

/** Listener told of every committed change: the rows as they are after it, the id counter, member set changes. */
type CommitListener = (rows: Row[], counter: number, members: MemberChange[]) => void;

export class Store {
  private readonly tables = new Map<Kind, Table>();
  private counter = 0;
  private undo: Undo[] | undefined;
  private dirty: Set<Row> | undefined;
  onCommit: CommitListener | undefined;
  /** Audience memberships (compact key sets), changed and rolled back with the transaction. */
  readonly members = new MemberSets();

  constructor() {
    for (const [kind, indexes] of Object.entries(INDEXES)) this.tables.set(kind as Kind, new Table(kind as Kind, indexes));
  }

  table(kind: Kind): Table {
    const t = this.tables.get(kind);
    if (t === undefined) throw new Error(`unknown kind ${kind}`);
    return t;
  }

  get(kind: Kind, id: string): Row | undefined {
    return this.table(kind).get(id);
  }

  /** The id counter, persisted so that ids stay unique across restarts. */
  get idCounter(): number {
    return this.counter;
  }

  /** A fresh base-36 entity id. */
  newId(): string {
    return entityId(++this.counter);
  }

  /** A fresh decimal snowflake id (posts, cards); far above the seeded ones. */
  newSnowflake(): string {
    return snowflakeId(1_000_000_000 + ++this.counter);
  }

  /** Inserts a new record; must run inside `transaction`. */
  insert(kind: Kind, id: string, accountId: string, rec: Rec, ext: Rec = {}): Row {
    const row: Row = { kind, id, accountId, seq: ++this.counter, rec, ext };
    const table = this.table(kind);
    if (table.get(id) !== undefined) throw new Error(`duplicate ${kind} id ${id}`);
    table.add(row);
    this.track({ op: 'add', row }, row);
    return row;
  }

  /** Replaces fields of a record (and of its private part); must run inside `transaction`. */
  update(row: Row, patch: Rec, extPatch: Rec = {}): Row {
    const before: Row = { ...row };
    this.track({ op: 'update', row, rec: row.rec, ext: row.ext }, row);
    row.rec = { ...row.rec, ...patch };
    row.ext = { ...row.ext, ...extPatch };
    this.table(row.kind).reindex(row, before);
    return row;
  }

  /** Replaces a record as a whole (fields it no longer has go away); must run inside `transaction`. */
  replace(row: Row, rec: Rec): Row {
    const before: Row = { ...row };
    this.track({ op: 'update', row, rec: row.rec, ext: row.ext }, row);
    row.rec = rec;
    this.table(row.kind).reindex(row, before);
    return row;
  }

  private track(entry: Undo, row: Row): void {
    if (this.undo === undefined || this.dirty === undefined) throw new Error('store write outside a transaction');
    this.undo.push(entry);
    this.dirty.add(row);
  }

  /**
   * Runs `fn` as one unit: if it throws, every change it made is undone and the error rethrown;
   * otherwise the changed rows are committed and handed to `onCommit`. Nested calls join the
   * outer transaction.
   */
  transaction<T>(fn: () => T): T {
    if (this.undo !== undefined) return fn();
    this.undo = [];
    this.dirty = new Set();
    const counterBefore = this.counter;
    try {
      const result = fn();
      const rows = [...this.dirty];
      this.undo = undefined;
      this.dirty = undefined;
      const members = this.members.commit();
      if (rows.length > 0 || this.counter !== counterBefore || members.length > 0) this.onCommit?.(rows, this.counter, members);
      return result;
    } catch (error) {
      this.rollback(this.undo ?? []);
      this.members.rollback();
      this.counter = counterBefore;
      this.undo = undefined;
      this.dirty = undefined;
      throw error;
    }
  }

  /** A savepoint inside the current transaction: `fn`'s changes are undone if it throws. */
  savepoint<T>(fn: () => T): T {
    const undo = this.undo;
    if (undo === undefined) throw new Error('savepoint outside a transaction');
    const mark = undo.length;
    const memberMark = this.members.mark();
    try {
      return fn();
    } catch (error) {
      this.rollback(undo.splice(mark));
      this.members.rollback(memberMark);
      throw error;
    }
  }

  private rollback(entries: Undo[]): void {
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      const table = this.table(e.row.kind);
      if (e.op === 'add') table.removeLast(e.row);
      else {
        const current: Row = { ...e.row };
        e.row.rec = e.rec;
        e.row.ext = e.ext;
        table.reindex(e.row, current);
      }
    }
  }

  /** Restores a row from persisted state (insert or replace), outside any transaction. */
  restore(row: Row): void {
    const table = this.table(row.kind);
    const existing = table.get(row.id);
    if (existing === undefined) table.add(row);
    else {
      const before: Row = { ...existing };
      existing.rec = row.rec;
      existing.ext = row.ext;
      table.reindex(existing, before);
    }
  }

  /** Restores the id counter from persisted state. */
  restoreCounter(counter: number): void {
    this.counter = Math.max(this.counter, counter);
  }

  /** Every stored row, for snapshots, in creation order. */
  allRows(): Row[] {
    const rows: Row[] = [];
    for (const t of this.tables.values()) for (const r of t.all()) rows.push(r);
    return rows.sort((a, b) => a.seq - b.seq);
  }
}
