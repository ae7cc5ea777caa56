import { decideAccountVelocityUsage, type AccountVelocityLimit, type AccountVelocityUsage, type AccountVelocityUsageEvent } from '../auth-rules/account-velocity-usage';
import type { AuthorizeSpend } from '../cards/card-authorization';
import { decideAuthorization } from '../cards/card-authorization';
import { velocityFactsOf } from '../cards/card-activity';
import type { Card } from '../cards/card-state';
import { decideTransaction, type Transaction } from '../transactions/transaction';
import { transactionOpenedBy } from '../transactions/transaction-opening';
import type { CardAndTransactionEvents } from './card-and-transaction-events';

/** An ACCOUNT-scoped velocity limit that runs on the card, with what its counter held when the checks were taken. */
export interface AccountCounter {
  readonly limit: AccountVelocityLimit;
  readonly usage: AccountVelocityUsage;
}

export interface AuthorizationEvents extends CardAndTransactionEvents {
  /** For each counter given, in the same order: the approval it counts, or nothing (a decline, or one its filters leave out). */
  readonly counted: readonly (readonly AccountVelocityUsageEvent[])[];
}

/**
 * An authorization: the card decides (approved or declined, both recorded), the decision opens its
 * transaction with exactly the facts the card recorded, and an approval is counted by every ACCOUNT
 * velocity limit whose filters take it, in the same write (account-velocity-usage.ts). The
 * transaction's token is the caller's and its stream must be new: a write under a token already
 * taken is refused whole.
 */
export function decideAuthorizationAndTransaction(command: AuthorizeSpend, card: Card, noTransaction: Transaction, now: Date, counters: readonly AccountCounter[] = []): AuthorizationEvents {
  const cardEvents = decideAuthorization(command, card, now);
  const approved = cardEvents.some((event) => event.type === 'CardAuthorizationApproved');
  const counted = counters.map(({ limit, usage }) => (approved ? countApproval(command, limit, usage, now) : []));
  const opening = cardEvents.map(transactionOpenedBy).find((record) => record !== null);
  return { card: cardEvents, transaction: opening ? decideTransaction(opening, noTransaction, { now }) : [], counted };
}

function countApproval({ facts }: AuthorizeSpend, limit: AccountVelocityLimit, usage: AccountVelocityUsage, now: Date): AccountVelocityUsageEvent[] {
  const { transactionToken, cardToken, amount } = facts;
  return decideAccountVelocityUsage({ type: 'CountApproval', ...limit, transactionToken, cardToken, amount, facts: velocityFactsOf(facts) }, usage, { now });
}
