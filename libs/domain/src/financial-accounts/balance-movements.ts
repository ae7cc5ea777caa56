import { transactionDecider, type ExistingTransaction, type Transaction, type TransactionEvent } from '../transactions/transaction';
import type { TransactionEventType } from '../transactions/transaction-values';
import { settledPart } from './account-balance';
import { financialEventType } from './financial-transaction';

/** A transaction event as the ledger recorded it: its id, when it occurred, and the event. */
export interface RecordedTransactionEvent {
  readonly eventId: string;
  readonly occurredAt: string;
  readonly event: TransactionEvent;
}

/**
 * One change of an account's total balance (a statement's line item): a clearing, a return, a
 * return reversal, a financial authorization, or a settlement that bounced. `amount` is from the
 * account's side, like the total: money out negative. An account's total at the end of a period is
 * its total at the start plus its movements in between.
 */
export interface BalanceMovement {
  readonly eventId: string;
  readonly occurredAt: string;
  readonly amount: bigint;
  readonly transaction: ExistingTransaction;
  /** The transaction event's token (the ledger event id for a bounce, which has no entry of its own). */
  readonly eventToken: string;
  readonly eventType: ReturnType<typeof financialEventType> | 'TRANSFER_INSUFFICIENT_FUNDS';
}

const settledOf = (transaction: Transaction): bigint => (transaction.status === 'ABSENT' ? 0n : settledPart(transaction));

/** The movements of one transaction's total, event by event, in the order its stream holds them. */
export function balanceMovements(events: readonly RecordedTransactionEvent[]): BalanceMovement[] {
  const movements: BalanceMovement[] = [];
  let state = transactionDecider.initialState();
  for (const recorded of events) {
    const before = state;
    state = transactionDecider.evolve(state, recorded.event);
    const amount = settledOf(before) - settledOf(state);
    if (amount === 0n || state.status === 'ABSENT') continue;
    const added = state.events.length > (before.status === 'ABSENT' ? 0 : before.events.length) ? state.events.at(-1) : undefined;
    movements.push({
      eventId: recorded.eventId,
      occurredAt: recorded.occurredAt,
      amount,
      transaction: state,
      eventToken: added?.token ?? recorded.eventId,
      // A settlement the funding source refused is money back without an entry: Lithic's TRANSFER_INSUFFICIENT_FUNDS.
      eventType: added ? financialEventType(added.type as TransactionEventType) : 'TRANSFER_INSUFFICIENT_FUNDS',
    });
  }
  return movements;
}
