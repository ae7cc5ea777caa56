import { decideReturnCredit } from '../cards/card-authorization';
import { CardNotFound } from '../cards/card-errors';
import type { AuthorizationFacts, Card } from '../cards/card-state';
import { decideTransaction, type Transaction } from '../transactions/transaction';
import { isPendingCreditKind } from '../transactions/transaction-values';
import type { CardAndTransactionEvents } from './card-and-transaction-events';

/** A return as the network presents it; the card supplies its funding source, the decision the time. */
export type ReturnPresented = Omit<AuthorizationFacts, 'fundingToken' | 'at'>;

/**
 * A return is its own transaction, cleared at once, and gives its card the spend back: one decision.
 * Returns are accepted on any card the program owns, paused or closed. The transaction's token is
 * the caller's and its stream must be new, as for an authorization. Lithic's credits take the same
 * way (money back is never refused): a financial credit authorization exactly as a return; a credit
 * authorization or its advice opens PENDING and credits the card 0 until its clearing (Lithic: an
 * unsettled credit does not count toward spend limits), which then gives the spend back.
 */
export function decideReturn(presented: ReturnPresented, card: Card, noTransaction: Transaction, now: Date): CardAndTransactionEvents {
  if (card.status !== 'issued' || card.programToken !== presented.programToken) throw new CardNotFound(presented.cardToken);
  const at = now.toISOString();
  const facts: AuthorizationFacts = { ...presented, fundingToken: card.fundingToken, at };
  const transaction = decideTransaction({ type: 'RecordReturn', facts }, noTransaction, { now });
  const credit = decideReturnCredit(
    {
      type: 'CreditReturn',
      cardToken: presented.cardToken,
      transactionToken: presented.transactionToken,
      eventToken: presented.eventToken,
      amount: isPendingCreditKind(presented.kind) ? 0 : presented.amount,
      at,
    },
    card,
  );
  return { card: credit, transaction };
}
