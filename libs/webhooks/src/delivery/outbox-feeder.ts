import { Logger } from '@nestjs/common';
import { webhookEventTypeOf } from '@ledger/contracts';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { type BatchTransaction, type LogProcessor, type ProjectionWatcher, prismaTransactions, SubscriptionProcessor } from '@ledger/runtime';
import { FeederStopping, waitForReadModels } from './read-model-wait';
import type { WebhookEnqueuer } from './webhook-enqueuer';
import { IntegrationEnvelopes } from '@ledger/messaging';

/** Its checkpoint row in projector_checkpoints. */
export const WEBHOOK_OUTBOX = 'webhook-outbox';

/**
 * The embedded default's feed of the webhook outbox (no Kafka): a SubscriptionProcessor over the
 * event store. Each batch's messages and the checkpoint after it are written in one transaction, so
 * a crash never skips an event and two feeders never write one batch twice (the unique key would
 * absorb it anyway). Events go through the integration envelope, exactly what the Kafka feed consumes.
 */
export class WebhookOutboxFeeder implements LogProcessor<ReadModelTransaction> {
  readonly name = WEBHOOK_OUTBOX;
  // As large as the projector's: catching up on a long log costs a quarter of the transactions.
  readonly batchSize = 2000;
  // A webhook may leave 100 ms later; in exchange a busy log costs one outbox transaction per
  // gathering rather than one per commit.
  readonly gatherMs = 100;
  private readonly processor: SubscriptionProcessor<ReadModelTransaction>;
  private stopping = false;
  /** Set by a batch that inserted messages, told to the dispatcher once it committed. */
  private enqueued = false;
  private readonly envelopes: IntegrationEnvelopes;

  constructor(
    store: EventStore,
    readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
    private readonly enqueuer: WebhookEnqueuer,
    /** Told when new messages were committed, so the dispatcher need not wait for its next poll. */
    private readonly onEnqueued: () => void = () => undefined,
  ) {
    this.envelopes = new IntegrationEnvelopes(store);
    this.processor = new SubscriptionProcessor(store, prismaTransactions(readModel), this, {
      logger: new Logger(WebhookOutboxFeeder.name),
      quiet: (error) => error instanceof FeederStopping,
    });
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

  /** Bodies are built from the read models: they must include the batch first. */
  async prepare(events: readonly RecordedEvent[]): Promise<void> {
    this.enqueued = false;
    const relevant = events.filter(isWebhookEvent);
    if (relevant.length > 0) await waitForReadModels(this.watcher, relevant[relevant.length - 1].position, () => this.stopping);
  }

  async apply(events: readonly RecordedEvent[], { tx }: BatchTransaction<ReadModelTransaction>): Promise<void> {
    const candidates = events.filter(isWebhookEvent);
    if (candidates.length === 0) return;
    // Most programs have no subscription: ask first, and build envelopes only for those that do.
    const subscribed = await this.enqueuer.programsWithSubscriptions(tx, [...new Set(candidates.map((event) => event.metadata.programToken))]);
    const envelopes = await this.envelopes.envelopesOf(candidates.filter((event) => subscribed.has(event.metadata.programToken)));
    if (envelopes.length > 0 && (await this.enqueuer.enqueue(tx, envelopes)) > 0) this.enqueued = true;
  }

  committed(): void {
    if (!this.enqueued) return;
    this.enqueued = false;
    this.onEnqueued();
  }
}

function isWebhookEvent(event: RecordedEvent): boolean {
  return webhookEventTypeOf({ type: event.type, stream_id: event.streamId }) !== null;
}
