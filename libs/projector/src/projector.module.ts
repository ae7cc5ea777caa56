import { Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import type { EventStore } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, LEDGER_CONFIG, type LedgerConfig, LedgerTreeTables, READ_MODEL, WebhookOutboxSignal } from '@ledger/runtime';
import { LedgerTreeFollower } from './ledger-tree-follower';
import { ReadModelProjector } from './read-model-projector';

/**
 * Keeps the read models current from the event store, starting at its stored checkpoint, with what
 * each batch derives for webhooks (the events feed, and the webhook outbox when no Kafka feeds it); and,
 * unless LEDGER_COMMITMENT=off, the ledger-wide commitment's tree (LedgerTreeFollower).
 */
@Module({
  providers: [
    {
      provide: ReadModelProjector,
      inject: [EVENT_STORE, READ_MODEL, Pool, LEDGER_CONFIG, WebhookOutboxSignal],
      // Batches run on the read model's pool through node-postgres (see ReadModelProjectorOptions.pool).
      // Without Kafka the projector also fills the webhook outbox; with it, the webhooks app's Kafka feed does.
      useFactory: (store: EventStore, readModel: ReadModelClient, pool: Pool, config: LedgerConfig, signal: WebhookOutboxSignal) =>
        new ReadModelProjector(store, readModel, {
          pool,
          webhookOutbox: config.kafkaBrokers && config.kafkaBrokers.length > 0 ? undefined : { retrySchedule: config.webhookRetrySchedule, onEnqueued: () => signal.enqueued() },
        }),
    },
    {
      provide: LedgerTreeFollower,
      inject: [EVENT_STORE, Pool, LedgerTreeTables],
      useFactory: (store: EventStore, pool: Pool, tables: LedgerTreeTables) => new LedgerTreeFollower(store, pool, tables),
    },
  ],
  exports: [ReadModelProjector, LedgerTreeFollower],
})
export class ProjectorModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(ReadModelProjector) private readonly projector: ReadModelProjector,
    @Inject(LedgerTreeFollower) private readonly tree: LedgerTreeFollower,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.projector.start();
    if (this.config.ledgerCommitment) this.tree.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tree.stop();
    await this.projector.stop();
  }
}
