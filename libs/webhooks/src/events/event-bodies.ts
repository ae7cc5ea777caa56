import type { WebhookEventType } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { WebhookCard, WebhookPayloads, WebhookTransaction } from '../delivery/webhook-payloads';
import { cardUpdateOf, EventAt } from './card-update';

/** card.created in Lithic's shape (CardCreatedWebhookEvent), with the card object beside it. */
export type CardCreatedBody = WebhookCard & { readonly event_type: 'card.created'; readonly card_token: string };

/** card.updated in Lithic's shape (CardUpdatedWebhookEvent), with the card object beside it. */
export type CardUpdatedBody = WebhookCard & {
  readonly event_type: 'card.updated';
  readonly card_token: string;
  /** The fields this event changed, with the values they had before it. */
  readonly previous_fields: Record<string, unknown>;
  readonly state: string;
};

/** card_transaction.updated in Lithic's shape: the transaction object itself is the body. */
export type CardTransactionUpdatedBody = WebhookTransaction & { readonly event_type: 'card_transaction.updated' };

export type EventBody = CardCreatedBody | CardUpdatedBody | CardTransactionUpdatedBody;

/**
 * The body of an event: what a webhook sends and what the events feed serves as the event's
 * payload, in Lithic's shapes (the SDK's CardCreatedWebhookEvent, CardUpdatedWebhookEvent and
 * CardTransactionUpdatedWebhookEvent). Built from the read models with the REST presenters the
 * gateway answers with, so a field the API gains flows into these bodies too.
 */
export class EventBodies {
  constructor(
    private readonly payloads: WebhookPayloads,
    private readonly store: Pick<EventStore, 'readStream'>,
  ) {}

  /** Reads ahead the read-model rows of these events' subjects (see WebhookPayloads.prefetch). */
  prefetch(subjects: readonly { readonly eventType: WebhookEventType; readonly subject: string }[]): Promise<void> {
    return this.payloads.prefetch({
      cards: subjects.filter((one) => one.eventType !== 'card_transaction.updated').map((one) => one.subject),
      transactions: subjects.filter((one) => one.eventType === 'card_transaction.updated').map((one) => one.subject),
    });
  }

  /** The body of the event at `event`, or null when the read model lacks the card or transaction. */
  async body(eventType: WebhookEventType, subjectToken: string, event: EventAt): Promise<EventBody | null> {
    if (eventType === 'card_transaction.updated') {
      const transaction = await this.payloads.transaction(subjectToken);
      return transaction && { event_type: eventType, ...transaction };
    }
    const card = await this.payloads.card(subjectToken);
    if (!card) return null;
    if (eventType === 'card.created') return { event_type: eventType, card_token: card.token, ...card };
    // The card object is as the read models now show it; previous_fields and state are this event's own.
    const update = await cardUpdateOf(this.store, event);
    return { event_type: eventType, card_token: card.token, ...card, previous_fields: update.previousFields, state: update.state };
  }
}
