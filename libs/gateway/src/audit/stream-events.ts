import { Inject, Injectable } from '@nestjs/common';
import { redacted } from '@ledger/ledger-proof';
import { replaceSecretFields } from '@ledger/contracts';
import { cardStreamId, CardNotFound, transactionStreamId, TransactionNotFound } from '@ledger/domain';
import { EventStore, formatPosition, RecordedEvent } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';
import type { AuditedEvent } from './audit-responses';

/**
 * A secret field's stored value stands in as `RedactedValue` (@ledger/ledger-proof): `sha256` is the
 * hex SHA-256 of the stored value's canonical JSON (for a string: the string in double quotes, as the
 * hash chain serializes it), so an auditor can match it against the operator's export (`admin
 * export`, which keeps the stored values) and then recompute the event's hash; the ledger-wide
 * commitment's leaves hold the same value, so a proof needs no secret. See docs/decisions.md,
 * "Secrets at the edges".
 */
export { redacted, type RedactedValue } from '@ledger/ledger-proof';

export function audited(event: RecordedEvent): AuditedEvent {
  return {
    stream_id: event.streamId,
    stream_version: event.streamVersion,
    position: formatPosition(event.position),
    event_id: event.metadata.eventId,
    type: event.type,
    schema_version: event.schemaVersion,
    // A field that holds no value (a card without a PIN) hides nothing and stays as it is.
    data: replaceSecretFields(event.data, (stored) => (stored === null || stored === undefined ? stored : redacted(stored))),
    metadata: { ...event.metadata },
    recorded_at: event.recordedAt,
  };
}

/**
 * The events of one card or transaction stream, for the program that owns it: the stored events with
 * their secret fields redacted (`audited`).
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
