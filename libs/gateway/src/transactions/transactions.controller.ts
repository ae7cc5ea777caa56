import { Param, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CallingProgram } from '@ledger/auth';
import { DEFAULT_PAGE_SIZE, ExpireAuthorizationCommand, GetTransactionQuery, SimulationResponse, ListTransactionsParams, ListTransactionsQuery, Page, TransactionPageModel, TransactionResponse, TransactionTokenParam } from '@ledger/contracts';
import { TimeTravel } from '../audit/time-travel';
import { ProgramApi, Route } from '../http/api-routes';
import { RequestInvalid } from '../http/errors';
import { emptyPage, pageRequest } from '../listing/paging';
import { commandOrigin } from '../http/command-origin';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { SimulatedWrites } from '../simulations/simulated-writes';

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
    private readonly writes: SimulatedWrites,
    private readonly acknowledger: WriteAcknowledger,
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

  /**
   * Lithic's expire_authorization: the authorization's hold is released whole (AUTHORIZATION_EXPIRY,
   * status EXPIRED) and its card counts it no more. Not a simulation, so not sandbox-only; written
   * like a void (one atomic write of the transaction and its card, a 5xx resolved before answering).
   */
  @Route('POST', ':transaction_token/expire_authorization', {
    summary: 'Expire a PENDING authorization: all that is pending is released, the transaction becomes EXPIRED (Lithic expireAuthorization)',
    answers: SimulationResponse,
    errors: [404, 409],
  })
  async expireAuthorization(@CallingProgram() programToken: string, @Req() request: FastifyRequest, @Param() { transaction_token }: TransactionTokenParam): Promise<SimulationResponse> {
    const origin = commandOrigin(programToken, request);
    // Ours, not the service's: should no answer come back, the event token is where to look.
    const eventToken = randomUUID();
    const accepted = await this.writes.execute(
      'authorization expiry',
      origin,
      { kind: 'movement', transactionToken: transaction_token, eventToken },
      new ExpireAuthorizationCommand(origin, transaction_token, undefined, eventToken),
    );
    await this.acknowledger.visible({ token: accepted.transactionToken, position: accepted.position });
    return { debugging_request_id: request.id };
  }
}
