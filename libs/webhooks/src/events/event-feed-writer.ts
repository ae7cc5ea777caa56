import { Logger } from '@nestjs/common';
import { subjectTokenOf, webhookEventTypeOf } from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { type BatchTransaction, EVENT_FEED_CHANNEL, type LogProcessor, type ProjectionWatcher, prismaTransactions, SubscriptionProcessor } from '@ledger/runtime';
import { FeederStopping, waitForReadModels } from '../delivery/read-model-wait';
import { WebhookPayloads } from '../delivery/webhook-payloads';
import { EventBodies } from './event-bodies';

/** Its checkpoint row in projector_checkpoints. */
export const EVENT_FEED = 'event-feed';


/** A ledger event the feed carries, with what its row needs. */
interface FeedCandidate {
  readonly recorded: RecordedEvent;
  readonly eventType: WebhookEventType;
  readonly subject: string;
}

/**
 * Fills the events feed (`feed_events`) from the event store: every event a webhook carries, for
 * every program, whether or not it has a subscription. A SubscriptionProcessor: each batch's rows and
 * the checkpoint after it commit in one transaction, one writer at a time, so rows are added in
 * event-store order: a reader that has seen position P never later finds a row before P. Bodies are
 * built from the read models once they include the batch, as webhook bodies are.
 */
export class EventFeedWriter implements LogProcessor<ReadModelTransaction> {
  readonly name = EVENT_FEED;
  readonly batchSize = 2000;
  /** A feed reader sees an event 100 ms later; a busy log costs one transaction per gathering. */
  readonly gatherMs = 100;
  private readonly processor: SubscriptionProcessor<ReadModelTransaction>;
  private stopping = false;

  constructor(
    private readonly store: EventStore,
    readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
  ) {
    this.processor = new SubscriptionProcessor(store, prismaTransactions(readModel), this, {
      logger: new Logger(EventFeedWriter.name),
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

  async prepare(events: readonly RecordedEvent[]): Promise<void> {
    const candidates = feedCandidates(events);
    if (candidates.length > 0) await waitForReadModels(this.watcher, candidates[candidates.length - 1].recorded.position, () => this.stopping);
  }

  async apply(events: readonly RecordedEvent[], { tx }: BatchTransaction<ReadModelTransaction>): Promise<void> {
    const rows = await this.rows(tx, feedCandidates(events));
    if (rows.length === 0) return;
    const { count } = await tx.feedEvent.createMany({ data: rows, skipDuplicates: true });
    // Delivered at commit, and only then: a stream woken by it finds the rows.
    if (count > 0) await tx.$executeRawUnsafe(`select pg_notify('${EVENT_FEED_CHANNEL}', '')`);
  }

  private async rows(tx: ReadModelTransaction, candidates: readonly FeedCandidate[]) {
    const bodies = new EventBodies(new WebhookPayloads(tx), this.store);
    await bodies.prefetch(candidates);
    const rows = [];
    for (const { recorded, eventType, subject } of candidates) {
      const body = await bodies.body(eventType, subject, recorded);
      if (body === null) throw new Error(`No read-model row for the ${eventType} event ${recorded.metadata.eventId} (subject ${subject})`);
      rows.push({
        token: recorded.metadata.eventId,
        programToken: recorded.metadata.programToken,
        eventType,
        created: new Date(recorded.metadata.occurredAt),
        commitPosition: recorded.position.commit,
        preparePosition: recorded.position.prepare,
        payload: JSON.stringify(body),
      });
    }
    return rows;
  }
}

function feedCandidates(events: readonly RecordedEvent[]): FeedCandidate[] {
  return events.flatMap((recorded) => {
    const message = { type: recorded.type, stream_id: recorded.streamId };
    const eventType = webhookEventTypeOf(message);
    return eventType ? [{ recorded, eventType, subject: subjectTokenOf(message) }] : [];
  });
}
