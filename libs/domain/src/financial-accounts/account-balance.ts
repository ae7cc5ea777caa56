import { BALANCE_STATUSES, hasStatusIn } from '../transactions/transaction-balances';
import type { ExistingTransaction, Transaction } from '../transactions/transaction';

/**
 * A financial account's balance in Lithic's terms, in cents, from the transactions of its cards.
 *
 * The account starts at zero and holds no deposits (funding sources are drawn at settlement), so its
 * balance is the net of what its cards moved, from the account's side: money out is negative.
 * - `pending`: held by PENDING authorizations (what the ledger view calls pending; a pending
 *   credit counts negative there and here).
 * - `total`: what cleared, negated: a clearing lowers it, a return raises it.
 * - `available`: total less what is held, as Lithic defines it (total = available + pending).
 * Sums over any number of transactions may pass 2^53, so every figure is a bigint.
 */
export interface AccountBalance {
  readonly available: bigint;
  readonly pending: bigint;
  readonly total: bigint;
}

/** What a balance is made of: the ledger view's pending and settled sums over the same statuses. */
export interface BalanceSums {
  readonly pending: bigint;
  readonly settled: bigint;
}

export const NO_SUMS: BalanceSums = { pending: 0n, settled: 0n };

/** The sums with one more transaction counted, by the statuses the ledger view counts (BALANCE_STATUSES). */
export function addToSums(sums: BalanceSums, transaction: Transaction): BalanceSums {
  if (transaction.status === 'ABSENT') return sums;
  return { pending: sums.pending + pendingPart(transaction), settled: sums.settled + settledPart(transaction) };
}

/** What the transaction holds now: its amount while PENDING, nothing otherwise. */
export function pendingPart(transaction: ExistingTransaction): bigint {
  return hasStatusIn(BALANCE_STATUSES.pending, transaction.status) ? BigInt(transaction.amount) : 0n;
}

/** What the transaction moved for good: its settled amount once cleared (negative for money back), until it bounces. */
export function settledPart(transaction: ExistingTransaction): bigint {
  return hasStatusIn(BALANCE_STATUSES.settled, transaction.status) ? BigInt(transaction.settledAmount) : 0n;
}

export function accountBalance(sums: BalanceSums): AccountBalance {
  const total = -sums.settled;
  return { available: total - sums.pending, pending: sums.pending, total };
}

/** The balance of the account (or card) these transactions are all of its transactions of. */
export function balanceOf(transactions: Iterable<Transaction>): AccountBalance {
  let sums = NO_SUMS;
  for (const transaction of transactions) sums = addToSums(sums, transaction);
  return accountBalance(sums);
}
