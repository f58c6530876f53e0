/**
 * Counts of what the client did, for plan output and benchmarks: logical requests by endpoint
 * and kind (read or write), HTTP attempts, retries, rate-limit waits.
 */

export interface RequestCounts {
  reads: number;
  writes: number;
  /** HTTP requests actually sent, retries included. */
  attempts: number;
  retries: number;
  rateLimited: number;
  waitedMs: number;
  byEndpoint: Record<string, number>;
}

export function emptyCounts(): RequestCounts {
  return { reads: 0, writes: 0, attempts: 0, retries: 0, rateLimited: 0, waitedMs: 0, byEndpoint: {} };
}
