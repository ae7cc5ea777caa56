import { Logger } from '@nestjs/common';
import { webhookEventTypeOf } from '@ledger/contracts';
import { comparePositions, EventStore, formatPosition, RecordedEvent, restartingSubscription } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import type { ProjectionWatcher } from '@ledger/runtime';
import { CheckpointRow } from './checkpoint-row';
import { FeederStopping, waitForReadModels } from './read-model-wait';
import type { WebhookEnqueuer } from './webhook-enqueuer';
import { IntegrationEnvelopes } from '@ledger/messaging';

/** Its checkpoint row in projector_checkpoints. */
export const WEBHOOK_OUTBOX = 'webhook-outbox';

/**
 * The embedded default's feed of the webhook outbox (no Kafka): a subscription over the event store
 * from its own checkpoint. Each batch's messages and the checkpoint after it are written in one
 * transaction, with the checkpoint row locked, so a crash never skips an event and two feeders never
 * write one batch twice (the unique key would absorb it anyway). Events go through the integration
 * envelope, exactly what the Kafka feed consumes.
 */
export class WebhookOutboxFeeder {
  private readonly checkpointRow = new CheckpointRow(WEBHOOK_OUTBOX);
  private readonly logger = new Logger(WebhookOutboxFeeder.name);
  private subscription: { stop(): Promise<void> } | null = null;
  private stopping = false;
  private readonly envelopes: IntegrationEnvelopes;

  constructor(
    private readonly store: EventStore,
    private readonly readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
    private readonly enqueuer: WebhookEnqueuer,
    /** Told when new messages were committed, so the dispatcher need not wait for its next poll. */
    private readonly onEnqueued: () => void = () => undefined,
  ) {
    this.envelopes = new IntegrationEnvelopes(store);
  }

  start(): void {
    this.stopping = false;
    this.subscription = restartingSubscription({
      store: this.store,
      checkpoint: async () => {
        const after = await this.checkpointRow.read(this.readModel);
        this.logger.log(`feeding webhooks from ${after ? formatPosition(after) : 'the start of the log'}`);
        return after;
      },
      handle: (events) => this.feed(events),
      // As large as the projector's: catching up on a long log costs a quarter of the transactions.
      batchSize: 2000,
      // A webhook may arrive 20 ms later; in exchange a busy log costs one outbox transaction per
      // gathering rather than one per commit.
      gatherMs: 20,
      onError: (error) => {
        if (!(error instanceof FeederStopping)) this.logger.error(`webhook outbox feed interrupted, resuming from the checkpoint: ${String(error)}`);
      },
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.stop();
    this.subscription = null;
  }

  /** Feeds one batch; public so tests can drive it directly. */
  async feed(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const relevant = events.filter((event) => webhookEventTypeOf({ type: event.type, stream_id: event.streamId }) !== null);
    if (relevant.length > 0) await waitForReadModels(this.watcher, relevant[relevant.length - 1].position, () => this.stopping);
    const wanted = new Set(relevant);
    const inserted = await this.readModel.$transaction(
      async (tx) => {
        const done = await this.checkpointRow.read(tx, true);
        const fresh = done ? events.filter((event) => comparePositions(event.position, done) > 0) : events;
        if (fresh.length === 0) return 0;
        const candidates = fresh.filter((event) => wanted.has(event));
        // Most programs have no subscription: ask first, and build envelopes only for those that do.
        const subscribed = candidates.length === 0 ? new Set<string>() : await this.enqueuer.programsWithSubscriptions(tx, [...new Set(candidates.map((event) => event.metadata.programToken))]);
        const envelopes = await this.envelopes.envelopesOf(candidates.filter((event) => subscribed.has(event.metadata.programToken)));
        const count = envelopes.length === 0 ? 0 : await this.enqueuer.enqueue(tx, envelopes);
        await this.checkpointRow.save(tx, fresh[fresh.length - 1].position);
        return count;
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
    if (inserted > 0) this.onEnqueued();
  }
}
