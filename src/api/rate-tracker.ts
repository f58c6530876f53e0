/**
 * What the service last said about each rate-limit budget, from its response headers, so the
 * client slows down before the budget runs out instead of after. Account-level headers
 * (`x-account-rate-limit-*`) take precedence over user-level ones, as the service documents.
 */

interface Budget {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window restarts. */
  reset: number;
}

type Headers = Record<string, string | string[] | undefined>;

const num = (h: Headers, name: string): number | undefined => {
  const v = h[name];
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || !/^\d+$/.test(s)) return undefined;
  return Number(s);
};

/** The budget a response reports (account level first), or undefined without headers. */
function budgetOf(headers: Headers): Budget | undefined {
  for (const prefix of ['x-account-rate-limit', 'x-rate-limit']) {
    const limit = num(headers, `${prefix}-limit`);
    const remaining = num(headers, `${prefix}-remaining`);
    const reset = num(headers, `${prefix}-reset`);
    if (limit !== undefined && remaining !== undefined && reset !== undefined) return { limit, remaining, reset };
  }
  return undefined;
}

/** Epoch seconds of the reset a 429 names (account level first). */
export function resetOf(headers: Headers): number | undefined {
  return num(headers, 'x-account-rate-limit-reset') ?? num(headers, 'x-rate-limit-reset');
}

/**
 * The budgets of every client of a run, keyed by who spends them: a run over many accounts
 * shares one tracker, so the user-level budgets (writes, global lookups) that all accounts draw
 * from are counted once, and a request is sent only while the budget left covers every request
 * already in flight. When a window has ended, the next one is taken to hold the full limit until
 * a response says what it holds; the requests that waited for it then go out only as far as it
 * reaches, instead of all at once into a 429.
 */
export class RateTracker {
  private readonly budgets = new Map<string, Budget>();
  private readonly inFlight = new Map<string, number>();

  /**
   * Records the budget a response reported for `key`. Responses of one window arrive out of
   * order; the lowest remaining count it has reported is the one nearest the truth.
   */
  observe(key: string, headers: Headers): void {
    const b = budgetOf(headers);
    if (b === undefined) return;
    const known = this.budgets.get(key);
    if (known !== undefined && known.reset === b.reset && known.remaining < b.remaining) return;
    this.budgets.set(key, b);
  }

  /** Records that the budget of `key` is exhausted until `reset` (a 429). */
  exhaust(key: string, reset: number): void {
    const b = this.budgets.get(key);
    this.budgets.set(key, { limit: b?.limit ?? 0, remaining: 0, reset });
  }

  /**
   * Milliseconds to wait before sending one more request on `key`: zero while the budget left
   * covers the requests already in flight, else the time to the reset (or, in a window whose
   * reset is not known yet, until a request in flight answers).
   */
  delayBefore(key: string, nowMs: number): number {
    const b = this.budgets.get(key);
    if (b === undefined) return 0;
    if (b.reset !== UNKNOWN_RESET && b.reset * 1000 <= nowMs) {
      if (b.limit === 0) {
        this.budgets.delete(key);
        return 0;
      }
      b.remaining = b.limit;
      b.reset = UNKNOWN_RESET;
    }
    const inFlight = this.inFlight.get(key) ?? 0;
    if (b.remaining - inFlight > 0) return 0;
    if (b.reset === UNKNOWN_RESET) return inFlight === 0 ? 0 : ANSWER_POLL_MS;
    return b.reset * 1000 - nowMs + 50;
  }

  /** Counts a request on `key` as sent; the caller checked `delayBefore` with no wait in between. */
  start(key: string): void {
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
  }

  /** Counts a request on `key` as answered (or failed). */
  finish(key: string): void {
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
  }
}

/** The reset of a window that has begun but not reported itself yet. */
const UNKNOWN_RESET = 0;
/** How often a request waiting on a new window's first answers looks again. */
const ANSWER_POLL_MS = 100;
