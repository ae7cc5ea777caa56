import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { CardVault, parseCardDataKey } from '@ledger/card-vault';
import { EgressGuard, EgressHttpClient, EgressPolicy, HostResolver, systemHostResolver } from '@ledger/egress';
import { connectEventStoreDb, EventStore, FaultPoints, NO_FAULTS, PipelineEnvironment, PostgresEventStore } from '@ledger/event-store';
import { createReadModelClient, ReadModelClient } from '@ledger/read-model';
import { LedgerConfig } from './config';
import { DigestKeys } from './digest-keys';
import { LedgerTreeTables } from './ledger-tree-tables';
import { ledgerPipelineEnvironment } from './ledger-pipeline-environment';
import { ProjectionWatcher } from './projection-watcher';
import { databasePool } from './database-pool';
import { EVENT_STORE, FAULT_POINTS, LEDGER_CONFIG, PIPELINE_ENVIRONMENT, READ_MODEL } from './tokens';
import { WebhookOutboxSignal } from './webhook-outbox-signal';

/** What start-up has settled before the modules are built: the database to use and the secrets. */
export interface ResolvedRuntime {
  readonly config: LedgerConfig;
  readonly databaseUrl: string;
  readonly cardDataKey: string;
  /** How outbound calls resolve names; unset: the system resolver. Tests answer as a rebinding DNS server would. */
  readonly hostResolver?: HostResolver;
  /** Test-only failures on the authorization path; only tests pass any (start-ledger's options). */
  readonly faultPoints?: FaultPoints;
}

/**
 * The edges every app shares: the PostgreSQL pool, the configured event store, the Prisma read-model
 * client, the card vault, the read-your-writes watcher, and the egress guard with the one HTTP client
 * every outbound call uses. Each app module imports what it needs.
 */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(
    private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
    private readonly egress: EgressHttpClient,
  ) {}

  static forRoot(runtime: ResolvedRuntime): DynamicModule {
    const { config } = runtime;
    return {
      module: InfrastructureModule,
      providers: [
        { provide: LEDGER_CONFIG, useValue: config },
        {
          provide: Pool,
          useFactory: () => {
            const pool = databasePool(runtime.databaseUrl, 20);
            // An idle connection cut by the server (restart, shutdown) must not crash the process;
            // the pool replaces it on the next query.
            pool.on('error', (error) => new Logger('Database').warn(`idle connection lost: ${error.message}`));
            return pool;
          },
        },
        {
          provide: EVENT_STORE,
          inject: [Pool],
          useFactory: (pool: Pool): EventStore | Promise<EventStore> =>
            config.eventStore === 'eventstoredb' && config.eventStoreDbUrl ? connectEventStoreDb(config.eventStoreDbUrl) : new PostgresEventStore(pool),
        },
        { provide: READ_MODEL, inject: [Pool], useFactory: (pool: Pool) => createReadModelClient(pool) },
        {
          provide: CardVault,
          useFactory: () => new CardVault(parseCardDataKey(runtime.cardDataKey), config.cardBin, config.cardEncryptionKeys.map(parseCardDataKey)),
        },
        { provide: DigestKeys, useFactory: () => DigestKeys.fromConfig(config) },
        { provide: LedgerTreeTables, inject: [Pool], useFactory: (pool: Pool) => new LedgerTreeTables(pool) },
        {
          provide: ProjectionWatcher,
          inject: [Pool],
          useFactory: async (pool: Pool) => {
            const watcher = new ProjectionWatcher(pool);
            await watcher.start();
            return watcher;
          },
        },
        // One egress policy for every outbound call: the set-time check of endpoint URLs and the one HTTP client.
        { provide: EgressGuard, useFactory: () => new EgressGuard(EgressPolicy.of(config.egressAllowlist), runtime.hostResolver ?? systemHostResolver) },
        { provide: EgressHttpClient, inject: [EgressGuard], useFactory: (guard: EgressGuard) => new EgressHttpClient(guard) },
        {
          provide: PIPELINE_ENVIRONMENT,
          inject: [EVENT_STORE],
          useFactory: (store: EventStore): PipelineEnvironment =>
            ledgerPipelineEnvironment({ store, now: () => new Date(), newId: randomUUID, faults: runtime.faultPoints }),
        },
        { provide: FAULT_POINTS, useValue: runtime.faultPoints ?? NO_FAULTS },
        { provide: WebhookOutboxSignal, useFactory: () => new WebhookOutboxSignal() },
      ],
      exports: [WebhookOutboxSignal, LEDGER_CONFIG, FAULT_POINTS, Pool, EVENT_STORE, READ_MODEL, CardVault, DigestKeys, LedgerTreeTables, ProjectionWatcher, PIPELINE_ENVIRONMENT, EgressGuard, EgressHttpClient],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.egress.close();
    await this.watcher.stop();
    await this.store.close();
    await this.readModel.$disconnect();
    await this.pool.end();
  }
}
