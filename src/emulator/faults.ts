/**
 * Injected faults for resilience tests: each advertising request draws once from a seeded
 * generator and may be answered 429, 500 or 503, have its connection reset before it is handled,
 * be handled and then lose its response, or be delayed. The same seed and request order give the
 * same faults.
 *
 * Spec: comma-separated `kind=rate` entries, rate a fraction (0.05) or a percentage (5%);
 * kinds `429`, `500`, `503`, `reset` (dropped before handling), `lost` (handled, then dropped),
 * `slow` (delayed by `slow_ms`, default 2000). Example: `429=5%,503=5%,reset=2%,slow=10%,slow_ms=1500`.
 */

type FaultKind = '429' | '500' | '503' | 'reset' | 'lost' | 'slow';

const KINDS: readonly FaultKind[] = ['429', '500', '503', 'reset', 'lost', 'slow'];

export interface FaultSpec {
  rates: Partial<Record<FaultKind, number>>;
  slowMs: number;
}

/** Parses a fault spec; returns an error message for a malformed one. */
export function parseFaultSpec(text: string): FaultSpec | string {
  const spec: FaultSpec = { rates: {}, slowMs: 2000 };
  let total = 0;
  for (const entry of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const m = /^([a-z0-9_]+)\s*=\s*([0-9.]+)(%?)$/.exec(entry);
    if (m === null) return `bad fault entry ${JSON.stringify(entry)}: expected kind=rate`;
    const [, kind, num, pct] = m;
    const value = Number(num);
    if (!Number.isFinite(value)) return `bad number in ${JSON.stringify(entry)}`;
    if (kind === 'slow_ms') {
      spec.slowMs = value;
      continue;
    }
    if (!(KINDS as readonly string[]).includes(kind!)) return `unknown fault kind ${JSON.stringify(kind)}; known: ${KINDS.join(', ')}, slow_ms`;
    const rate = pct === '%' ? value / 100 : value;
    if (rate < 0 || rate > 1) return `rate of ${kind} must be between 0 and 1 (or 0% and 100%)`;
    spec.rates[kind as FaultKind] = rate;
    total += rate;
  }
  if (total > 1 + 1e-9) return `fault rates add up to more than 100%`;
  return spec;
}

/** mulberry32: a small, fast, seedable generator. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decides, request by request, which fault (if any) to inject. */
export class FaultInjector {
  private spec: FaultSpec;
  private next: () => number;
  /** Requests left before the spec turns itself off (unlimited when undefined). */
  private remaining: number | undefined;

  constructor(spec: FaultSpec, seed: number) {
    this.spec = spec;
    this.next = generator(seed);
  }

  /** Replaces the spec and restarts the generator from `seed`; with `count`, only the next `count` requests draw. */
  configure(spec: FaultSpec, seed: number, count?: number): void {
    this.spec = spec;
    this.next = generator(seed);
    this.remaining = count;
  }

  get slowMs(): number {
    return this.spec.slowMs;
  }

  draw(): FaultKind | undefined {
    if (this.remaining !== undefined) {
      if (this.remaining <= 0) return undefined;
      this.remaining--;
    }
    const x = this.next();
    let acc = 0;
    for (const kind of KINDS) {
      acc += this.spec.rates[kind] ?? 0;
      if (x < acc) return kind;
    }
    return undefined;
  }
}
