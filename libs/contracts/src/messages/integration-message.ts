import { isTransactionStream } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { formatPosition } from '@ledger/event-store';
import { withoutSecretFields } from '../events/secret-fields';

/**
 * Integration messages: what leaves the service on Kafka (and feeds webhooks). One JSON envelope,
 * versioned on its own, carrying the event's stable id for de-duplication and its data with every
 * secret field removed (SECRET_EVENT_FIELDS): no PAN (clear, encrypted or hashed), no CVV, no PIN
 * hash, no key hash, no sealed signing secret ever leaves.
 */
export const ENVELOPE_VERSION = 1;

export const TOPICS = {
  cards: 'card-ledger.card-events.v1',
  transactions: 'card-ledger.transaction-events.v1',
  programs: 'card-ledger.program-events.v1',
} as const;
export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

export interface IntegrationMessage {
  readonly envelope_version: typeof ENVELOPE_VERSION;
  /** The event id: stable across redeliveries, the key to de-duplicate on. */
  readonly id: string;
  readonly type: string;
  readonly schema_version: number;
  readonly occurred_at: string;
  readonly program_token: string;
  /**
   * Set on every card and transaction event (a transaction's card, for its every event), null on
   * program events; the Kafka message key, so a card's events stay in order.
   */
  readonly card_token: string | null;
  readonly stream_id: string;
  readonly stream_version: number;
  /** Global position "<commit>/<prepare>" in the event store. */
  readonly position: string;
  readonly data: Record<string, unknown>;
}

/** Which topic an event goes to, or null for internal events (the card-number registry). */
export function topicFor(recorded: RecordedEvent): Topic | null {
  // A withdrawn token never became a transaction: nothing happened that the outside world could see.
  if (recorded.type === 'AuthorizationWithdrawn') return null;
  if (recorded.streamId.startsWith('card-')) return TOPICS.cards;
  if (isTransactionStream(recorded.streamId)) return TOPICS.transactions;
  if (recorded.streamId.startsWith('program-')) return TOPICS.programs;
  return null;
}

/**
 * The envelope of one event, given the card it belongs to. Build envelopes with IntegrationEnvelopes,
 * which knows the card of every transaction event; this is its pure half.
 */
export function toIntegrationMessage(recorded: RecordedEvent, cardToken: string | null): IntegrationMessage {
  const data = (withoutSecretFields(recorded.data) ?? {}) as Record<string, unknown>;
  return {
    envelope_version: ENVELOPE_VERSION,
    id: recorded.metadata.eventId,
    type: recorded.type,
    schema_version: recorded.schemaVersion,
    occurred_at: recorded.metadata.occurredAt,
    program_token: recorded.metadata.programToken,
    card_token: cardToken,
    stream_id: recorded.streamId,
    stream_version: recorded.streamVersion,
    position: formatPosition(recorded.position),
    data,
  };
}
