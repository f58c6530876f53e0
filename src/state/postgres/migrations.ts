/**
 * The tables of the PostgreSQL backend, created and brought up to date by adsctl itself: numbered
 * migrations, each applied once, recorded in `<schema>.migrations`. They run in one transaction
 * under a transaction-level advisory lock, so runners that start together do not race, and a
 * database migrated by a newer adsctl (a number this one does not know) is refused rather than
 * written in a shape it does not understand.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { MEMBER_STORES_MIGRATION } from './members.js';

/** The migrations, in order; the number of one is its index + 1. Never edit one that shipped: add another. */
export const MIGRATIONS: ReadonlyArray<(schema: string) => string> = [
  (s) => `
    CREATE TABLE ${s}.states (
      account text PRIMARY KEY,
      serial bigint NOT NULL,
      state jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE TABLE ${s}.state_versions (
      account text NOT NULL,
      serial bigint NOT NULL,
      state jsonb NOT NULL,
      written_at timestamptz NOT NULL,
      written_by text NOT NULL,
      operation text NOT NULL,
      PRIMARY KEY (account, serial)
    );
    CREATE TABLE ${s}.journal (
      position bigserial PRIMARY KEY,
      account text NOT NULL,
      record jsonb NOT NULL
    );
    CREATE INDEX journal_account ON ${s}.journal (account, position);
    CREATE TABLE ${s}.lock_holders (
      account text PRIMARY KEY,
      info jsonb NOT NULL,
      backend_pid integer NOT NULL
    );
    CREATE TABLE ${s}.lookup_cache (
      name text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    );`,
  MEMBER_STORES_MIGRATION,
  // the generation of each account's lock: one more at every acquisition; writes under a lock are made only while it is still the lock's
  (s) => `
    CREATE TABLE ${s}.lock_generations (
      account text PRIMARY KEY,
      generation bigint NOT NULL
    );`,
];

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The advisory lock key that serialises migrations of one schema. */
function migrationKey(schema: string): string {
  return createHash('sha256').update(`adsctl-migrate\u0000${schema}`).digest().readBigInt64BE(0).toString();
}

/** Brings `schema` up to the latest migration; throws when the database is newer than this adsctl. */
export async function migrate(client: pg.Client, schema: string, migrations: ReadonlyArray<(schema: string) => string> = MIGRATIONS): Promise<void> {
  const s = quoteIdent(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [migrationKey(schema)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)`);
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.migrations`);
    const applied = rows[0]?.version ?? 0;
    if (applied > migrations.length) {
      throw new Error(`the schema ${schema} was migrated by a newer adsctl (migration ${applied}; this one knows ${migrations.length}): upgrade adsctl`);
    }
    for (let version = applied + 1; version <= migrations.length; version++) {
      await client.query(migrations[version - 1]!(s));
      await client.query(`INSERT INTO ${s}.migrations (version, applied_at) VALUES ($1, now())`, [version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
