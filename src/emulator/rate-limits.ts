/**
 * Rate limits as the service reports them (docs/service-behaviour.md, "Rate limits"): fixed windows per family and scope,
 * `x-rate-limit-limit/remaining/reset` on every authenticated response, the account-level
 * `x-account-rate-limit-*` headers on account-scoped reads, and 429 past the limit. Requests with
 * `with_total_count=true` also draw from their own, lower budget. Limits and windows can be
 * scaled so tests reach them in a few requests.
 */
import type { RateFamily } from './context.js';

interface Limit {
  limit: number;
  windowSeconds: number;
}

/** The service's numbers (docs/service-behaviour.md, "Rate limits"). */
const RATE_LIMITS: Record<RateFamily | 'total_count' | 'token' | 'user_quota', Limit> = {
  write: { limit: 450, windowSeconds: 60 },
  core_read: { limit: 10_000, windowSeconds: 900 },
  account_read: { limit: 2_000, windowSeconds: 900 },
  global_read: { limit: 5, windowSeconds: 900 },
  targeting_options: { limit: 400, windowSeconds: 900 },
  audience_users: { limit: 1_500, windowSeconds: 60 },
  /** Keyword insights: its own category budget per user. */
  insights: { limit: 500, windowSeconds: 900 },
  total_count: { limit: 200, windowSeconds: 900 },
  token: { limit: 300, windowSeconds: 900 },
  /** The high app-wide user quota that accompanies account-level limits. */
  user_quota: { limit: 100_000, windowSeconds: 900 },
};

interface RateLimitOptions {
  /** Multiplies every limit (at least 1 remains); 0 disables limits altogether. */
  scale: number;
  /** Replaces every window, in seconds. */
  windowSeconds?: number;
}

interface Bucket {
  limit: number;
  used: number;
  resetAt: number;
}

export interface Charge {
  /** The key of a bucket and the family whose numbers it uses. */
  key: string;
  family: keyof typeof RATE_LIMITS;
  /** Reported as `x-account-rate-limit-*` instead of `x-rate-limit-*`. */
  account?: boolean;
}

interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly options: RateLimitOptions;

  constructor(options: RateLimitOptions) {
    this.options = options;
  }

  get enabled(): boolean {
    return this.options.scale > 0;
  }

  /**
   * Draws one request from every bucket in `charges`, or from none if any is exhausted. Headers
   * describe the first user-level and the first account-level bucket.
   */
  charge(charges: readonly Charge[], nowSeconds: number): RateDecision {
    const buckets = charges.map((c) => ({ c, b: this.bucket(c, nowSeconds) }));
    const allowed = !this.enabled || buckets.every(({ b }) => b.used < b.limit);
    if (allowed && this.enabled) for (const { b } of buckets) b.used++;
    const headers: Record<string, string> = {};
    for (const { c, b } of buckets) {
      const prefix = c.account === true ? 'x-account-rate-limit' : 'x-rate-limit';
      if (headers[`${prefix}-limit`] !== undefined) continue;
      headers[`${prefix}-limit`] = String(b.limit);
      headers[`${prefix}-remaining`] = String(Math.max(0, b.limit - b.used));
      headers[`${prefix}-reset`] = String(b.resetAt);
    }
    return { allowed, headers };
  }

  private bucket(c: Charge, nowSeconds: number): Bucket {
    const spec = RATE_LIMITS[c.family];
    const window = this.options.windowSeconds ?? spec.windowSeconds;
    const limit = Math.max(1, Math.round(spec.limit * (this.enabled ? this.options.scale : 1)));
    let b = this.buckets.get(c.key);
    if (b === undefined || b.resetAt <= nowSeconds) {
      b = { limit, used: 0, resetAt: nowSeconds + window };
      this.buckets.set(c.key, b);
    }
    return b;
  }

  /** Forgets every bucket (control endpoint). */
  reset(): void {
    this.buckets.clear();
  }
}
