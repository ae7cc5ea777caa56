import { Param, Query } from '@nestjs/common';
import { CallingProgram } from '@ledger/auth';
import {
  BalanceEntryListModel,
  type BalanceEntryResponse,
  BalanceMomentParams,
  CursorPageParams,
  FinancialAccountBalanceListModel,
  type FinancialAccountBalanceResponse,
  FinancialAccountListModel,
  FinancialAccountResponse,
  FinancialAccountTokenParam,
  FinancialTransactionResponse,
  FinancialTransactionTokenParams,
  ListBalancesParams,
  ListFinancialAccountsParams,
  ListFinancialTransactionsParams,
  ListStatementsParams,
  Page,
  StatementLineItemPageModel,
  type StatementLineItemResponse,
  StatementPageModel,
  StatementResponse,
  StatementTokenParams,
  FinancialTransactionPageModel,
} from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { pageRequest } from '../listing/paging';
import { AccountBalances, presentAccountBalance } from './account-balances';
import { AccountStatements } from './account-statements';
import { balanceMoment } from './balance-moment';
import { CardFinancialTransactions } from './card-financial-transactions';
import { presentFinancialAccount, ProgramFinancialAccounts } from './program-financial-accounts';

/**
 * Lithic's financial accounts over the ledger: the program's ISSUING account, its balances (now, or
 * at a moment), its card transactions as financial transactions and its monthly statements, all
 * derived from the events
 * (docs/decisions.md, "Financial accounts and balances").
 */
@ProgramApi('financial-accounts', 'v1', { errors: [404] })
export class FinancialAccountsController {
  constructor(
    private readonly accounts: ProgramFinancialAccounts,
    private readonly balances: AccountBalances,
    private readonly transactions: CardFinancialTransactions,
    private readonly statements: AccountStatements,
  ) {}

  @Route('GET', 'financial_accounts', { summary: "The program's financial accounts: its ISSUING account", answers: FinancialAccountListModel })
  async list(@CallingProgram() programToken: string, @Query() params: ListFinancialAccountsParams): Promise<{ data: FinancialAccountResponse[] }> {
    const account = await this.accounts.issuing(programToken);
    const matches =
      (params.account_token === undefined || params.account_token === programToken) &&
      params.business_account_token === undefined &&
      (params.type === undefined || params.type === 'ISSUING');
    return { data: matches ? [presentFinancialAccount(account)] : [] };
  }

  @Route('GET', 'financial_accounts/:financial_account_token', { summary: 'One of the program\'s financial accounts', answers: FinancialAccountResponse })
  async get(@CallingProgram() programToken: string, @Param() { financial_account_token }: FinancialAccountTokenParam): Promise<FinancialAccountResponse> {
    return presentFinancialAccount(await this.accounts.owned(programToken, financial_account_token));
  }

  @Route('GET', 'financial_accounts/:financial_account_token/balances', {
    summary: "The account's balance, now or at `balance_date` (`as_of`), from the events",
    answers: FinancialAccountBalanceListModel,
  })
  async accountBalances(
    @CallingProgram() programToken: string,
    @Param() { financial_account_token }: FinancialAccountTokenParam,
    @Query() params: BalanceMomentParams,
  ): Promise<{ data: FinancialAccountBalanceResponse[] }> {
    const account = await this.accounts.owned(programToken, financial_account_token);
    return { data: [presentAccountBalance(account, await this.balances.of({ programToken }, balanceMoment(params)))] };
  }

  @Route('GET', 'balances', { summary: "The balances of the program's financial accounts, now or at `balance_date` (`as_of`)", answers: BalanceEntryListModel })
  async listBalances(@CallingProgram() programToken: string, @Query() params: ListBalancesParams): Promise<{ data: BalanceEntryResponse[] }> {
    const matches =
      (params.account_token === undefined || params.account_token === programToken) &&
      params.business_account_token === undefined &&
      (params.financial_account_type === undefined || params.financial_account_type === 'ISSUING');
    if (!matches) return { data: [] };
    const account = await this.accounts.issuing(programToken);
    const { token, type, ...figures } = presentAccountBalance(account, await this.balances.of({ programToken }, balanceMoment(params)));
    return { data: [{ financial_account_token: token, financial_account_type: type, ...figures }] };
  }

  @Route('GET', 'financial_accounts/:financial_account_token/financial_transactions', {
    summary: "The account's card transactions as financial transactions, oldest first",
    answers: FinancialTransactionPageModel,
  })
  async listTransactions(
    @CallingProgram() programToken: string,
    @Param() { financial_account_token }: FinancialAccountTokenParam,
    @Query() params: ListFinancialTransactionsParams,
  ): Promise<Page<FinancialTransactionResponse>> {
    await this.accounts.owned(programToken, financial_account_token);
    return this.transactions.list({ programToken, params }, pageRequest(params));
  }

  @Route('GET', 'financial_accounts/:financial_account_token/financial_transactions/:financial_transaction_token', {
    summary: 'One card transaction of the account as a financial transaction',
    answers: FinancialTransactionResponse,
  })
  async getTransaction(@CallingProgram() programToken: string, @Param() { financial_account_token, financial_transaction_token }: FinancialTransactionTokenParams): Promise<FinancialTransactionResponse> {
    await this.accounts.owned(programToken, financial_account_token);
    return this.transactions.get(programToken, financial_transaction_token);
  }

  @Route('GET', 'financial_accounts/:financial_account_token/statements', {
    summary: "The account's statements: one per calendar month (UTC) that has ended, oldest first",
    answers: StatementPageModel,
  })
  async listStatements(
    @CallingProgram() programToken: string,
    @Param() { financial_account_token }: FinancialAccountTokenParam,
    @Query() params: ListStatementsParams,
  ): Promise<Page<StatementResponse>> {
    const account = await this.accounts.owned(programToken, financial_account_token);
    return this.statements.list(account, params, pageRequest(params));
  }

  @Route('GET', 'financial_accounts/:financial_account_token/statements/:statement_token', { summary: 'One statement of the account', answers: StatementResponse })
  async getStatement(@CallingProgram() programToken: string, @Param() { financial_account_token, statement_token }: StatementTokenParams): Promise<StatementResponse> {
    return this.statements.get(await this.accounts.owned(programToken, financial_account_token), statement_token);
  }

  @Route('GET', 'financial_accounts/:financial_account_token/statements/:statement_token/line_items', {
    summary: "The statement's line items: each change of the total balance in its period, oldest first",
    answers: StatementLineItemPageModel,
  })
  async listLineItems(
    @CallingProgram() programToken: string,
    @Param() { financial_account_token, statement_token }: StatementTokenParams,
    @Query() params: CursorPageParams,
  ): Promise<Page<StatementLineItemResponse>> {
    return this.statements.lineItems(await this.accounts.owned(programToken, financial_account_token), statement_token, pageRequest(params));
  }
}
