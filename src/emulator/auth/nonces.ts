/**
 * Replay protection: a nonce may be used once per consumer and token within the timestamp window.
 * Entries expire with the window, so memory stays bounded by the request rate.
 */
export class NonceCache {
  private readonly seen = new Map<string, number>();
  private readonly windowSeconds: number;
  private lastSweep = 0;

  constructor(windowSeconds: number) {
    this.windowSeconds = windowSeconds;
  }

  /** Records the nonce; false when it was already used within the window. */
  use(consumerKey: string, token: string, nonce: string, nowSeconds: number): boolean {
    if (nowSeconds - this.lastSweep > this.windowSeconds) this.sweep(nowSeconds);
    const key = `${consumerKey}\u0000${token}\u0000${nonce}`;
    const until = this.seen.get(key);
    if (until !== undefined && until > nowSeconds) return false;
    this.seen.set(key, nowSeconds + 2 * this.windowSeconds);
    return true;
  }

  private sweep(nowSeconds: number): void {
    this.lastSweep = nowSeconds;
    for (const [key, until] of this.seen) if (until <= nowSeconds) this.seen.delete(key);
  }
}
