import type { TransactionStatus } from './transaction-values';

/**
 * Which balance a transaction's money is in, by its status: the one table that the platform limits,
 * the audit balances and the ledger check all read. VOIDED, EXPIRED and DECLINED hold no money.
 */
export const BALANCE_STATUSES = {
  /** Authorized and not yet cleared: counts its amount. */
  pending: ['PENDING'],
  /** Cleared, settling or settled: counts its settled amount (a return counts negative). */
  settled: ['SETTLING', 'SETTLED'],
  /** Of the settled, what settlement has completed. */
  settlementComplete: ['SETTLED'],
  /** Settlements that bounced against the funding source. */
  bounced: ['BOUNCED'],
} as const satisfies Readonly<Record<string, readonly TransactionStatus[]>>;

/**
 * What counts as spend against a program's platform limits: approved and neither voided, declined
 * nor bounced, pending or cleared (a return is cleared and counts negative).
 */
export const COUNTED_STATUSES: readonly TransactionStatus[] = [...BALANCE_STATUSES.pending, ...BALANCE_STATUSES.settled];

export function hasStatusIn(statuses: readonly TransactionStatus[], status: TransactionStatus): boolean {
  return statuses.includes(status);
}
