import { Logger } from '@nestjs/common';
import { comparePositions, EventStore, formatPosition, GlobalPosition, RecordedEvent, restartingSubscription } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import type { ProjectionWatcher } from '@ledger/runtime';
import { CheckpointRow } from './checkpoint-row';
import { FeederStopping, waitForReadModels } from './read-model-wait';

/** How a feed names itself in its logs. */
export interface FeedNames {
  /** Its row in projector_checkpoints. */
  readonly checkpoint: string;
  /** The logger's context. */
  readonly logger: string;
  /** What it fills, for "feeding … from": "webhooks", "the events feed". */
  readonly fills: string;
  /** What stops on an error, for "… interrupted": "webhook outbox feed". */
  readonly feed: string;
}

/**
 * A follower of the event store that writes its rows from the read models (the webhook outbox, the
 * events feed): a subscription from its own checkpoint, and each batch's rows written with the
 * checkpoint after it in one transaction, the checkpoint row locked, so a crash never skips an
 * event and two writers never write one batch twice. `feed` takes each batch and calls `write`.
 */
export abstract class CheckpointedFeed {
  private readonly checkpointRow: CheckpointRow;
  private readonly logger: Logger;
  private subscription: { stop(): Promise<void> } | null = null;
  private stopping = false;

  constructor(
    private readonly names: FeedNames,
    protected readonly store: EventStore,
    private readonly readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
  ) {
    this.checkpointRow = new CheckpointRow(names.checkpoint);
    this.logger = new Logger(names.logger);
  }

  /** Feeds one batch; public so tests can drive it directly. */
  abstract feed(events: readonly RecordedEvent[]): Promise<void>;

  /** Follows the log from the checkpoint, feeding each batch. */
  start(): void {
    this.stopping = false;
    this.subscription = restartingSubscription({
      store: this.store,
      checkpoint: async () => {
        const after = await this.checkpointRow.read(this.readModel);
        this.logger.log(`feeding ${this.names.fills} from ${after ? formatPosition(after) : 'the start of the log'}`);
        return after;
      },
      handle: (events) => this.feed(events),
      // As large as the projector's: catching up on a long log costs a quarter of the transactions.
      batchSize: 2000,
      // A row may come 20 ms later; in exchange a busy log costs one transaction per gathering
      // rather than one per commit.
      gatherMs: 20,
      onError: (error) => {
        if (!(error instanceof FeederStopping)) this.logger.error(`${this.names.feed} interrupted, resuming from the checkpoint: ${String(error)}`);
      },
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.stop();
    this.subscription = null;
  }

  /**
   * Writes one batch: once the read models include `readModelsAt` (the batch's last event that the
   * rows are built from, if any), `rows` writes for the events past the checkpoint, and the
   * checkpoint moves past the batch, all in one transaction. Answers what `rows` answered, or
   * undefined when the whole batch was written before.
   */
  protected async write<T>(events: readonly RecordedEvent[], readModelsAt: GlobalPosition | undefined, rows: (tx: ReadModelTransaction, fresh: readonly RecordedEvent[]) => Promise<T>): Promise<T | undefined> {
    if (readModelsAt) await waitForReadModels(this.watcher, readModelsAt, () => this.stopping);
    return this.readModel.$transaction(
      async (tx) => {
        const done = await this.checkpointRow.read(tx, true);
        const fresh = done ? events.filter((event) => comparePositions(event.position, done) > 0) : events;
        if (fresh.length === 0) return undefined;
        const written = await rows(tx, fresh);
        await this.checkpointRow.save(tx, fresh[fresh.length - 1].position);
        return written;
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
  }
}
