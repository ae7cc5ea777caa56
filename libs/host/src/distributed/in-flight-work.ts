/**
 * Counts work a process has taken and not yet answered (HTTP requests, NATS commands), so a
 * shutdown can stop taking more and still wait for what it took.
 */
export class InFlightWork {
  private count = 0;
  private readonly idleWaiters = new Set<() => void>();

  get size(): number {
    return this.count;
  }

  started(): void {
    this.count++;
  }

  finished(): void {
    this.count--;
    if (this.count === 0) for (const wake of [...this.idleWaiters]) wake();
  }

  /** Resolves once nothing is in flight or `timeoutMs` has passed, whichever is first; answers what is left. */
  async settled(timeoutMs: number): Promise<number> {
    if (this.count > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.idleWaiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        this.idleWaiters.add(done);
      });
    }
    return this.count;
  }
}
