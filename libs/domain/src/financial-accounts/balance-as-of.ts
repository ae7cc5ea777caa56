import { foldEvents } from '../core/decider';
import { transactionDecider, type Transaction, type TransactionEvent } from '../transactions/transaction';

/** A transaction event with the moment it occurred (its metadata's `occurredAt`, UTC ISO 8601). */
export interface DatedTransactionEvent {
  readonly occurredAt: string;
  readonly event: TransactionEvent;
}

/**
 * Time travel (`as_of`, `balance_date`): a transaction as it was at a moment, from its events that
 * occurred at or before it; later ones are as if they had not happened yet.
 */
export function transactionAsOf(events: readonly DatedTransactionEvent[], asOf: Date): Transaction {
  const until = asOf.getTime();
  return foldEvents(
    transactionDecider,
    events.filter((dated) => Date.parse(dated.occurredAt) <= until).map((dated) => dated.event),
  );
}
