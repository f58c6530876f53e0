/**
 * The session of the PostgreSQL backend (store.ts): where it is, in words without secrets; the
 * advisory lock key of an account; the settings that keep an idle session open; and what a failure
 * to reach the server says.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** `postgres://host:port/db`: where the state is, with no user and no password. */
export function describeConnection(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `postgres://${url.host}${url.pathname}`;
  } catch {
    return 'postgres (a connection string that is not a URL)';
  }
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A stable signed 64-bit key for an account's advisory lock. */
export function lockKey(schema: string, account: string): string {
  return createHash('sha256').update(`adsctl-lock\u0000${schema}\u0000${account}`).digest().readBigInt64BE(0).toString();
}

/** How long a connection is silent before TCP keepalive probes its peer. */
export const KEEPALIVE_AFTER_MS = 10_000;

/**
 * The server settings that end an idle session, turned off for this one: a run holds its lock
 * while it waits on the service, and a session ended by a timeout would drop the lock. Servers
 * older than a setting do not know it, and do not apply it either.
 */
const SESSION_TIMEOUTS = ['idle_session_timeout', 'idle_in_transaction_session_timeout'];

/** Turns off, for this session, the server settings that would end it while idle. */
export async function keepSessionOpen(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>('SELECT name FROM pg_settings WHERE name = ANY($1)', [SESSION_TIMEOUTS]);
  for (const { name } of rows) await client.query(`SET ${name} = 0`);
}

/** Network failures on the way to the server, which a retry once it is back fixes. */
const UNREACHED = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** What went wrong talking to the server, in words that never hold the password. */
export function connectionError(where: string, error: unknown): Error {
  const cause = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const remedy = typeof code === 'string' && UNREACHED.has(code) ? ': check that the server is up and reachable from here, then run the command again' : '';
  return new Error(`cannot use the state in ${where}: ${cause}${remedy}`);
}
