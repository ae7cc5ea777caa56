import { Logger } from '@nestjs/common';
import { subjectTokenOf, webhookEventTypeOf } from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { type BatchTransaction, EVENT_FEED_CHANNEL, jsonParameterChunks, type ProjectionWatcher } from '@ledger/runtime';
import { ReadModelFeed } from '../delivery/read-model-feed';
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
 * every program, whether or not it has a subscription. A ReadModelFeed: each batch's rows and the
 * checkpoint after it commit together, one writer at a time, so rows are added in event-store order:
 * a reader that has seen position P never later finds a row before P.
 */
export class EventFeedWriter extends ReadModelFeed {
  readonly name = EVENT_FEED;

  constructor(
    private readonly store: EventStore,
    readModel: ReadModelClient,
    watcher: ProjectionWatcher,
  ) {
    super(store, readModel, watcher, new Logger(EventFeedWriter.name));
  }

  protected carried(events: readonly RecordedEvent[]): readonly RecordedEvent[] {
    return feedCandidates(events).map((candidate) => candidate.recorded);
  }

  async apply(events: readonly RecordedEvent[], { tx }: BatchTransaction<ReadModelTransaction>): Promise<void> {
    const rows = await this.rows(tx, feedCandidates(events));
    if (rows.length === 0) return;
    // The rows as JSON parameters, a statement per chunk below V8's large-object size (Prisma's
    // createMany of a few hundred rows, each with its body, cost more than building the bodies:
    // docs/benchmarks.md, session 7).
    let count = 0;
    for (const chunk of jsonParameterChunks(rows)) {
      count += await tx.$executeRawUnsafe(
        `insert into feed_events (token, program_token, event_type, created, commit_position, prepare_position, payload)
         select r.token, r.program_token, r.event_type, r.created, r.commit_position, r.prepare_position, r.payload
           from jsonb_to_recordset($1::jsonb)
             as r(token uuid, program_token uuid, event_type text, created timestamptz, commit_position bigint, prepare_position bigint, payload text)
         on conflict (token) do nothing`,
        chunk,
      );
    }
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
        program_token: recorded.metadata.programToken,
        event_type: eventType,
        created: recorded.metadata.occurredAt,
        commit_position: recorded.position.commit.toString(),
        prepare_position: recorded.position.prepare.toString(),
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
