import { assertNever } from '../core/decider';
import { decideSpendAdjustment } from '../cards/card-authorization';
import type { Card, SpendAdjustmentCause } from '../cards/card-state';
import { countedSpend, decideTransaction, evolveTransaction, type AdviseAuthorization, type ClearAuthorization, type ExpireAuthorization, type ReverseReturn, type Transaction, type VoidAuthorization } from '../transactions/transaction';
import { TransactionNotFound } from '../transactions/transaction-errors';
import { NOTHING_TO_DO, type CardAndTransactionEvents } from './card-and-transaction-events';

/** The network events that move an existing transaction's amount, and so what its card counts. */
export type TransactionMovement = VoidAuthorization | ExpireAuthorization | ClearAuthorization | AdviseAuthorization | ReverseReturn;

function causeOf(movement: TransactionMovement): SpendAdjustmentCause {
  switch (movement.type) {
    case 'VoidAuthorization':
      return 'VOID';
    case 'ExpireAuthorization':
      return 'EXPIRY';
    case 'ClearAuthorization':
      return 'CLEARING';
    case 'AdviseAuthorization':
      return 'ADVICE';
    case 'ReverseReturn':
      return 'RETURN_REVERSAL';
    default:
      return assertNever(movement);
  }
}

/**
 * A void, expiry, clearing, advice or return reversal: the transaction decides whether it may move, and its
 * card then counts the transaction's new amount, both in one decision. `transactionVersion` is the
 * version the transaction was folded at; the card records the version its adjustment follows.
 */
export function decideTransactionMovement(
  movement: TransactionMovement,
  transaction: Transaction,
  transactionVersion: number,
  card: Card,
  now: Date,
): CardAndTransactionEvents {
  const transactionEvents = decideTransaction(movement, transaction, { now });
  if (transactionEvents.length === 0) return NOTHING_TO_DO;
  const moved = transactionEvents.reduce(evolveTransaction, transaction);
  if (moved.status === 'ABSENT') throw new TransactionNotFound(movement.transactionToken);
  const cardEvents = decideSpendAdjustment(
    {
      type: 'AdjustSpend',
      cardToken: moved.cardToken,
      transactionToken: moved.transactionToken,
      transactionVersion: transactionVersion + transactionEvents.length,
      cause: causeOf(movement),
      amount: countedSpend(moved),
    },
    card,
  );
  return { card: cardEvents, transaction: transactionEvents };
}
