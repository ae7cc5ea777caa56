import type { AuthorizeSpend } from '../cards/card-authorization';
import { decideAuthorization } from '../cards/card-authorization';
import type { Card } from '../cards/card-state';
import { decideTransaction, type Transaction } from '../transactions/transaction';
import { transactionOpenedBy } from '../transactions/transaction-opening';
import type { CardAndTransactionEvents } from './card-and-transaction-events';

/**
 * An authorization: the card decides (approved or declined, both recorded), and the decision opens
 * its transaction with exactly the facts the card recorded. The transaction's token is the
 * caller's and its stream must be new: a write under a token already taken is refused whole.
 */
export function decideAuthorizationAndTransaction(command: AuthorizeSpend, card: Card, noTransaction: Transaction, now: Date): CardAndTransactionEvents {
  const cardEvents = decideAuthorization(command, card, now);
  const opening = cardEvents.map(transactionOpenedBy).find((record) => record !== null);
  if (!opening) return { card: cardEvents, transaction: [] };
  return { card: cardEvents, transaction: decideTransaction(opening, noTransaction, { now }) };
}
