/**
 * The member stores of accounts whose state is in PostgreSQL, kept beside it so any runner has
 * them (a fresh checkout, another CI machine): one row per membership, holding exactly the bytes
 * of its member store file (src/members/sets/member-store.ts) — SHA-256 digests only, naming the
 * membership — under the name the file would have. Read back with the same checks as the file.
 */
import type { MemberRows } from '../member-rows.js';
import type { Query, RowFence } from './fence.js';

/** The migration that adds the table. */
export const MEMBER_STORES_MIGRATION = (s: string): string => `
    CREATE TABLE ${s}.member_stores (
      account text NOT NULL,
      name text NOT NULL,
      members bytea NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account, name)
    );`;

/** The member stores of `account` in `table` (`<schema>.member_stores`), through `query`; writes fenced by `fence`. */
export function memberRows(query: Query, table: string, account: string, where: string, fence: RowFence): MemberRows {
  return {
    where,
    read: async (name) => (await query<{ members: Buffer }>(`SELECT members FROM ${table} WHERE account = $1 AND name = $2`, [account, name])).rows[0]?.members,
    write: async (name, bytes) => {
      await fence.write(
        `WITH fence AS (SELECT ${fence.condition(4)} AS ok), put AS (
           INSERT INTO ${table} (account, name, members, updated_at) SELECT $1, $2, $3, now() WHERE (SELECT ok FROM fence)
           ON CONFLICT (account, name) DO UPDATE SET members = EXCLUDED.members, updated_at = now()
         )
         SELECT ok AS fenced FROM fence`,
        [account, name, bytes],
      );
    },
    remove: async (name) => {
      await fence.write(`WITH fence AS (SELECT ${fence.condition(3)} AS ok), gone AS (DELETE FROM ${table} WHERE account = $1 AND name = $2 AND (SELECT ok FROM fence)) SELECT ok AS fenced FROM fence`, [account, name]);
    },
    names: async () => (await query<{ name: string }>(`SELECT name FROM ${table} WHERE account = $1 ORDER BY name`, [account])).rows.map((r) => r.name),
  };
}
