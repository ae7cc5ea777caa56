import {
  CARD_PLASTIC_WEBHOOKS,
  decodeEvent,
  EVENT_ALONE_WEBHOOKS,
  eventAloneBody,
  type EventAloneBody,
  type LedgerEvent,
  STREAM_FOLDED_WEBHOOKS,
  streamFoldedBody,
  type StreamFoldedBody,
} from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { cardCreatedBody, cardPlasticBody, cardTransactionUpdatedBody, cardUpdatedBody, type CardPlasticEvent, type EventBody } from '@ledger/read-model';
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
      cards: subjects.filter((one) => one.eventType === 'card.created' || one.eventType === 'card.updated').map((one) => one.subject),
      transactions: subjects.filter((one) => one.eventType === 'card_transaction.updated').map((one) => one.subject),
    });
  }

  /** The body of the event at `event`, or null when the read model lacks the card or transaction. */
  async body(eventType: WebhookEventType, subjectToken: string, event: EventAt): Promise<EventBody | EventAloneBody | StreamFoldedBody | null> {
    if (EVENT_ALONE_WEBHOOKS.includes(eventType)) return this.eventAlone(eventType, event);
    if (STREAM_FOLDED_WEBHOOKS.includes(eventType)) return this.streamFolded(eventType, event);
    if (eventType === 'card_transaction.updated') {
      const transaction = await this.payloads.transaction(subjectToken);
      return transaction && cardTransactionUpdatedBody(transaction);
    }
    const card = await this.payloads.card(subjectToken);
    if (!card) return null;
    if (eventType === 'card.created') return cardCreatedBody(card);
    if (CARD_PLASTIC_WEBHOOKS.includes(eventType)) return cardPlasticBody(card, await this.eventAt(event));
    return cardUpdatedBody(card, await cardUpdateOf(this.store, event));
  }

  /** A backtest report, a 3DS authentication or a tokenization's result: its event carries all of it, and no read model holds it. */
  private async eventAlone(eventType: WebhookEventType, event: EventAt): Promise<EventAloneBody | null> {
    const recorded = await this.recordedAt(event);
    return recorded && eventAloneBody(eventType, recorded);
  }

  /** A dispute or a token as its stream's events up to this one leave it: no read model holds either. */
  private async streamFolded(eventType: WebhookEventType, { streamId, streamVersion }: EventAt): Promise<StreamFoldedBody | null> {
    const history = await this.store.readStream(streamId, { maxCount: streamVersion + 1 });
    if (history.length !== streamVersion + 1) return null;
    return streamFoldedBody(eventType, history.map((recorded) => decodeEvent(recorded)));
  }

  /** The plastic's event itself: its body shows what the event says, beside the card. */
  private async eventAt(event: EventAt): Promise<CardPlasticEvent> {
    const recorded = await this.recordedAt(event);
    if (!recorded) throw new Error(`${event.streamId} has no event at version ${event.streamVersion}`);
    return recorded as CardPlasticEvent;
  }

  /** The one event at this place of the log, decoded; null when the stream has no event there. */
  private async recordedAt({ streamId, streamVersion }: EventAt): Promise<LedgerEvent | null> {
    const [recorded] = await this.store.readStream(streamId, { fromVersion: streamVersion, maxCount: 1 });
    return recorded && recorded.streamVersion === streamVersion ? decodeEvent(recorded) : null;
  }
}
