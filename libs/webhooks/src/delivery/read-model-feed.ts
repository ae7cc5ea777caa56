import type { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { type BatchTransaction, CATCH_UP_BATCH_SIZE, type LogProcessor, type ProjectionWatcher, prismaTransactions, SubscriptionProcessor } from '@ledger/runtime';
import { FeederStopping, waitForReadModels } from './read-model-wait';

/**
 * A follower of the log that writes what it builds from the read models (webhook bodies): the
 * webhook outbox and the events feed. A SubscriptionProcessor over the event store: each batch waits
 * until the read models include the events it carries, then its rows and the checkpoint after it
 * commit in one transaction, one writer at a time, so rows are added in event-store order and a crash
 * never skips or doubles an event.
 */
export abstract class ReadModelFeed implements LogProcessor<ReadModelTransaction> {
  abstract readonly name: string;
  // As large as the projector's (CATCH_UP_BATCH_SIZE says why).
  readonly batchSize = CATCH_UP_BATCH_SIZE;
  // A webhook leaves, and a feed reader sees an event, 100 ms later; in exchange a busy log costs
  // one transaction per gathering rather than one per commit.
  readonly gatherMs = 100;
  private readonly processor: SubscriptionProcessor<ReadModelTransaction>;
  private stopping = false;

  constructor(
    store: EventStore,
    readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
    logger: Logger,
  ) {
    this.processor = new SubscriptionProcessor(store, prismaTransactions(readModel), this, { logger, quiet: (error) => error instanceof FeederStopping });
  }

  start(): void {
    this.stopping = false;
    this.processor.start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.processor.stop();
  }

  /** Feeds one batch; public so tests can drive it directly. */
  async feed(events: readonly RecordedEvent[]): Promise<void> {
    await this.processor.process(events);
  }

  /** Bodies are built from the read models: they must include the batch's carried events first. */
  async prepare(events: readonly RecordedEvent[]): Promise<void> {
    const carried = this.carried(events);
    if (carried.length > 0) await waitForReadModels(this.watcher, carried[carried.length - 1].position, () => this.stopping);
  }

  /** The events of a batch it builds rows from. */
  protected abstract carried(events: readonly RecordedEvent[]): readonly RecordedEvent[];

  abstract apply(events: readonly RecordedEvent[], batch: BatchTransaction<ReadModelTransaction>): Promise<void>;
}
