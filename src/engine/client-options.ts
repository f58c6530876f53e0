/**
 * The options every API client of a run is opened with, whatever the run — the accounts of a
 * plan or apply (accounts.ts) or a command by hand (by-hand.ts): the endpoint, the run's clock
 * (which dates the signatures), its request deadline, the `--debug` trace and the notices of long
 * waits. What only some runs have (credentials, a lock's fence, shared budgets) each adds.
 */
import type { ClientOptions, WaitNotice } from '../api/client.js';
import type { Endpoint } from '../api/endpoints.js';
import type { RunOptions } from './run-options.js';

/** A run as its clients see it. */
export interface ClientRun {
  /** The endpoint opened for the run (its connect timeout in it, from `RunOptions`). */
  endpoint: Endpoint;
  /** The run's clock, and each request's deadline when one is set. */
  options: Pick<RunOptions, 'clock' | 'requestTimeoutMs'>;
  /** Each request, for `--debug`. */
  trace?: (line: string) => void;
  /** Told when a request waits long for a rate limit. */
  onWait?: (notice: WaitNotice) => void;
}

/** The client options of `run`, credentials aside. */
export function runClientOptions(run: ClientRun): Omit<ClientOptions, 'credentials'> {
  return {
    endpoint: run.endpoint,
    now: () => run.options.clock.now().getTime(),
    ...(run.onWait === undefined ? {} : { onWait: run.onWait }),
    ...(run.options.requestTimeoutMs === undefined ? {} : { timeoutMs: run.options.requestTimeoutMs }),
    ...(run.trace === undefined ? {} : { trace: run.trace }),
  };
}
