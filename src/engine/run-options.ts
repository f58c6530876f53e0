/**
 * The options of a run, as one value: the command line builds it once from its flags and the
 * environment (src/cli/run-options.ts, `runOptions`) and gives it to the engine when the accounts
 * are opened; everything that sends a request, waits for a lock or reads the time takes it from
 * there. No option reaches the engine another way.
 */
import type { Clock } from '../clock/clock.js';

export interface RunOptions {
  /**
   * Requests in flight at once (`--parallelism`): the budget every account of the run shares, each
   * client's own connections, and the writes of one account's apply.
   */
  parallelism: number;
  /** How long a refused connection is retried before the endpoint is given up (`--connect-timeout`). */
  connectTimeoutMs: number;
  /** How long to wait for a state lock, and for the embedded emulator another run uses (`--lock-timeout`). */
  lockTimeoutMs: number;
  /** The deadline of each request (ADSCTL_REQUEST_TIMEOUT), which the run's locks name; the API client's default when absent. */
  requestTimeoutMs?: number;
  /** The run's clock (src/clock/clock.ts): it dates requests, journal entries and what the run compares with now. */
  clock: Clock;
}
