/**
 * The apply journal of an account whose state is in PostgreSQL (store.ts): a row per record in
 * `<schema>.journal`, the head first, each append one statement that adds the record and counts it
 * in the head, a rewrite one statement that replaces them all; every write fenced by the lock's
 * generation (fence.ts). Statements go through the session in call order, so an append called
 * after a rewrite lands after it.
 */
import type { JournalContents, JournalRecord } from '../journal-record.js';
import type { JournalLog } from '../store.js';
import type { Query, RowFence } from './fence.js';

/** The journal of `key` in `table`, as `contents` read it, open for appending through `query`, its writes fenced by `fence`. */
export async function journalRows(query: Query, fence: RowFence, table: string, key: string, contents: JournalContents): Promise<JournalLog> {
  let count = 0;
  if (contents.head !== undefined) {
    const { rows } = await query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE account = $1 AND NOT record ? 'head'`, [key]);
    count = Number(rows[0]?.n ?? 0);
  }
  let head = contents.head;
  /** The journal replaced by `head` (when it has one) and `records`, numbered from 1, in one statement. */
  const replace = async (records: readonly JournalRecord[]): Promise<void> => {
    const lines = [...(head === undefined ? [] : [{ head, records: records.length }]), ...records.map((r, i) => (head === undefined ? r : { ...r, n: i + 1 }))];
    // counted before the statement runs: an append called meanwhile numbers its record after these
    count = head === undefined ? 0 : records.length;
    await fence.write(
      `WITH fence AS (SELECT ${fence.condition(3)} AS ok),
         gone AS (DELETE FROM ${table} WHERE account = $1 AND (SELECT ok FROM fence)),
         added AS (INSERT INTO ${table} (account, record) SELECT $1, e.value FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, n) WHERE (SELECT ok FROM fence) ORDER BY e.n)
       SELECT ok AS fenced FROM fence`,
      [key, JSON.stringify(lines)],
    );
  };
  return {
    lastSeq: contents.lastSeq,
    get head() {
      return head;
    },
    begin: async (started) => {
      head = started;
      await replace([]);
    },
    append: async (record) => {
      if (head === undefined) {
        await fence.write(`WITH fence AS (SELECT ${fence.condition(3)} AS ok), added AS (INSERT INTO ${table} (account, record) SELECT $1, $2::jsonb WHERE (SELECT ok FROM fence)) SELECT ok AS fenced FROM fence`, [key, JSON.stringify(record)]);
        return;
      }
      // the record and the head's count of records in one statement; numbered now, in call order
      const n = ++count;
      await fence.write(
        `WITH fence AS (SELECT ${fence.condition(4)} AS ok),
           added AS (INSERT INTO ${table} (account, record) SELECT $1, $2::jsonb WHERE (SELECT ok FROM fence)),
           counted AS (UPDATE ${table} SET record = jsonb_set(record, '{records}', to_jsonb($3::int)) WHERE account = $1 AND record ? 'head' AND (SELECT ok FROM fence))
         SELECT ok AS fenced FROM fence`,
        [key, JSON.stringify({ ...record, n }), n],
      );
    },
    rewrite: async (records, base) => {
      if (head !== undefined && base !== undefined) head = { ...head, base };
      await replace(records);
    },
  };
}
