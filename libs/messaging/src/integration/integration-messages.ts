import { ENVELOPE_VERSION, TOPICS, webhookEventTypeOf, withoutSecretFields, type IntegrationMessage, type Topic } from '@ledger/contracts';
import { isAuthRuleBacktestStream, isDisputeStream, isThreeDSAuthenticationStream, isTokenizationStream, isTransactionStream } from '@ledger/domain';
import { formatPosition, type RecordedEvent } from '@ledger/event-store';

/**
 * Recorded events turned into integration messages (the shape the contracts define): built here, at
 * the edge that knows the event store, so that the contracts depend on the domain alone.
 */

/** Which topic an event goes to, or null for internal events (the card-number registry). */
export function topicFor(recorded: RecordedEvent): Topic | null {
  // A withdrawn token never became a transaction or an event of one: nothing happened that the outside world could see.
  if (recorded.type === 'AuthorizationWithdrawn' || recorded.type === 'EventTokenWithdrawn') return null;
  if (recorded.streamId.startsWith('card-')) return TOPICS.cards;
  if (isTransactionStream(recorded.streamId)) return TOPICS.transactions;
  if (recorded.streamId.startsWith('program-')) return TOPICS.programs;
  // A backtest report is the program's news (Lithic's auth_rules.backtest_report.created), keyed by the program like its other events.
  if (recorded.type === 'AuthRuleBacktestReported' && isAuthRuleBacktestStream(recorded.streamId)) return TOPICS.programs;
  // So is a 3DS authentication (Lithic's three_ds_authentication.created and .updated).
  if (isThreeDSAuthenticationStream(recorded.streamId)) return TOPICS.programs;
  // A token's decision and later changes (Lithic's tokenization.result and .updated) likewise, and a
  // dispute's changes (dispute.updated): the webhooks' feed needs them; the rest of those streams stay in.
  const webhook = { type: recorded.type, stream_id: recorded.streamId };
  if ((isTokenizationStream(recorded.streamId) || isDisputeStream(recorded.streamId)) && webhookEventTypeOf(webhook) !== null) return TOPICS.programs;
  return null;
}

/**
 * The envelope of one event, given the card it belongs to. Build envelopes with IntegrationEnvelopes
 * (integration-envelopes.ts),
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
