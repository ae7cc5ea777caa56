import { BeforeApplicationShutdown, Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { CardVault } from '@ledger/card-vault';
import { EgressHttpClient } from '@ledger/egress';
import type { EventStore } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, LEDGER_CONFIG, LedgerConfig, ProjectionWatcher, READ_MODEL } from '@ledger/runtime';
import { WebhookKafkaFeeder } from './delivery/kafka-feeder';
import { WebhookOutboxFeeder } from './delivery/outbox-feeder';
import { REDELIVERY_HANDLERS } from './delivery/redelivery.handlers';
import { ResendWebhookMessageHandler } from './delivery/resend.handler';
import { WebhookDispatcher } from './delivery/webhook-dispatcher';
import { WebhookEnqueuer } from './delivery/webhook-enqueuer';
import { EVENT_SUBSCRIPTION_HANDLERS } from './event-subscriptions/event-subscription.handlers';
import { EventFeedWriter } from './events/event-feed-writer';

/** Whichever feed runs: the Kafka consumer when KAFKA_BROKERS is set, the PostgreSQL outbox otherwise. */
export const WEBHOOK_FEEDER = Symbol('WEBHOOK_FEEDER');
export type WebhookFeeder = WebhookOutboxFeeder | WebhookKafkaFeeder;

/**
 * Webhooks: the event-subscription command handlers, the events feed (every program's events, for
 * GET /v1/events and the event stream), the feed of the webhook outbox (from Kafka when
 * configured, from the event store otherwise: same rows either way) and the dispatcher that delivers
 * them. Feed and dispatcher start on bootstrap and stop before the shared connections close.
 */
@Module({
  imports: [CqrsModule],
  providers: [
    ...EVENT_SUBSCRIPTION_HANDLERS,
    ResendWebhookMessageHandler,
    ...REDELIVERY_HANDLERS,
    {
      provide: WebhookDispatcher,
      inject: [Pool, CardVault, CommandBus, EgressHttpClient, LEDGER_CONFIG],
      useFactory: (pool: Pool, vault: CardVault, commands: CommandBus, http: EgressHttpClient, config: LedgerConfig) =>
        new WebhookDispatcher(pool, vault, commands, http, { retrySchedule: config.webhookRetrySchedule, pollMs: config.webhookPollMs, timeoutMs: config.webhookTimeoutMs }),
    },
    {
      provide: EventFeedWriter,
      inject: [EVENT_STORE, READ_MODEL, ProjectionWatcher],
      useFactory: (store: EventStore, readModel: ReadModelClient, watcher: ProjectionWatcher) => new EventFeedWriter(store, readModel, watcher),
    },
    {
      provide: WEBHOOK_FEEDER,
      inject: [LEDGER_CONFIG, EVENT_STORE, READ_MODEL, ProjectionWatcher, WebhookDispatcher],
      useFactory: (config: LedgerConfig, store: EventStore, readModel: ReadModelClient, watcher: ProjectionWatcher, dispatcher: WebhookDispatcher): WebhookFeeder => {
        const enqueuer = new WebhookEnqueuer(config.webhookRetrySchedule, store);
        const wake = () => dispatcher.wake();
        return config.kafkaBrokers && config.kafkaBrokers.length > 0
          ? new WebhookKafkaFeeder(config.kafkaBrokers, config.webhookKafkaGroupId, store, readModel, watcher, enqueuer, wake)
          : new WebhookOutboxFeeder(store, readModel, watcher, enqueuer, wake);
      },
    },
  ],
  exports: [WebhookDispatcher, WEBHOOK_FEEDER, EventFeedWriter],
})
export class WebhooksModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhooksModule.name);

  constructor(
    @Inject(WEBHOOK_FEEDER) private readonly feeder: WebhookFeeder,
    @Inject(WebhookDispatcher) private readonly dispatcher: WebhookDispatcher,
    @Inject(EventFeedWriter) private readonly eventFeed: EventFeedWriter,
  ) {}

  onApplicationBootstrap(): void {
    this.logger.log(`webhooks fed from ${this.feeder instanceof WebhookKafkaFeeder ? 'Kafka' : 'the PostgreSQL outbox'}`);
    this.eventFeed.start();
    this.feeder.start();
    this.dispatcher.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.eventFeed.stop();
    await this.feeder.stop();
    await this.dispatcher.stop();
  }
}
