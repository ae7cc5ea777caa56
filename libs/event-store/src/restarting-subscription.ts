import type { EventStore, GlobalPosition, RecordedEvent, Subscription } from './event-store.port';

export interface RestartingSubscriptionOptions {
  readonly store: EventStore;
  /** Read afresh before every (re)start: the subscriber's own durable checkpoint. */
  readonly checkpoint: () => Promise<GlobalPosition | null>;
  readonly handle: (events: readonly RecordedEvent[]) => Promise<void>;
  readonly onError: (error: unknown) => void;
  readonly batchSize?: number;
  /** See SubscribeToAllOptions.gatherMs. */
  readonly gatherMs?: number;
  readonly retryMs?: number;
}

/**
 * A subscriber that must never stay down (projector, ledger tree, publishers): when the store or its
 * handler fails, it waits and subscribes again from its durable checkpoint, so a passing database
 * hiccup costs a delay, never an event.
 */
export function restartingSubscription(options: RestartingSubscriptionOptions): { stop(): Promise<void> } {
  let current: Subscription | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const start = async (): Promise<void> => {
    if (stopped) return;
    try {
      const after = await options.checkpoint();
      if (stopped) return;
      current = options.store.subscribeToAll({
        after,
        handle: options.handle,
        batchSize: options.batchSize,
        gatherMs: options.gatherMs,
        onError: (error) => {
          options.onError(error);
          current = null;
          restartLater();
        },
      });
    } catch (error) {
      options.onError(error);
      restartLater();
    }
  };
  const restartLater = (): void => {
    if (stopped) return;
    timer = setTimeout(() => void start(), options.retryMs ?? 1000);
  };

  void start();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current?.stop();
      current = null;
    },
  };
}
