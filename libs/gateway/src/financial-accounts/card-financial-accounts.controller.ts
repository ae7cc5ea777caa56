import { Inject, Param, Query } from '@nestjs/common';
import { CallingProgram } from '@ledger/auth';
import {
  BalanceMomentParams,
  CardFinancialTransactionTokenParams,
  CardTokenParam,
  FinancialAccountBalanceListModel,
  type FinancialAccountBalanceResponse,
  FinancialTransactionPageModel,
  FinancialTransactionResponse,
  ListFinancialTransactionsParams,
  Page,
} from '@ledger/contracts';
import { CardNotFound } from '@ledger/domain';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { ProgramApi, Route } from '../http/api-routes';
import { pageRequest } from '../listing/paging';
import { AccountBalances, presentAccountBalance } from './account-balances';
import { balanceMoment } from './balance-moment';
import { CardFinancialTransactions } from './card-financial-transactions';
import { ProgramFinancialAccounts } from './program-financial-accounts';

/**
 * One card's part of the program's ISSUING account: its balance (the same sums as the card's ledger
 * view, `/balance`) and its transactions as financial transactions.
 */
@ProgramApi('financial-accounts', 'v1', { errors: [404] })
export class CardFinancialAccountsController {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly accounts: ProgramFinancialAccounts,
    private readonly balances: AccountBalances,
    private readonly transactions: CardFinancialTransactions,
  ) {}

  @Route('GET', 'cards/:card_token/balances', {
    summary: "The card's balance in its program's ISSUING account, now or at `balance_date` (`as_of`)",
    answers: FinancialAccountBalanceListModel,
  })
  async cardBalances(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam, @Query() params: BalanceMomentParams): Promise<{ data: FinancialAccountBalanceResponse[] }> {
    await this.ownedCard(programToken, card_token);
    const account = await this.accounts.issuing(programToken);
    return { data: [presentAccountBalance(account, await this.balances.of({ programToken, cardToken: card_token }, balanceMoment(params)))] };
  }

  @Route('GET', 'cards/:card_token/financial_transactions', { summary: "The card's transactions as financial transactions, oldest first", answers: FinancialTransactionPageModel })
  async listCardTransactions(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam, @Query() params: ListFinancialTransactionsParams): Promise<Page<FinancialTransactionResponse>> {
    await this.ownedCard(programToken, card_token);
    return this.transactions.list({ programToken, cardToken: card_token, params }, pageRequest(params));
  }

  @Route('GET', 'cards/:card_token/financial_transactions/:financial_transaction_token', {
    summary: "One of the card's transactions as a financial transaction",
    answers: FinancialTransactionResponse,
  })
  async getCardTransaction(@CallingProgram() programToken: string, @Param() { card_token, financial_transaction_token }: CardFinancialTransactionTokenParams): Promise<FinancialTransactionResponse> {
    await this.ownedCard(programToken, card_token);
    return this.transactions.get(programToken, financial_transaction_token, card_token);
  }

  private async ownedCard(programToken: string, cardToken: string): Promise<void> {
    if (!(await this.readModel.card.findFirst({ where: { token: cardToken, programToken }, select: { token: true } }))) throw new CardNotFound(cardToken);
  }
}
