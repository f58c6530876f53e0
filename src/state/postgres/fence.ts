/**
 * How a write of an account's rows is fenced (store.ts, `fencedWrite`): a statement that selects
 * the condition as `fenced`, with the lock's generation as parameter `$n` and the account as `$1`,
 * writes only while that generation is still the account's, and is refused otherwise.
 */
import type pg from 'pg';

/** Runs one statement on the backend's session. */
export type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

export interface RowFence {
  /** The condition, with the generation as parameter `$n`. */
  condition(n: number): string;
  /** Runs a statement that selects the condition as `fenced`; throws the lock's loss when it is false. */
  write(text: string, values: unknown[]): Promise<void>;
}
