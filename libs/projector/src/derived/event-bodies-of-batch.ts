import {
  CARD_PLASTIC_WEBHOOKS,
  decodeEvent,
  EVENT_ALONE_WEBHOOKS,
  eventAloneBody,
  type LedgerEvent,
  STREAM_FOLDED_WEBHOOKS,
  streamFoldedBody,
  type StreamFoldedBody,
  subjectTokenOf,
  webhookEventTypeOf,
} from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import {
  cardCreatedBody,
  cardPlasticBody,
  cardRowFields,
  cardTransactionUpdatedBody,
  cardUpdateBetween,
  cardUpdatedBody,
  presentCardWithoutSecrets,
  presentTransaction,
  type Card,
  type CardPlasticEvent,
  type CardUpdatableFields,
  type CardWithoutSecrets,
} from '@ledger/read-model';
import type { ProjectionRows } from '../projections/projection-rows';

/** An event a webhook carries, with its body as the events feed and the outbox store it. */
export interface DerivedEvent {
  readonly recorded: RecordedEvent;
  readonly eventType: WebhookEventType;
  /** The body's JSON text. */
  readonly body: string;
}

/** The webhook an event becomes, if any: its type and the card or transaction it is about. */
export interface WebhookSubject {
  readonly eventType: WebhookEventType;
  readonly token: string;
}

export function webhookSubjectOf(recorded: RecordedEvent): WebhookSubject | null {
  const message = { type: recorded.type, stream_id: recorded.streamId };
  const eventType = webhookEventTypeOf(message);
  return eventType ? { eventType, token: subjectTokenOf(message) } : null;
}

/**
 * Renders each webhook event's body from the rows of the projector's own batch, right after the event
 * was applied to them: the card or transaction as that event left it, whatever later events of the
 * batch do to it, so a body does not depend on where batches begin and end. The projector has just
 * computed those rows; reading them back, or the card's events for card.updated, would repeat it.
 *
 * Bodies need rows the projections do not (a transaction's card and both funding sources), declared in
 * two steps: what the events name, then what the loaded rows name.
 *
 * A dispute's and a token's bodies are the whole dispute or token, which no row holds: those rare
 * events are rendered from their stream, read from the store up to the batch's last such event of it
 * and folded up to each one (foldStreams), before the batch is applied.
 */
export class EventBodiesOfBatch {
  private readonly transactions = new Set<string>();
  private readonly cards = new Set<string>();
  private readonly derived: DerivedEvent[] = [];
  /** The stream-folded webhooks of the batch: stream, then version, then its webhook's type. */
  private readonly foldedEvents = new Map<string, Map<number, WebhookEventType>>();
  /** Their bodies, by event id, once foldStreams has read their streams. */
  private readonly foldedBodies = new Map<string, StreamFoldedBody>();

  constructor(private readonly streams: Pick<EventStore, 'readStream'>) {}

  /** Step one, before loading: the rows an event's body reads that the event itself names. */
  need(event: LedgerEvent, subject: WebhookSubject, rows: ProjectionRows, recorded: RecordedEvent): void {
    // A backtest report's body, a 3DS authentication's and a tokenization's result are the event itself: they read no rows.
    if (EVENT_ALONE_WEBHOOKS.includes(subject.eventType)) return;
    if (STREAM_FOLDED_WEBHOOKS.includes(subject.eventType)) {
      const versions = this.foldedEvents.get(recorded.streamId) ?? new Map<number, WebhookEventType>();
      this.foldedEvents.set(recorded.streamId, versions.set(recorded.streamVersion, subject.eventType));
      return;
    }
    const data = event.data as { cardToken?: string; fundingToken?: string };
    if (subject.eventType === 'card_transaction.updated') {
      rows.transactions.need(subject.token);
      this.transactions.add(subject.token);
    } else {
      rows.cards.need(subject.token);
      this.cards.add(subject.token);
    }
    if (typeof data.cardToken === 'string') {
      rows.cards.need(data.cardToken);
      this.cards.add(data.cardToken);
    }
    if (typeof data.fundingToken === 'string') rows.fundingSources.need(data.fundingToken);
  }

  /** Reads each stream with stream-folded webhooks once, up to the last of them, and renders each one's body as of its event. */
  async foldStreams(): Promise<void> {
    for (const [streamId, versions] of this.foldedEvents) {
      const last = Math.max(...versions.keys());
      const recorded = await this.streams.readStream(streamId, { maxCount: last + 1 });
      if (recorded.length !== last + 1) throw new Error(`projector: ${streamId} has ${recorded.length} events, not the ${last + 1} its webhooks of this batch need`);
      const history = recorded.map((event) => decodeEvent(event));
      for (const [version, eventType] of versions) {
        const body = streamFoldedBody(eventType, history.slice(0, version + 1));
        if (body === null) throw new Error(`projector: ${streamId} up to version ${version} holds no ${eventType} subject`);
        this.foldedBodies.set(recorded[version].metadata.eventId, body);
      }
    }
  }

  /** Step two, after loading: the cards of stored transactions, and the funding sources of stored cards and transactions. */
  needAfterLoad(rows: ProjectionRows): void {
    for (const token of this.transactions) {
      const row = rows.transactions.get(token);
      if (row === null) continue;
      rows.cards.need(row.cardToken);
      this.cards.add(row.cardToken);
      rows.fundingSources.need(row.fundingToken);
    }
  }

  /** Step three, after the cards are loaded: their funding sources. */
  needFundingOfCards(rows: ProjectionRows): void {
    for (const token of this.cards) {
      const row = rows.cards.get(token);
      if (row !== null) rows.fundingSources.need(row.fundingToken);
    }
  }

  /** The card's updatable fields before a card.updated event is applied. */
  cardBefore(subject: WebhookSubject, rows: ProjectionRows): CardUpdatableFields | null {
    if (subject.eventType !== 'card.updated') return null;
    const row = rows.cards.get(subject.token);
    return row && cardRowFields(row);
  }

  /** Renders the body of an event just applied to the rows. */
  add(recorded: RecordedEvent, subject: WebhookSubject, rows: ProjectionRows, before: CardUpdatableFields | null): void {
    this.derived.push({ recorded, eventType: subject.eventType, body: JSON.stringify(this.body(recorded, subject, rows, before)) });
  }

  /** The batch's webhook events, in log order, with their bodies. */
  events(): readonly DerivedEvent[] {
    return this.derived;
  }

  private body(recorded: RecordedEvent, subject: WebhookSubject, rows: ProjectionRows, before: CardUpdatableFields | null) {
    if (EVENT_ALONE_WEBHOOKS.includes(subject.eventType)) return this.eventAlone(recorded, subject);
    if (STREAM_FOLDED_WEBHOOKS.includes(subject.eventType)) return this.foldedBody(recorded, subject);
    if (subject.eventType === 'card_transaction.updated') {
      const row = rows.transactions.get(subject.token);
      if (row === null) throw missing(subject, recorded);
      const card = this.card(row.cardToken, subject, recorded, rows);
      const funding = rows.fundingSources.get(row.fundingToken);
      return cardTransactionUpdatedBody(presentTransaction(row, card, funding?.type ?? card.funding.type));
    }
    const card = this.card(subject.token, subject, recorded, rows);
    if (subject.eventType === 'card.created') return cardCreatedBody(card);
    if (CARD_PLASTIC_WEBHOOKS.includes(subject.eventType)) return cardPlasticBody(card, decodeEvent(recorded) as CardPlasticEvent);
    const after = rows.cards.get(subject.token) as Card;
    return cardUpdatedBody(card, cardUpdateBetween(before, cardRowFields(after)));
  }

  private eventAlone(recorded: RecordedEvent, subject: WebhookSubject) {
    const body = eventAloneBody(subject.eventType, decodeEvent(recorded));
    if (!body) throw new Error(`projector: ${recorded.type} at ${recorded.streamId}@${recorded.streamVersion} is no ${subject.eventType} event`);
    return body;
  }

  private foldedBody(recorded: RecordedEvent, subject: WebhookSubject): StreamFoldedBody {
    const body = this.foldedBodies.get(recorded.metadata.eventId);
    if (!body) throw new Error(`projector: the ${subject.eventType} body of event ${recorded.metadata.eventId} was not folded before the batch was applied`);
    return body;
  }

  private card(token: string, subject: WebhookSubject, recorded: RecordedEvent, rows: ProjectionRows): CardWithoutSecrets {
    const row = rows.cards.get(token);
    const funding = row && rows.fundingSources.get(row.fundingToken);
    if (!row || !funding) throw missing(subject, recorded);
    return presentCardWithoutSecrets(row, funding);
  }
}


function missing(subject: WebhookSubject, recorded: RecordedEvent): Error {
  return new Error(`projector: no row for the ${subject.eventType} body of event ${recorded.metadata.eventId} (subject ${subject.token})`);
}
