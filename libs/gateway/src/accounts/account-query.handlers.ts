import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  AccountResponse,
  AccountSpendLimitsResponse,
  FundingSourceResponse,
  GetAccountQuery,
  GetAccountSpendLimitsQuery,
  GetFundingSourceQuery,
  isoSeconds,
  ListAccountsQuery,
  ListFundingSourcesQuery,
  Page,
} from '@ledger/contracts';
import { FundingSourceNotFound, NotFound, PROGRAM_SPEND_WINDOWS, programSpendStanding, programWindowStart, ProgramWindowName, ProgramWindowSpend, spendAfterCredits, windowsToTally } from '@ledger/domain';
import { businessTime, type PipelineEnvironment } from '@ledger/event-store';
import { presentFunding, programSpendTally, type Program, type ReadModelClient } from '@ledger/read-model';
import { PIPELINE_ENVIRONMENT, READ_MODEL } from '@ledger/runtime';
import { ownedRow } from '../listing/owned-row';
import { createdBetween, OLDEST_FIRST, tablePage } from '../listing/paging';

export class AccountNotFound extends NotFound {
  constructor(accountToken: string) {
    super(`Account ${accountToken} not found`, 'account_token');
  }
}

function presentAccount(program: Program): AccountResponse {
  return {
    token: program.token,
    name: program.name,
    state: program.state,
    created: isoSeconds(program.created),
    spend_limit: {
      transaction: Number(program.spendLimitTransaction),
      weekly: Number(program.spendLimitWeekly),
      monthly: Number(program.spendLimitMonthly),
      daily: Number(program.spendLimitDaily),
      lifetime: Number(program.spendLimitLifetime),
    },
    velocity_limit:
      program.velocityMaxAuthorizations === null || program.velocityWindowSeconds === null
        ? null
        : { max_authorizations: program.velocityMaxAuthorizations, window_seconds: program.velocityWindowSeconds },
    blocked_merchants: program.blockedMerchants,
  };
}

/** An account is the calling program itself; any other token is not found. */
async function ownAccount(readModel: ReadModelClient, programToken: string, accountToken: string): Promise<Program> {
  return ownedRow(accountToken === programToken ? readModel.program.findUnique({ where: { token: programToken } }) : Promise.resolve(null), () => new AccountNotFound(accountToken));
}

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery, AccountResponse> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, accountToken }: GetAccountQuery): Promise<AccountResponse> {
    return presentAccount(await ownAccount(this.readModel, programToken, accountToken));
  }
}

/** A list of one: the calling program. Paged like every list, so a cursor naming any other token is refused. */
@QueryHandler(ListAccountsQuery)
export class ListAccountsHandler implements IQueryHandler<ListAccountsQuery, Page<AccountResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, filter, paging }: ListAccountsQuery): Promise<Page<AccountResponse>> {
    return tablePage(paging, this.readModel.program, {
      order: OLDEST_FIRST,
      noun: 'account',
      where: { token: programToken, created: createdBetween(filter) },
      scope: { token: programToken },
      present: async (rows) => rows.map(presentAccount),
    });
  }
}

/**
 * The platform limits' standing, tallied by the same query and rule as the authorization's check,
 * at the program's business time (its test clock, when advanced).
 */
@QueryHandler(GetAccountSpendLimitsQuery)
export class GetAccountSpendLimitsHandler implements IQueryHandler<GetAccountSpendLimitsQuery, AccountSpendLimitsResponse> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
  ) {}

  async execute({ programToken, accountToken }: GetAccountSpendLimitsQuery): Promise<AccountSpendLimitsResponse> {
    const program = await ownAccount(this.readModel, programToken, accountToken);
    const now = await businessTime(this.env, programToken);
    const limits = { transaction: Number(program.spendLimitTransaction), weekly: Number(program.spendLimitWeekly), monthly: Number(program.spendLimitMonthly) };
    const account = { daily: Number(program.spendLimitDaily), lifetime: Number(program.spendLimitLifetime) };
    const spent: Partial<Record<ProgramWindowName, bigint>> = {};
    for (const window of windowsToTally(limits, account)) {
      spent[window] = spendAfterCredits(await programSpendTally(this.readModel, programToken, programWindowStart(PROGRAM_SPEND_WINDOWS[window], now)));
    }
    const standing = programSpendStanding(limits, account, spent satisfies Partial<ProgramWindowSpend>);
    const answer: AccountSpendLimitsResponse = { available_spend_limit: {}, spend_limit: {}, spend_velocity: {} };
    for (const [window, { limit, spent, available }] of Object.entries(standing) as [ProgramWindowName, NonNullable<(typeof standing)['weekly']>][]) {
      answer.available_spend_limit[window] = Number(available);
      answer.spend_limit[window] = limit;
      answer.spend_velocity[window] = spent;
    }
    return answer;
  }
}

@QueryHandler(ListFundingSourcesQuery)
export class ListFundingSourcesHandler implements IQueryHandler<ListFundingSourcesQuery, Page<FundingSourceResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, paging }: ListFundingSourcesQuery): Promise<Page<FundingSourceResponse>> {
    return tablePage(paging, this.readModel.fundingSource, {
      order: OLDEST_FIRST,
      noun: 'funding source',
      where: { programToken },
      scope: { programToken },
      present: async (rows) => rows.map(presentFunding),
    });
  }
}

@QueryHandler(GetFundingSourceQuery)
export class GetFundingSourceHandler implements IQueryHandler<GetFundingSourceQuery, FundingSourceResponse> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, fundingToken }: GetFundingSourceQuery): Promise<FundingSourceResponse> {
    const source = await ownedRow(this.readModel.fundingSource.findFirst({ where: { programToken, token: fundingToken } }), () => new FundingSourceNotFound(fundingToken));
    return presentFunding(source);
  }
}
