import { BeforeApplicationShutdown, Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { CardVault } from '@ledger/card-vault';
import { EgressHttpClient } from '@ledger/egress';
import type { EventStore } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, LEDGER_CONFIG, LedgerConfig, ProjectionWatcher, READ_MODEL, WebhookOutboxSignal } from '@ledger/runtime';
import { WebhookKafkaFeeder } from './delivery/kafka-feeder';
import { REDELIVERY_HANDLERS } from './delivery/redelivery.handlers';
import { ResendWebhookMessageHandler } from './delivery/resend.handler';
import { WebhookDispatcher } from './delivery/webhook-dispatcher';
import { WebhookEnqueuer } from './delivery/webhook-enqueuer';
import { EVENT_SUBSCRIPTION_HANDLERS } from './event-subscriptions/event-subscription.handlers';

/** The Kafka feed of the webhook outbox, when KAFKA_BROKERS is set; without Kafka the projector fills the outbox in its batches. */
export const WEBHOOK_FEEDER = Symbol('WEBHOOK_FEEDER');

/**
 * Webhooks: the event-subscription command handlers, the Kafka feed of the webhook outbox (when
 * configured) and the dispatcher that delivers the outbox's messages. Feed and dispatcher start on
 * bootstrap and stop before the shared connections close.
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
      provide: WEBHOOK_FEEDER,
      inject: [LEDGER_CONFIG, EVENT_STORE, READ_MODEL, ProjectionWatcher, WebhookDispatcher],
      useFactory: (config: LedgerConfig, store: EventStore, readModel: ReadModelClient, watcher: ProjectionWatcher, dispatcher: WebhookDispatcher): WebhookKafkaFeeder | null =>
        config.kafkaBrokers && config.kafkaBrokers.length > 0
          ? new WebhookKafkaFeeder(config.kafkaBrokers, config.webhookKafkaGroupId, store, readModel, watcher, new WebhookEnqueuer(config.webhookRetrySchedule, store), () =>
              dispatcher.wake(),
            )
          : null,
    },
  ],
  exports: [WebhookDispatcher, WEBHOOK_FEEDER],
})
export class WebhooksModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhooksModule.name);
  private unsubscribe: (() => void) | null = null;

  constructor(
    @Inject(WEBHOOK_FEEDER) private readonly feeder: WebhookKafkaFeeder | null,
    @Inject(WebhookDispatcher) private readonly dispatcher: WebhookDispatcher,
    @Inject(WebhookOutboxSignal) private readonly outboxSignal: WebhookOutboxSignal,
  ) {}

  onApplicationBootstrap(): void {
    this.logger.log(`webhooks fed from ${this.feeder ? 'Kafka' : 'the PostgreSQL outbox the projector fills'}`);
    this.unsubscribe = this.outboxSignal.subscribe(() => this.dispatcher.wake());
    this.feeder?.start();
    this.dispatcher.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    await this.feeder?.stop();
    await this.dispatcher.stop();
  }
}
