import type { ExistingTransaction } from '../transactions/transaction';
import type { TransactionEventType, TransactionResult, TransactionStatus } from '../transactions/transaction-values';
import { pendingPart, settledPart } from './account-balance';

/**
 * A card transaction as Lithic's financial transaction (category CARD): one per transaction, under
 * the transaction's token, with its events.
 */
export type FinancialTransactionStatus = 'DECLINED' | 'EXPIRED' | 'PENDING' | 'RETURNED' | 'SETTLED' | 'VOIDED';

/**
 * Lithic's financial transaction has no SETTLING: its SETTLED means cleared, money moved. A BOUNCED
 * settlement (the funding source refused it) gave the money back: RETURNED, Lithic's status for a
 * movement sent back.
 */
const STATUS_OF: Readonly<Record<TransactionStatus, FinancialTransactionStatus>> = {
  PENDING: 'PENDING',
  VOIDED: 'VOIDED',
  SETTLING: 'SETTLED',
  SETTLED: 'SETTLED',
  BOUNCED: 'RETURNED',
  DECLINED: 'DECLINED',
  EXPIRED: 'EXPIRED',
};

export function financialTransactionStatus(status: TransactionStatus): FinancialTransactionStatus {
  return STATUS_OF[status];
}

/** Lithic names a void AUTHORIZATION_REVERSAL; every other event type of ours is one of Lithic's under the same name. */
export function financialEventType(type: TransactionEventType): Exclude<TransactionEventType, 'VOID'> | 'AUTHORIZATION_REVERSAL' {
  return type === 'VOID' ? 'AUTHORIZATION_REVERSAL' : type;
}

/** A financial transaction's and its events' result: APPROVED, or DECLINED for every decline reason. */
export function financialResult(result: TransactionResult): 'APPROVED' | 'DECLINED' {
  return result === 'APPROVED' ? 'APPROVED' : 'DECLINED';
}

/** The transaction's part of its account's pending and settled sums: the same figures a balance adds up. */
export function financialTransactionAmounts(transaction: ExistingTransaction): { pending: bigint; settled: bigint } {
  return { pending: pendingPart(transaction), settled: settledPart(transaction) };
}

/** The transaction statuses a financial transaction status stands for (a list filtered by it keeps these). */
export function transactionStatusesOf(status: FinancialTransactionStatus): TransactionStatus[] {
  return (Object.keys(STATUS_OF) as TransactionStatus[]).filter((ours) => STATUS_OF[ours] === status);
}
