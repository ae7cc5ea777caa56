import { Inject, Injectable } from '@nestjs/common';
import type { FinancialTransactionResponse, ListFinancialTransactionsParams, Page, PageRequest } from '@ledger/contracts';
import {
  type ExistingTransaction,
  financialEventType,
  financialResult,
  financialTransactionAmounts,
  financialTransactionStatus,
  TransactionNotFound,
  transactionStatusesOf,
} from '@ledger/domain';
import { type Prisma, type ReadModelClient, type Transaction as TransactionRow, transactionFromRow } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { createdBetween, OLDEST_FIRST, tablePage } from '../listing/paging';

/** Which card transactions a list shows: the program's, or one card's, filtered as Lithic filters. */
export interface FinancialTransactionFilter {
  readonly programToken: string;
  readonly cardToken?: string;
  readonly params: ListFinancialTransactionsParams;
}

/**
 * Card transactions as Lithic's financial transactions (category CARD), read from the transactions
 * read model: one per transaction, under its token, oldest first like every list here.
 */
@Injectable()
export class CardFinancialTransactions {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  list({ programToken, cardToken, params }: FinancialTransactionFilter, paging: PageRequest): Promise<Page<FinancialTransactionResponse>> {
    const scope: Prisma.TransactionWhereInput = { programToken, ...(cardToken === undefined ? {} : { cardToken }) };
    // Only card transactions exist here: any other category lists nothing.
    const noOtherCategory: Prisma.TransactionWhereInput = params.category === undefined || params.category === 'CARD' ? {} : { token: { in: [] } };
    const where: Prisma.TransactionWhereInput = {
      ...scope,
      ...noOtherCategory,
      created: createdBetween({ createdFrom: params.begin, createdBefore: params.end }),
      ...(params.result === undefined ? {} : params.result === 'APPROVED' ? { result: 'APPROVED' } : { result: { not: 'APPROVED' } }),
      ...(params.status === undefined ? {} : { status: { in: transactionStatusesOf(params.status) } }),
    };
    return tablePage(paging, this.readModel.transaction, {
      order: OLDEST_FIRST,
      noun: 'financial transaction',
      where,
      scope,
      present: (rows: TransactionRow[]) => Promise.resolve(rows.map(presentRow)),
    });
  }

  async get(programToken: string, token: string, cardToken?: string): Promise<FinancialTransactionResponse> {
    const row = await this.readModel.transaction.findFirst({ where: { token, programToken, ...(cardToken === undefined ? {} : { cardToken }) } });
    if (!row) throw new TransactionNotFound(token);
    return presentRow(row);
  }
}

function presentRow(row: TransactionRow): FinancialTransactionResponse {
  return presentFinancialTransaction(transactionFromRow(row) as ExistingTransaction, row.updated);
}

export function presentFinancialTransaction(transaction: ExistingTransaction, updated: Date): FinancialTransactionResponse {
  const { pending, settled } = financialTransactionAmounts(transaction);
  return {
    token: transaction.transactionToken,
    category: 'CARD',
    created: new Date(transaction.created).toISOString(),
    currency: 'USD',
    descriptor: transaction.merchant.descriptor,
    events: transaction.events.map((entry) => ({
      token: entry.token,
      amount: entry.amount,
      created: new Date(entry.created).toISOString(),
      result: financialResult(entry.result),
      type: financialEventType(entry.type),
    })),
    // One transaction's amounts are its own, never sums: numbers, as on the transaction.
    pending_amount: Number(pending),
    result: financialResult(transaction.result),
    settled_amount: Number(settled),
    status: financialTransactionStatus(transaction.status),
    updated: updated.toISOString(),
  };
}
