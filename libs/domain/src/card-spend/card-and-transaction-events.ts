import type { CardEvent } from '../cards/card-state';
import type { TransactionEvent } from '../transactions/transaction';

/**
 * What one use case on a card's spend decides: the card's events and its transaction's, recorded as
 * one write so that the card's spend and the transaction always agree. Either list may be empty; both
 * empty means there was nothing to do.
 */
export interface CardAndTransactionEvents {
  readonly card: readonly CardEvent[];
  readonly transaction: readonly TransactionEvent[];
}

export const NOTHING_TO_DO: CardAndTransactionEvents = { card: [], transaction: [] };
