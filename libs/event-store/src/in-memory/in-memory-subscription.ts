import type { GlobalPosition, RecordedEvent, SubscribeToAllOptions } from '../event-store.port';
import { BatchedSubscription } from '../support/batched-subscription';

/** What a subscription needs from the in-memory log. */
export interface InMemoryLogSource {
  /** Events after the position in log order, at most the limit. */
  readAfter(position: GlobalPosition | null, limit: number): RecordedEvent[];
  /** Calls wake after every write that recorded events; returns the function that stops listening. */
  listen(wake: () => void): () => void;
}

/**
 * Catch-up then live in one loop, as the PostgreSQL subscription does: read a batch after the
 * checkpoint, hand it over, and when the log has nothing more, sleep until a write wakes it. A write
 * always wakes its listeners, so there is no poll interval and nothing held back by open transactions.
 */
export class InMemorySubscription extends BatchedSubscription {
  private unlisten: (() => void) | null = null;

  constructor(
    private readonly source: InMemoryLogSource,
    options: SubscribeToAllOptions,
    onFinished: (subscription: InMemorySubscription) => void,
  ) {
    super(options);
    this.start(() => onFinished(this));
  }

  protected async consume(): Promise<void> {
    this.unlisten = this.source.listen(() => this.wake.notify());
    let position = this.options.after;
    while (!this.stopping) {
      // Reads answer at once, so without this turn of the event loop the first batch would be handed
      // over inside subscribeToAll() itself, and a long catch-up would hold timers and I/O back.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.stopping) return;
      // Writes from now on concern events this read may miss: they must cut the next sleep short.
      this.wake.clear();
      const events = this.source.readAfter(position, this.batchSize);
      if (events.length > 0) {
        await this.options.handle(events);
        position = events[events.length - 1].position;
      }
      if (events.length === this.batchSize) continue;
      this.caughtUpSignal.resolve();
      await this.wake.wait();
      if (this.options.gatherMs && !this.stopping) await new Promise((resolve) => setTimeout(resolve, this.options.gatherMs));
    }
  }

  protected async release(): Promise<void> {
    this.unlisten?.();
  }
}
