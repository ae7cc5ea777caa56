import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import { DEFAULT_PAGE_SIZE, GetTransactionQuery, ListTransactionsParams, ListTransactionsQuery, Page, TransactionResponse, TransactionTokenParam } from '@ledger/contracts';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { TimeTravel } from '../audit/time-travel';
import { ApiErrors, TransactionModel, TransactionPageModel } from '../http/openapi-models';
import { startOfDay } from '../http/command-origin';
import { RequestInvalid } from '../http/errors';

/** Both spellings of a parameter may be sent; if both are, they must agree. */
function either<T>(underscored: T | undefined, runTogether: T | undefined, names: string): T | undefined {
  if (underscored !== undefined && runTogether !== undefined && underscored !== runTogether) {
    throw new RequestInvalid(`${names} name the same parameter and differ`);
  }
  return underscored ?? runTogether;
}

@ApiTags('transactions')
@ApiSecurity('api-key')
@ApiErrors(400, 401)
@Controller('v1/transactions')
@UseGuards(ApiKeyGuard)
export class TransactionsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly timeTravel: TimeTravel,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the program\'s transactions, oldest first (spec 4.8); `as_of` shows them as they were then' })
  @ApiOkResponse({ type: TransactionPageModel })
  list(@CallingProgram() programToken: string, @Query() params: ListTransactionsParams): Promise<Page<TransactionResponse>> {
    const filter = {
      accountToken: either(params.account_token, params.accounttoken, 'account_token and accounttoken'),
      cardToken: either(params.card_token, params.cardtoken, 'card_token and cardtoken'),
      result: params.result,
      createdFrom: params.begin ? startOfDay(params.begin) : undefined,
      createdBefore: params.end ? startOfDay(params.end) : undefined,
    };
    const page = params.page ?? 1;
    const pageSize = either(params.page_size, params.pagesize, 'page_size and pagesize') ?? DEFAULT_PAGE_SIZE;
    if (params.as_of !== undefined) {
      if (filter.accountToken !== undefined && filter.accountToken !== programToken) return Promise.resolve({ data: [], page, total_entries: 0, total_pages: 0 });
      return this.timeTravel.transactionPage(programToken, filter, page, pageSize, new Date(params.as_of));
    }
    return this.queries.execute(new ListTransactionsQuery(programToken, filter, page, pageSize));
  }

  @Get(':transaction_token')
  @ApiOperation({ summary: 'Get one transaction' })
  @ApiOkResponse({ type: TransactionModel })
  @ApiErrors(404)
  get(@CallingProgram() programToken: string, @Param() { transaction_token }: TransactionTokenParam): Promise<TransactionResponse> {
    return this.queries.execute(new GetTransactionQuery(programToken, transaction_token));
  }
}
