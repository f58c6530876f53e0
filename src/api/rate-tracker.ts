/**
 * What the service last said about each rate-limit budget, from its response headers, so the
 * client slows down before the budget runs out instead of after. Account-level headers
 * (`x-account-rate-limit-*`) take precedence over user-level ones, as the service documents.
 */

export interface Budget {
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
export function budgetOf(headers: Headers): Budget | undefined {
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

export class RateTracker {
  private readonly budgets = new Map<string, Budget>();
  private readonly inFlight = new Map<string, number>();

  /** Records the budget a response reported for `key`. */
  observe(key: string, headers: Headers): void {
    const b = budgetOf(headers);
    if (b !== undefined) this.budgets.set(key, b);
  }

  /** Records that the budget of `key` is exhausted until `reset` (a 429). */
  exhaust(key: string, reset: number): void {
    const b = this.budgets.get(key);
    this.budgets.set(key, { limit: b?.limit ?? 0, remaining: 0, reset });
  }

  /**
   * Milliseconds to wait before sending one more request on `key`: zero while the budget left
   * covers the requests already in flight, else the time to the reset.
   */
  delayBefore(key: string, nowMs: number): number {
    const b = this.budgets.get(key);
    if (b === undefined) return 0;
    const resetMs = b.reset * 1000;
    if (resetMs <= nowMs) {
      this.budgets.delete(key);
      return 0;
    }
    return b.remaining - (this.inFlight.get(key) ?? 0) > 0 ? 0 : resetMs - nowMs + 50;
  }

  start(key: string): void {
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
  }

  finish(key: string): void {
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
  }
}
