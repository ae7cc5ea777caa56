import type { ExistingProgram } from '../programs/program';
import { fundingStateOf } from '../programs/program';
import { decideTransaction, ownedTransaction, type Transaction, type TransactionEvent } from '../transactions/transaction';

/**
 * The settlement step: a SETTLING transaction settles when its funding source, as the program has it
 * now, can be debited, and bounces otherwise. A transaction that is not the program's is not found
 * before its funding is looked at.
 */
export function decideSettlement(transactionToken: string, transaction: Transaction, program: ExistingProgram, now: Date): TransactionEvent[] {
  const existing = ownedTransaction(transaction, transactionToken, program.programToken);
  const fundingState = fundingStateOf(program, existing.fundingToken);
  return decideTransaction({ type: 'SettleTransaction', transactionToken, programToken: program.programToken, fundingState }, transaction, { now });
}
