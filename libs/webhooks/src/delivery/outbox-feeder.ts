import { Logger } from '@nestjs/common';
import { webhookEventTypeOf } from '@ledger/contracts';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import type { BatchTransaction, ProjectionWatcher } from '@ledger/runtime';
import { ReadModelFeed } from './read-model-feed';
import type { WebhookEnqueuer } from './webhook-enqueuer';
import { IntegrationEnvelopes } from '@ledger/messaging';

/** Its checkpoint row in projector_checkpoints. */
export const WEBHOOK_OUTBOX = 'webhook-outbox';

/**
 * The embedded default's feed of the webhook outbox (no Kafka), a ReadModelFeed: each batch's
 * messages and the checkpoint after it commit together, so a crash never skips an event and two
 * feeders never write one batch twice (the unique key would absorb it anyway). Events go through
 * the integration envelope, exactly what the Kafka feed consumes.
 */
export class WebhookOutboxFeeder extends ReadModelFeed {
  readonly name = WEBHOOK_OUTBOX;
  /** Set by a batch that inserted messages, told to the dispatcher once it committed. */
  private enqueued = false;
  private readonly envelopes: IntegrationEnvelopes;

  constructor(
    store: EventStore,
    readModel: ReadModelClient,
    watcher: ProjectionWatcher,
    private readonly enqueuer: WebhookEnqueuer,
    /** Told when new messages were committed, so the dispatcher need not wait for its next poll. */
    private readonly onEnqueued: () => void = () => undefined,
  ) {
    super(store, readModel, watcher, new Logger(WebhookOutboxFeeder.name));
    this.envelopes = new IntegrationEnvelopes(store);
  }

  protected carried(events: readonly RecordedEvent[]): readonly RecordedEvent[] {
    return events.filter(isWebhookEvent);
  }

  async apply(events: readonly RecordedEvent[], { tx }: BatchTransaction<ReadModelTransaction>): Promise<void> {
    this.enqueued = false;
    const candidates = this.carried(events);
    if (candidates.length === 0) return;
    // Most programs have no subscription: ask first, and build envelopes only for those that do.
    const subscribed = await this.enqueuer.programsWithSubscriptions(tx, [...new Set(candidates.map((event) => event.metadata.programToken))]);
    const envelopes = await this.envelopes.envelopesOf(candidates.filter((event) => subscribed.has(event.metadata.programToken)));
    if (envelopes.length > 0 && (await this.enqueuer.enqueue(tx, envelopes)) > 0) this.enqueued = true;
  }

  committed(): void {
    if (this.enqueued) this.onEnqueued();
  }
}

function isWebhookEvent(event: RecordedEvent): boolean {
  return webhookEventTypeOf({ type: event.type, stream_id: event.streamId }) !== null;
}
