import { Logger } from '@nestjs/common';
import { subjectTokenOf, webhookEventTypeOf } from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import { comparePositions, EventStore, formatPosition, RecordedEvent, restartingSubscription } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { EVENT_FEED_CHANNEL, type ProjectionWatcher } from '@ledger/runtime';
import { CheckpointRow } from '../delivery/checkpoint-row';
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
 * every program, whether or not it has a subscription. Each batch's rows and the checkpoint after it
 * commit in one transaction with the checkpoint row locked, so rows are added in event-store order
 * by one writer at a time: a reader that has seen position P never later finds a row before P.
 * Bodies are built from the read models once they include the batch, as webhook bodies are.
 */
export class EventFeedWriter {
  private readonly checkpointRow = new CheckpointRow(EVENT_FEED);
  private readonly logger = new Logger(EventFeedWriter.name);
  private subscription: { stop(): Promise<void> } | null = null;
  private stopping = false;

  constructor(
    private readonly store: EventStore,
    private readonly readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
  ) {}

  start(): void {
    this.stopping = false;
    this.subscription = restartingSubscription({
      store: this.store,
      checkpoint: async () => {
        const after = await this.checkpointRow.read(this.readModel);
        this.logger.log(`feeding the events feed from ${after ? formatPosition(after) : 'the start of the log'}`);
        return after;
      },
      handle: (events) => this.feed(events),
      batchSize: 2000,
      gatherMs: 20,
      onError: (error) => {
        if (!(error instanceof FeederStopping)) this.logger.error(`events feed interrupted, resuming from the checkpoint: ${String(error)}`);
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
    const candidates = feedCandidates(events);
    if (candidates.length > 0) await waitForReadModels(this.watcher, candidates[candidates.length - 1].recorded.position, () => this.stopping);
    await this.readModel.$transaction(
      async (tx) => {
        const done = await this.checkpointRow.read(tx, true);
        const fresh = done ? events.filter((event) => comparePositions(event.position, done) > 0) : events;
        if (fresh.length === 0) return;
        const freshSet = new Set(fresh);
        const rows = await this.rows(tx, candidates.filter((candidate) => freshSet.has(candidate.recorded)));
        if (rows.length > 0) {
          const { count } = await tx.feedEvent.createMany({ data: rows, skipDuplicates: true });
          // Delivered at commit, and only then: a stream woken by it finds the rows.
          if (count > 0) await tx.$executeRawUnsafe(`select pg_notify('${EVENT_FEED_CHANNEL}', '')`);
        }
        await this.checkpointRow.save(tx, fresh[fresh.length - 1].position);
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
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
