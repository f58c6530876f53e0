/**
 * Long waits for a rate limit are never silent: the first request of a run that must wait at least
 * a few seconds for a budget says, on stderr, what it waits for, until when, and how to avoid it.
 * Requests waiting for the same budget and window are told once.
 */
import type { WaitNotice } from '../api/client.js';
import type { Io } from './io.js';

function duration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}

/** How the wait is avoided, by the budget it is for. */
function remedy(notice: WaitNotice): string {
  if (notice.global) {
    return 'the service allows few global lookups per user (5 in 15 minutes for some); adsctl keeps what it read in .adsctl/cache, so keep that directory between runs (in CI, cache it) and the next run reads none of it again';
  }
  if (notice.write) return 'the service takes a limited number of writes per user (450 a minute), shared by every run with these credentials; the apply goes on by itself';
  return 'the service limits reads per account and endpoint, shared by every run against this account; the run goes on by itself';
}

/** The `onWait` handler of a run's clients: one line per budget and window, on `io.err`. */
export function waitNotices(io: Io): (notice: WaitNotice) => void {
  const told = new Map<string, number>();
  return (notice) => {
    const budget = notice.global ? `global ${notice.request}` : notice.write ? 'write' : `read ${notice.request}`;
    const until = told.get(budget);
    if (until !== undefined && until >= notice.until - 1000) return;
    told.set(budget, notice.until);
    const at = new Date(notice.until).toISOString().slice(11, 19);
    io.err(`Waiting ${duration(notice.ms)}, until ${at} UTC, for the service's rate limit on ${notice.request}: ${remedy(notice)}. Ctrl-C stops the run.\n`);
  };
}
