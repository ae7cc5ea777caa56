import type { WebhookEventType } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { cardCreatedBody, cardTransactionUpdatedBody, cardUpdatedBody, type EventBody } from '@ledger/read-model';
import { WebhookPayloads } from '../delivery/webhook-payloads';
import { cardUpdateOf, EventAt } from './card-update';

/**
 * The body of an event built from the read models as they are when asked: the Kafka feed's way, which
 * consumes integration envelopes rather than the log (the projector renders the same bodies from the
 * rows of its own batch, libs/projector/src/derived).
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
      return transaction && cardTransactionUpdatedBody(transaction);
    }
    const card = await this.payloads.card(subjectToken);
    if (!card) return null;
    if (eventType === 'card.created') return cardCreatedBody(card);
    return cardUpdatedBody(card, await cardUpdateOf(this.store, event));
  }
}
