import type { GlobalPosition, RecordedEvent, SubscribeToAllOptions } from '../event-store.port';
import { BatchedSubscription } from '../support/batched-subscription';

export interface SubscriptionRead {
  /** Events readable in log order after the position, at most the limit. */
  readonly events: RecordedEvent[];
  /** True when committed events exist beyond them that an older open transaction still holds back. */
  readonly pending: boolean;
}

/** What a subscription needs from the store; kept narrow so the loop is easy to follow. */
export interface SubscriptionSource {
  readAfter(position: GlobalPosition | null, limit: number): Promise<SubscriptionRead>;
  /** Calls wake on every commit notification; returns the function that stops listening. */
  listen(wake: () => void): () => Promise<void>;
}

export interface SubscriptionTiming {
  /** Longest sleep without a notification: the fallback when notifications are lost. */
  readonly pollIntervalMs: number;
  /** First retry delay while events are held back by an open transaction. */
  readonly pendingRetryMs: number;
  /** Longest retry delay while events are held back; default PENDING_RETRY_CAP_MS (or pollIntervalMs if smaller). */
  readonly pendingRetryCapMs?: number;
}

/**
 * While committed events wait behind an open transaction, the subscription re-reads at most this far
 * apart. The transaction that holds them back may not be an append (a read-model or checkpoint
 * write), so its commit notifies nobody: a back-off up to the poll interval (1 s) would leave the read
 * models, and every read waiting on them, a second behind (docs/architecture.md, "The 1 s cliff").
 */
export const PENDING_RETRY_CAP_MS = 50;

/**
 * Catch-up then live, in one loop: read a batch after the checkpoint, hand it over, and when the log
 * has nothing more, sleep until a commit notification or the poll interval. There is no separate
 * live mode to switch to, so no event can fall between catch-up and live.
 */
export class PostgresSubscription extends BatchedSubscription {
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly source: SubscriptionSource,
    options: SubscribeToAllOptions,
    private readonly timing: SubscriptionTiming,
    onFinished: (subscription: PostgresSubscription) => void,
  ) {
    super(options);
    this.start(() => onFinished(this));
  }

  protected async consume(): Promise<void> {
    this.unlisten = this.source.listen(() => this.wake.notify());
    await this.follow();
  }

  protected async release(): Promise<void> {
    await this.unlisten?.();
  }

  private async follow(): Promise<void> {
    let position = this.options.after;
    const pendingCap = Math.min(this.timing.pendingRetryCapMs ?? PENDING_RETRY_CAP_MS, this.timing.pollIntervalMs);
    let pendingDelay = this.timing.pendingRetryMs;
    while (!this.stopping) {
      // Notifications from now on concern commits this read may miss: they must cut the next sleep short.
      this.wake.clear();
      const { events, pending } = await this.source.readAfter(position, this.batchSize);
      if (this.stopping) return;
      if (events.length > 0) {
        await this.options.handle(events);
        position = events[events.length - 1].position;
        pendingDelay = this.timing.pendingRetryMs;
      }
      if (events.length === this.batchSize) continue;
      if (pending) {
        // An older transaction still runs; its commit may not notify (it may not be an append). Only
        // a wait that ran its full length lengthens the next: notifications of other commits say
        // nothing about how long the blocker lasts.
        const notified = await this.wake.wait(pendingDelay);
        if (!notified) pendingDelay = Math.min(pendingDelay * 2, pendingCap);
        continue;
      }
      this.caughtUpSignal.resolve();
      await this.wake.wait(this.timing.pollIntervalMs);
      if (this.options.gatherMs && !this.stopping) await new Promise((resolve) => setTimeout(resolve, this.options.gatherMs));
    }
  }
}
