import { webhookEventTypeOf } from '@ledger/contracts';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import type { ProjectionWatcher } from '@ledger/runtime';
import { CheckpointedFeed } from './checkpointed-feed';
import type { WebhookEnqueuer } from './webhook-enqueuer';
import { IntegrationEnvelopes } from '@ledger/messaging';

/** Its checkpoint row in projector_checkpoints. */
export const WEBHOOK_OUTBOX = 'webhook-outbox';

/**
 * The embedded default's feed of the webhook outbox (no Kafka): a checkpointed feed over the event
 * store, each batch's messages written with its checkpoint (the unique key would absorb a batch
 * written twice anyway). Events go through the integration envelope, exactly what the Kafka feed
 * consumes.
 */
export class WebhookOutboxFeeder extends CheckpointedFeed {
  private readonly envelopes: IntegrationEnvelopes;

  constructor(
    store: EventStore,
    readModel: ReadModelClient,
    watcher: ProjectionWatcher,
    private readonly enqueuer: WebhookEnqueuer,
    /** Told when new messages were committed, so the dispatcher need not wait for its next poll. */
    private readonly onEnqueued: () => void = () => undefined,
  ) {
    super({ checkpoint: WEBHOOK_OUTBOX, logger: WebhookOutboxFeeder.name, fills: 'webhooks', feed: 'webhook outbox feed' }, store, readModel, watcher);
    this.envelopes = new IntegrationEnvelopes(store);
  }

  async feed(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const wanted = new Set(events.filter((event) => webhookEventTypeOf({ type: event.type, stream_id: event.streamId }) !== null));
    const inserted = await this.write(events, [...wanted].at(-1)?.position, async (tx, fresh) => {
      const candidates = fresh.filter((event) => wanted.has(event));
      // Most programs have no subscription: ask first, and build envelopes only for those that do.
      const subscribed = candidates.length === 0 ? new Set<string>() : await this.enqueuer.programsWithSubscriptions(tx, [...new Set(candidates.map((event) => event.metadata.programToken))]);
      const envelopes = await this.envelopes.envelopesOf(candidates.filter((event) => subscribed.has(event.metadata.programToken)));
      return envelopes.length === 0 ? 0 : this.enqueuer.enqueue(tx, envelopes);
    });
    if (inserted) this.onEnqueued();
  }
}
