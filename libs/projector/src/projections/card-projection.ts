import { evolveCard, SpendHistory, type Card as CardState, type CardEvent, type IssuedCard } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { cardRow, type Card } from '@ledger/read-model';
import { existing, ProjectionRows } from './projection-rows';
import type { Projection } from './projection';

/** The events that change a column; approvals, declines and spend changes only touch what the row does not show. */
const CARD_EVENTS = [
  'CardCreated',
  'CardDetailsChanged',
  'CardPaused',
  'CardResumed',
  'CardClosed',
  'CardMerchantLocked',
  'CardShipped',
  'CardActivated',
  'CardRenewed',
  'CardReissued',
  'CardConvertedToPhysical',
] as const;
type Handled = Extract<CardEvent, { type: (typeof CARD_EVENTS)[number] }>;

/**
 * The cards table behind GET /v1/cards, folded with the card aggregate's own evolve: the row is
 * read back as the card's state, the event applied as the domain applies it, and the state written
 * as the row again, so a card's state changes are written once. Every event sets `updated` to when
 * it occurred.
 */
export class CardProjection implements Projection<Handled['type']> {
  readonly events = CARD_EVENTS;

  need(event: Handled, rows: ProjectionRows): void {
    if (event.type !== 'CardCreated') rows.cards.need(event.data.cardToken);
  }

  apply(event: Handled, recorded: RecordedEvent, rows: ProjectionRows): void {
    const token = event.data.cardToken;
    // A repeated CardCreated resets every column, as evolveCard resets the state.
    const before: CardState = event.type === 'CardCreated' ? { status: 'absent' } : cardStateOf(existing(rows.cards.get(token), 'cards', token, event.type));
    const after = evolveCard(before, event);
    if (after.status !== 'issued') throw new Error(`cards: ${event.type} on ${token} left no card`);
    rows.cards.set(token, cardRow(after, new Date(recorded.metadata.occurredAt)));
  }
}

/**
 * What a card row says the card is. The row keeps less than the state: whether there is a PIN but
 * not its hash, the merchant's name but not its key, no spend, no attempts and no activity. None of those feed
 * back into a column but through an event that brings them (CardDetailsChanged, CardMerchantLocked,
 * CardRenewed, CardReissued, CardConvertedToPhysical),
 * so the row is a faithful start for the columns it has.
 */
function cardStateOf(row: Card): IssuedCard {
  return {
    status: 'issued',
    cardToken: row.token,
    programToken: row.programToken,
    cardType: row.type as IssuedCard['cardType'],
    state: row.state as IssuedCard['state'],
    memo: row.memo,
    spendLimit: Number(row.spendLimit),
    spendLimitDuration: row.spendLimitDuration as IssuedCard['spendLimitDuration'],
    fundingToken: row.fundingToken,
    expMonth: row.expMonth,
    expYear: row.expYear,
    lastFour: row.lastFour,
    panHash: row.panHash,
    panEncrypted: row.panEncrypted,
    pinHash: row.pinSet ? PIN_KEPT_IN_THE_EVENT_STORE : null,
    hostname: row.hostname,
    lockedMerchantKey: null,
    closedReason: null,
    created: row.created.toISOString(),
    spend: SpendHistory.EMPTY,
    recentAttempts: [],
    // The plastic's address and how many were ordered are the events' alone: no column shows them.
    plastic: null,
    productId: row.productId,
    replacementFor: row.replacementFor,
    plasticReorders: 0,
  };
}

/** Stands for a PIN hash the row only knows to exist; never written anywhere. */
const PIN_KEPT_IN_THE_EVENT_STORE = '';
