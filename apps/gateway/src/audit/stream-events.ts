import { Inject, Injectable } from '@nestjs/common';
import { cardStreamId, CardNotFound, transactionStreamId, TransactionNotFound } from '@ledger/domain';
import { EventStore, formatPosition, RecordedEvent } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';

/** One recorded event as auditors see it: exactly what the store holds, hashes included. */
export interface AuditedEvent {
  stream_id: string;
  stream_version: number;
  position: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: string;
}

export function audited(event: RecordedEvent): AuditedEvent {
  return {
    stream_id: event.streamId,
    stream_version: event.streamVersion,
    position: formatPosition(event.position),
    event_id: event.metadata.eventId,
    type: event.type,
    schema_version: event.schemaVersion,
    data: event.data,
    metadata: { ...event.metadata },
    recorded_at: event.recordedAt,
  };
}

/**
 * The raw events of one card or transaction stream, for the program that owns it. The data is the
 * stored data (the PAN only ever appears encrypted there), so an auditor can recompute every hash.
 */
@Injectable()
export class StreamEvents {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  card(programToken: string, cardToken: string): Promise<AuditedEvent[]> {
    return this.owned(programToken, cardStreamId(cardToken), () => new CardNotFound(cardToken));
  }

  transaction(programToken: string, transactionToken: string): Promise<AuditedEvent[]> {
    return this.owned(programToken, transactionStreamId(transactionToken), () => new TransactionNotFound(transactionToken));
  }

  private async owned(programToken: string, streamId: string, notFound: () => Error): Promise<AuditedEvent[]> {
    const events = await this.store.readStream(streamId);
    if (events.length === 0 || events[0].metadata.programToken !== programToken) throw notFound();
    return events.map(audited);
  }
}
