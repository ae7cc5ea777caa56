import { Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import type { EventStore } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, READ_MODEL } from '@ledger/runtime';
import { ReadModelProjector } from './read-model-projector';

/** Keeps the read models current from the event store, starting at its stored checkpoint. */
@Module({
  providers: [
    {
      provide: ReadModelProjector,
      inject: [EVENT_STORE, READ_MODEL, Pool],
      // Batches run on the read model's pool through node-postgres (see ReadModelProjectorOptions.pool).
      useFactory: (store: EventStore, readModel: ReadModelClient, pool: Pool) => new ReadModelProjector(store, readModel, { pool }),
    },
  ],
  exports: [ReadModelProjector],
})
export class ProjectorModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(ReadModelProjector) private readonly projector: ReadModelProjector) {}

  onApplicationBootstrap(): void {
    this.projector.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projector.stop();
  }
}
