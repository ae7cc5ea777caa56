import type { CardCreated, CardDetailsChanged, CardEvent } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import type { Card } from '@ledger/read-model';
import { existing, ProjectionRows } from './projection-rows';
import type { Projection } from './projection';

const CARD_EVENTS = ['CardCreated', 'CardDetailsChanged', 'CardPaused', 'CardResumed', 'CardClosed', 'CardMerchantLocked'] as const;
type Handled = Extract<CardEvent, { type: (typeof CARD_EVENTS)[number] }>;

/** The cards table behind GET /v1/cards. Every event sets `updated` to when it occurred. */
export class CardProjection implements Projection<Handled['type']> {
  readonly events = CARD_EVENTS;

  need(event: Handled, rows: ProjectionRows): void {
    if (event.type !== 'CardCreated') rows.cards.need(event.data.cardToken);
  }

  apply(event: Handled, recorded: RecordedEvent, rows: ProjectionRows): void {
    const token = event.data.cardToken;
    const updated = new Date(recorded.metadata.occurredAt);
    if (event.type === 'CardCreated') {
      rows.cards.set(token, cardCreated(event, updated));
      return;
    }
    rows.cards.set(token, { ...cardChanged(existing(rows.cards.get(token), 'cards', token, event.type), event), updated });
  }
}

/** The whole row: a repeated CardCreated resets every column, as the upsert it replaces did. */
export function cardCreated(event: CardCreated, updated: Date): Card {
  const { cardToken, cardType, spendLimit, created, programToken, state, memo, spendLimitDuration, fundingToken, expMonth, expYear, lastFour, panHash, panEncrypted } =
    event.data;
  return {
    token: cardToken,
    programToken,
    type: cardType,
    state,
    memo,
    spendLimit: BigInt(spendLimit),
    spendLimitDuration,
    fundingToken,
    expMonth,
    expYear,
    lastFour,
    panHash,
    panEncrypted,
    hostname: '',
    pinSet: event.data.pinHash !== null,
    created: new Date(created),
    updated,
  };
}

/** The columns an event on an existing card changes (`updated` aside). */
export function cardChanged(row: Card, event: Exclude<Handled, CardCreated>): Card {
  switch (event.type) {
    case 'CardDetailsChanged':
      return cardDetailsChanged(row, event);
    case 'CardPaused':
      return { ...row, state: 'PAUSED' };
    case 'CardResumed':
      return { ...row, state: 'OPEN' };
    case 'CardClosed':
      return { ...row, state: 'CLOSED' };
    case 'CardMerchantLocked':
      return { ...row, hostname: event.data.hostname };
  }
}

/** The changed fields only; the PIN hash is not a column, only that there is one. */
function cardDetailsChanged(row: Card, event: CardDetailsChanged): Card {
  const { memo, fundingToken, spendLimit, spendLimitDuration, pinHash } = event.data;
  return {
    ...row,
    ...(memo === undefined ? {} : { memo }),
    ...(fundingToken === undefined ? {} : { fundingToken }),
    ...(spendLimit === undefined ? {} : { spendLimit: BigInt(spendLimit) }),
    ...(spendLimitDuration === undefined ? {} : { spendLimitDuration }),
    ...(pinHash === undefined ? {} : { pinSet: true }),
  };
}
