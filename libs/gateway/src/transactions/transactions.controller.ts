import { Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { DEFAULT_PAGE_SIZE, GetTransactionQuery, ListTransactionsParams, ListTransactionsQuery, Page, TransactionPageModel, TransactionResponse, TransactionTokenParam } from '@ledger/contracts';
import { TimeTravel } from '../audit/time-travel';
import { ProgramApi, Route } from '../http/api-routes';
import { RequestInvalid } from '../http/errors';
import { emptyPage, pageRequest } from '../listing/paging';

/** Both spellings of a parameter may be sent; if both are, they must agree. */
function either<T>(underscored: T | undefined, runTogether: T | undefined, names: string): T | undefined {
  if (underscored !== undefined && runTogether !== undefined && underscored !== runTogether) {
    throw new RequestInvalid(`${names} name the same parameter and differ`);
  }
  return underscored ?? runTogether;
}

@ProgramApi('transactions', 'v1/transactions')
export class TransactionsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly timeTravel: TimeTravel,
  ) {}

  @Route('GET', '', { summary: 'List the program\'s transactions, oldest first (spec 4.8); `as_of` shows them as they were then', answers: TransactionPageModel })
  list(@CallingProgram() programToken: string, @Query() params: ListTransactionsParams): Promise<Page<TransactionResponse>> {
    const filter = {
      accountToken: either(params.account_token, params.accounttoken, 'account_token and accounttoken'),
      cardToken: either(params.card_token, params.cardtoken, 'card_token and cardtoken'),
      result: params.result,
      status: params.status,
      createdFrom: params.begin,
      createdBefore: params.end,
    };
    const pageSize = either(params.page_size, params.pagesize, 'page_size and pagesize') ?? DEFAULT_PAGE_SIZE;
    const paging = pageRequest(params, pageSize);
    if (params.as_of !== undefined) {
      // Time travel folds every matching stream into memory and pages that, by page or by cursor.
      if (filter.accountToken !== undefined && filter.accountToken !== programToken) return Promise.resolve(emptyPage(paging));
      return this.timeTravel.transactionPage(programToken, filter, paging, params.as_of);
    }
    return this.queries.execute(new ListTransactionsQuery(programToken, filter, paging));
  }

  @Route('GET', ':transaction_token', { summary: 'Get one transaction', answers: TransactionResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { transaction_token }: TransactionTokenParam): Promise<TransactionResponse> {
    return this.queries.execute(new GetTransactionQuery(programToken, transaction_token));
  }
}
