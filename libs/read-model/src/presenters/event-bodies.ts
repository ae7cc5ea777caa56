import type { Card } from '../generated/prisma/client';
import type { CardWithoutSecrets, presentTransaction } from './api-shapes';

/** The transaction object as GET /v1/transactions/{token} shows it, its card less the PAN and the CVV. */
export type TransactionWithoutSecrets = ReturnType<typeof presentTransaction<CardWithoutSecrets>>;

/** card.created in Lithic's shape (CardCreatedWebhookEvent), with the card object beside it. */
export type CardCreatedBody = CardWithoutSecrets & { readonly event_type: 'card.created'; readonly card_token: string };

/** card.updated in Lithic's shape (CardUpdatedWebhookEvent), with the card object beside it. */
export type CardUpdatedBody = CardWithoutSecrets & {
  readonly event_type: 'card.updated';
  readonly card_token: string;
  /** The fields this event changed, with the values they had before it. */
  readonly previous_fields: Record<string, unknown>;
  readonly state: string;
};

/** card_transaction.updated in Lithic's shape: the transaction object itself is the body. */
export type CardTransactionUpdatedBody = TransactionWithoutSecrets & { readonly event_type: 'card_transaction.updated' };

/**
 * The body of an event: what a webhook sends and what the events feed serves as the event's payload,
 * in Lithic's shapes (the SDK's CardCreatedWebhookEvent, CardUpdatedWebhookEvent and
 * CardTransactionUpdatedWebhookEvent), built from the REST presenters so a field the API gains flows
 * into these bodies too.
 */
export type EventBody = CardCreatedBody | CardUpdatedBody | CardTransactionUpdatedBody;

/** What card.updated says about one event: the API fields it changed, as they were before, and the state after. */
export interface CardUpdate {
  readonly previousFields: Record<string, unknown>;
  readonly state: string;
}

/** The card fields a card.updated event can change, as the API names them. */
export interface CardUpdatableFields {
  readonly state: string;
  readonly memo: string;
  readonly spend_limit: number;
  readonly spend_limit_duration: string;
  readonly funding_token: string;
  readonly hostname: string;
}

/** The fields of `after` that differ from `before`, with their values before; the state is after's. */
export function cardUpdateBetween(before: CardUpdatableFields | null, after: CardUpdatableFields | null): CardUpdate {
  const previous: Partial<CardUpdatableFields> = before ?? {};
  const current: Partial<CardUpdatableFields> = after ?? {};
  const previousFields: Record<string, unknown> = {};
  for (const field of Object.keys(current) as (keyof CardUpdatableFields)[]) {
    if (previous[field] !== current[field]) previousFields[field] = previous[field];
  }
  return { previousFields, state: after?.state ?? '' };
}

/** A card row's updatable fields. */
export function cardRowFields(row: Card): CardUpdatableFields {
  return {
    state: row.state,
    memo: row.memo,
    spend_limit: Number(row.spendLimit),
    spend_limit_duration: row.spendLimitDuration,
    funding_token: row.fundingToken,
    hostname: row.hostname,
  };
}

export function cardCreatedBody(card: CardWithoutSecrets): CardCreatedBody {
  return { event_type: 'card.created', card_token: card.token, ...card };
}

/** The card object as the read models show it; previous_fields and state are this event's own. */
export function cardUpdatedBody(card: CardWithoutSecrets, update: CardUpdate): CardUpdatedBody {
  return { event_type: 'card.updated', card_token: card.token, ...card, previous_fields: update.previousFields, state: update.state };
}

export function cardTransactionUpdatedBody(transaction: TransactionWithoutSecrets): CardTransactionUpdatedBody {
  return { event_type: 'card_transaction.updated', ...transaction };
}
