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
