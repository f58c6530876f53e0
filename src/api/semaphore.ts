/**
 * A counting semaphore: at most `limit` holders at once, the rest wait in order — those that
 * asked `first` (the next page of a list, whose chain of cursors nothing else can shorten) ahead
 * of the others.
 */
export class Semaphore {
  private readonly limit: number;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly waitingFirst: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  async acquire(first = false): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => (first ? this.waitingFirst : this.waiting).push(resolve));
  }

  release(): void {
    const next = this.waitingFirst.shift() ?? this.waiting.shift();
    if (next !== undefined) next();
    else this.active--;
  }
}
