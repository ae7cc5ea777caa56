import type { CardConvertedToPhysical, CardReissued, CardRenewed, CardShipped, ShippingMethod } from '@ledger/domain';
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

/** card.shipped in Lithic's shape (CardShippedWebhookEvent), with the card object beside it. */
export type CardShippedBody = CardWithoutSecrets & {
  readonly event_type: 'card.shipped';
  readonly card_token: string;
  readonly bulk_order_token: null;
  readonly shipping_method: LithicShippingLabel;
  readonly tracking_number: string | null;
};

/** card.renewed in Lithic's shape (CardRenewedWebhookEvent): the new expiry and the one before it. */
export type CardRenewedBody = CardWithoutSecrets & {
  readonly event_type: 'card.renewed';
  readonly card_token: string;
  readonly previous_exp_month: string;
  readonly previous_exp_year: string;
};

/** card.reissued and card.converted in Lithic's shapes: the card's token, with the card object beside it. */
export type CardReissuedBody = CardWithoutSecrets & { readonly event_type: 'card.reissued'; readonly card_token: string };
export type CardConvertedBody = CardWithoutSecrets & { readonly event_type: 'card.converted'; readonly card_token: string };

/** The card events a plastic's webhooks carry. */
export type CardPlasticEvent = CardShipped | CardRenewed | CardReissued | CardConvertedToPhysical;

/**
 * The body of an event: what a webhook sends and what the events feed serves as the event's payload,
 * in Lithic's shapes (the SDK's CardCreatedWebhookEvent, CardUpdatedWebhookEvent and
 * CardTransactionUpdatedWebhookEvent), built from the REST presenters so a field the API gains flows
 * into these bodies too.
 */
export type EventBody = CardCreatedBody | CardUpdatedBody | CardTransactionUpdatedBody | CardShippedBody | CardRenewedBody | CardReissuedBody | CardConvertedBody;

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

/** The carrier's service as card.shipped names it (Lithic's labels), for each shipping method a card is ordered with. */
const SHIPPING_LABELS = {
  STANDARD: 'USPS without tracking envelope',
  STANDARD_WITH_TRACKING: 'USPS with tracking',
  PRIORITY: 'USPS priority',
  EXPRESS: 'FedEx express',
  '2_DAY': 'FedEx 2 days',
  EXPEDITED: 'FedEx overnight',
} as const satisfies Record<ShippingMethod, string>;
export type LithicShippingLabel = (typeof SHIPPING_LABELS)[ShippingMethod];

/**
 * The body of a plastic's event: the card object, as the other card bodies carry it, and the fields
 * Lithic's webhook of that type adds, taken from the event itself (a renewal's expiries are the
 * event's even when the card has been renewed again since).
 */
export function cardPlasticBody(card: CardWithoutSecrets, event: CardPlasticEvent): EventBody {
  const card_token = card.token;
  switch (event.type) {
    case 'CardShipped':
      return {
        ...card,
        event_type: 'card.shipped',
        card_token,
        bulk_order_token: null,
        shipping_method: SHIPPING_LABELS[event.data.shippingMethod],
        tracking_number: event.data.trackingNumber,
      };
    case 'CardRenewed':
      return {
        ...card,
        event_type: 'card.renewed',
        card_token,
        exp_month: event.data.expMonth,
        exp_year: event.data.expYear,
        previous_exp_month: event.data.previousExpMonth,
        previous_exp_year: event.data.previousExpYear,
      };
    case 'CardReissued':
      return { ...card, event_type: 'card.reissued', card_token };
    case 'CardConvertedToPhysical':
      return { ...card, event_type: 'card.converted', card_token };
  }
}
