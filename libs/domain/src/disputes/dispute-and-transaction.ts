import { decideTransaction, type Transaction, type TransactionEvent } from '../transactions/transaction';
import { decideDispute, disputeCredit, evolveDispute, type Dispute, type DisputeCommand, type DisputeEvent } from './dispute';

/** What a dispute command decides: the dispute's events, and its transaction's, recorded as one write. */
export interface DisputeAndTransactionEvents {
  readonly dispute: readonly DisputeEvent[];
  readonly transaction: readonly TransactionEvent[];
}

/**
 * A dispute command on the dispute and the transaction it charges back: the dispute decides on the
 * transaction as it stands (a filing reads what it settled), and a case won gives its amount back on
 * the transaction, whose credit is recorded under `creditEventToken`.
 */
export function decideDisputeAndTransaction(command: DisputeCommand, dispute: Dispute, transaction: Transaction, now: Date, creditEventToken: string): DisputeAndTransactionEvents {
  const events = decideDispute(command, dispute, { now, transaction });
  const after = events.reduce(evolveDispute, dispute);
  const credit = after.status === 'ABSENT' ? null : disputeCredit(after, events, creditEventToken);
  return { dispute: events, transaction: credit ? decideTransaction(credit, transaction, { now }) : [] };
}
