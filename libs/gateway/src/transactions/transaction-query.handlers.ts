import { Inject } from '@nestjs/common';
import { Pool } from 'pg';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetTransactionQuery, ListTransactionsQuery, Page, TransactionResponse } from '@ledger/contracts';
import { TransactionNotFound } from '@ledger/domain';
import { presentTransaction, type Prisma, type ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { CardPresenter } from '../cards/card-presenter';
import { ownedRow } from '../listing/owned-row';
import { createdBetween, emptyPage, listPage } from '../listing/paging';
import { presentCards } from '../cards/card-query.handlers';
import { transactionPage } from './transaction-page-query';

type TransactionRow = Awaited<ReturnType<ReadModelClient['transaction']['findMany']>>[number];

/** The transactions as the API shows them, each with its card in full. */
async function presentTransactions(readModel: ReadModelClient, cards: CardPresenter, rows: TransactionRow[]) {
  // Both reads at once. A card may have moved to another funding source since, so each transaction
  // shows its own; its card's is nearly always the same one, so presenting the cards reads no more.
  const [cardRows, sources] = await Promise.all([
    readModel.card.findMany({ where: { token: { in: [...new Set(rows.map((row) => row.cardToken))] } } }),
    readModel.fundingSource.findMany({ where: { token: { in: [...new Set(rows.map((row) => row.fundingToken))] } } }),
  ]);
  const byToken = new Map((await presentCards(readModel, cards, cardRows, sources)).map((card) => [card.token, card]));
  const fundingTypes = new Map(sources.map((source) => [source.token, source.type]));
  return rows.map((row) => {
    const card = byToken.get(row.cardToken);
    if (!card) throw new Error(`Transaction ${row.token} names card ${row.cardToken}, which the read model lacks`);
    return presentTransaction(row, card, fundingTypes.get(row.fundingToken) ?? card.funding.type);
  });
}

@QueryHandler(GetTransactionQuery)
export class GetTransactionHandler implements IQueryHandler<GetTransactionQuery, TransactionResponse> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly cards: CardPresenter,
  ) {}

  async execute({ programToken, transactionToken }: GetTransactionQuery): Promise<TransactionResponse> {
    const row = await ownedRow(this.readModel.transaction.findFirst({ where: { token: transactionToken, programToken } }), () => new TransactionNotFound(transactionToken));
    const [transaction] = await presentTransactions(this.readModel, this.cards, [row]);
    return transaction;
  }
}

/** Oldest first, like the card list: page 3 of 5 transactions with page_size 2 holds the fifth; cursors walk the same order. */
@QueryHandler(ListTransactionsQuery)
export class ListTransactionsHandler implements IQueryHandler<ListTransactionsQuery, Page<TransactionResponse>> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(Pool) private readonly pool: Pool,
    private readonly cards: CardPresenter,
  ) {}

  async execute({ programToken, filter, paging }: ListTransactionsQuery): Promise<Page<TransactionResponse>> {
    if (filter.accountToken !== undefined && filter.accountToken !== programToken) return emptyPage(paging);
    const where = {
      programToken,
      ...(filter.cardToken ? { cardToken: filter.cardToken } : {}),
      ...(filter.result === 'APPROVED' ? { result: 'APPROVED' } : filter.result === 'DECLINED' ? { result: { not: 'APPROVED' } } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      created: createdBetween(filter),
    };
    return listPage(paging, {
      noun: 'transaction',
      count: () => this.total(programToken, filter, where),
      read: (read) => transactionPage(this.pool, { programToken, filter, ...read }),
      keyOf: (token: string) => this.readModel.transaction.findFirst({ where: { programToken, token }, select: { created: true, token: true } }).then((row) => row && { at: row.created, tie: row.token }),
      present: (rows) => presentTransactions(this.readModel, this.cards, rows),
    });
  }


  /**
   * Without a time window or a status the total is the projector's running count (of the program, or of the card),
   * read in one probe; counting a million rows per page would cost more than the page itself.
   */
  private async total(programToken: string, filter: ListTransactionsQuery['filter'], where: Prisma.TransactionWhereInput): Promise<number> {
    if (filter.createdFrom || filter.createdBefore || filter.status) return this.readModel.transaction.count({ where });
    const counted = await this.readModel.transactionCount.findUnique({ where: { scopeToken: filter.cardToken ?? programToken } });
    if (!counted || counted.programToken !== programToken) return 0;
    const { approved, declined } = counted;
    // Counts of transactions, one per appended event: far below 2^53, so a number holds them exactly.
    return Number(filter.result === 'APPROVED' ? approved : filter.result === 'DECLINED' ? declined : approved + declined);
  }
}
