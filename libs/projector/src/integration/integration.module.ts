import { Inject, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '@ledger/event-store';
import { createKafka } from '@ledger/messaging';
import type { ReadModelClient } from '@ledger/read-model';
import { DigestKeys, EVENT_STORE, LEDGER_CONFIG, LedgerTreeTables, READ_MODEL, type LedgerConfig } from '@ledger/runtime';
import { DigestPublisher } from './digest-publisher';
import { IntegrationPublisher } from './integration-publisher';

export const KAFKA_CLIENT_ID = 'card-ledger-projector';

/**
 * kafkajs's own retries of connects and metadata requests, kept short: the publisher retries a
 * failed session itself, with backoff, and a kafkajs retry loop cannot be cancelled (a shutdown
 * while the broker is down would otherwise leave its timers running for about 10 s).
 */
export const PUBLISHER_CLIENT_RETRY = { retries: 2, initialRetryTime: 300, maxRetryTime: 2000 } as const;

/**
 * Publishes integration messages, and signed audit digests every LEDGER_DIGEST_INTERVAL_MS, to Kafka when KAFKA_BROKERS is set; without it, does nothing (the
 * embedded default feeds webhooks from a PostgreSQL outbox instead). The publisher starts in the
 * background on bootstrap, so a broker that is down delays messages, never the application.
 */
@Module({})
export class IntegrationModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IntegrationModule.name);
  /** Null when Kafka is not configured. */
  readonly publisher: IntegrationPublisher | null;
  /** Null when Kafka is not configured, LEDGER_DIGEST_INTERVAL_MS is 0 or LEDGER_COMMITMENT is off. */
  readonly digests: DigestPublisher | null = null;

  constructor(
    @Inject(LEDGER_CONFIG) config: LedgerConfig,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(READ_MODEL) readModel: ReadModelClient,
    keys: DigestKeys,
    tables: LedgerTreeTables,
  ) {
    const brokers = config.kafkaBrokers;
    if (!brokers || brokers.length === 0) {
      this.publisher = null;
      return;
    }
    const kafkaLogger = new Logger('Kafka');
    const kafka = createKafka({
      clientId: KAFKA_CLIENT_ID,
      brokers,
      retry: { ...PUBLISHER_CLIENT_RETRY },
      log: ({ level, namespace, message, extra }) => {
        const error = typeof extra.error === 'string' ? `: ${extra.error}` : '';
        kafkaLogger[level](`${namespace}: ${message}${error}`);
      },
    });
    this.publisher = new IntegrationPublisher(store, readModel, kafka);
    if (config.ledgerCommitment && config.ledgerDigestIntervalMs > 0) this.digests = new DigestPublisher(tables, keys, kafka, { intervalMs: config.ledgerDigestIntervalMs });
  }

  onApplicationBootstrap(): void {
    if (this.publisher === null) {
      this.logger.log('Kafka not configured: integration messages are not published');
      return;
    }
    this.publisher.start();
    this.digests?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.digests?.stop();
    await this.publisher?.stop();
  }
}
