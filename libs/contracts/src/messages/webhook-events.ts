import { createHash } from 'node:crypto';
import { isAuthRuleBacktestStream, isDisputeStream, isThreeDSAuthenticationStream, isTokenizationStream, isTransactionStream, type WebhookEventType } from '@ledger/domain';
import type { IntegrationMessage } from './integration-message';

/**
 * Which ledger events become which webhook, and what a webhook's body looks like. The same mapping
 * serves both feeds of the delivery table (the PostgreSQL outbox and the Kafka topics), since both
 * hand it the integration envelope.
 */
const CARD_WEBHOOKS: Readonly<Record<string, WebhookEventType>> = {
  CardCreated: 'card.created',
  CardDetailsChanged: 'card.updated',
  CardPaused: 'card.updated',
  CardResumed: 'card.updated',
  CardClosed: 'card.updated',
  CardMerchantLocked: 'card.updated',
  // Lithic tells a plastic's moves by webhooks of their own. An activation is a change of state, as a resume is.
  CardShipped: 'card.shipped',
  CardActivated: 'card.updated',
  CardRenewed: 'card.renewed',
  CardReissued: 'card.reissued',
  CardConvertedToPhysical: 'card.converted',
};

/** The webhooks whose body is the card with what its plastic's event says (cardPlasticBody). */
export const CARD_PLASTIC_WEBHOOKS: readonly WebhookEventType[] = ['card.shipped', 'card.renewed', 'card.reissued', 'card.converted'];

/** A 3DS authentication's events, each of which carries the whole authentication (its body). */
const THREE_DS_WEBHOOKS: Readonly<Record<string, WebhookEventType>> = {
  ThreeDSAuthenticationCreated: 'three_ds_authentication.created',
  ThreeDSChallengeCompleted: 'three_ds_authentication.updated',
};

/**
 * A token's changes after its decision: Lithic's tokenization.updated, sent when the token's status or
 * its data changes. A resent activation code changes neither (the code went out again), so it is not one.
 */
const TOKENIZATION_WEBHOOKS: Readonly<Record<string, WebhookEventType>> = {
  TokenizationDecided: 'tokenization.result',
  TokenizationStatusChanged: 'tokenization.updated',
  TokenizationDigitalCardArtUpdated: 'tokenization.updated',
};

/**
 * A dispute's changes, each of which Lithic reports as dispute.updated: filed, amended, moved to a stage
 * or ended. Its evidence files are not part of the Dispute object, so their events change no body.
 */
const DISPUTE_WEBHOOKS: ReadonlySet<string> = new Set(['DisputeFiled', 'DisputeAmended', 'DisputeStatusChanged']);

/**
 * The webhooks whose body is their subject as a whole (the dispute, the token) as the stream's events up
 * to the delivered one leave it: no single event carries it and no read model holds it, so both feeds
 * fold the stream (stream-folded-bodies.ts).
 */
export const STREAM_FOLDED_WEBHOOKS: readonly WebhookEventType[] = ['dispute.updated', 'tokenization.updated'];

/** The webhook an event is delivered as, or null for events no webhook carries. */
export function webhookEventTypeOf(message: Pick<IntegrationMessage, 'type' | 'stream_id'>): WebhookEventType | null {
  if (message.stream_id.startsWith('card-')) return CARD_WEBHOOKS[message.type] ?? null;
  if (isTransactionStream(message.stream_id) && message.type.startsWith('Transaction')) return 'card_transaction.updated';
  if (isAuthRuleBacktestStream(message.stream_id) && message.type === 'AuthRuleBacktestReported') return 'auth_rules.backtest_report.created';
  if (isThreeDSAuthenticationStream(message.stream_id)) return THREE_DS_WEBHOOKS[message.type] ?? null;
  if (isTokenizationStream(message.stream_id)) return TOKENIZATION_WEBHOOKS[message.type] ?? null;
  if (isDisputeStream(message.stream_id) && DISPUTE_WEBHOOKS.has(message.type)) return 'dispute.updated';
  return null;
}

/** The token of the card or transaction an event of a card or transaction stream is about (a backtest's body is its report's own: see the bodies). */
export function subjectTokenOf(message: Pick<IntegrationMessage, 'stream_id'>): string {
  return message.stream_id.slice(message.stream_id.indexOf('-') + 1);
}

/** Fixed namespaces for the name-based message and attempt ids (RFC 9562 version 5). */
const MESSAGE_ID_NAMESPACE = Buffer.from('6f0d9f2e7c1b4a3d9e8f1a2b3c4d5e6f', 'hex');
const ATTEMPT_TOKEN_NAMESPACE = Buffer.from('0b7e4c1a9d2f4e6b8a3c5d7e9f1a2b4c', 'hex');

/**
 * The id of the message that carries one ledger event to one subscription: a version-5 UUID of
 * "<event id>/<subscription token>". Retries, resends, replays of the outbox and redeliveries from
 * Kafka all get the same id, so receivers de-duplicate on webhook-id.
 */
export function webhookMessageId(eventId: string, subscriptionToken: string): string {
  return nameBasedUuid(MESSAGE_ID_NAMESPACE, `${eventId}/${subscriptionToken}`);
}

/** The token of one delivery attempt (Lithic's MessageAttempt.token): a version-5 UUID of "<message id>/<attempt>". */
export function webhookAttemptToken(messageId: string, attempt: number): string {
  return nameBasedUuid(ATTEMPT_TOKEN_NAMESPACE, `${messageId}/${attempt}`);
}

export function nameBasedUuid(namespace: Buffer, name: string): string {
  const hash = createHash('sha1').update(namespace).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
