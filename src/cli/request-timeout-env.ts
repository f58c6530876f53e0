/**
 * ADSCTL_REQUEST_TIMEOUT: the deadline of each request a run sends (a duration such as `30s`,
 * `2m`; the API client's 60 s when unset). It bounds how long a write can be on the wire, which a
 * run that takes a lock over from a holder that may still run waits out before it reads
 * (docs/architecture.md, "State, journal and locks"); the lock names it for that run.
 */
import { parseDuration } from './run-options.js';

const NAME = 'ADSCTL_REQUEST_TIMEOUT';

/** The deadline ADSCTL_REQUEST_TIMEOUT sets in ms (undefined when it sets none), or what is wrong with it. */
export function requestTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined | { problem: string } {
  const value = env[NAME];
  if (value === undefined || value.trim() === '') return undefined;
  let ms: number;
  try {
    ms = parseDuration(value);
  } catch {
    return { problem: `${NAME}: "${value}" is not a duration such as 30s or 2m` };
  }
  if (ms < 1_000) return { problem: `${NAME}: ${value} is shorter than 1 s, which no request to the service can be sure to finish in` };
  return ms;
}
