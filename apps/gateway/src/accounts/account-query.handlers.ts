import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountResponse, FundingSourceResponse, GetAccountQuery, isoSeconds, ListFundingSourcesQuery } from '@ledger/contracts';
import { NotFound } from '@ledger/domain';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { CardPresenter } from '../cards/card-presenter';

export class AccountNotFound extends NotFound {
  constructor(accountToken: string) {
    super(`Account ${accountToken} not found`, 'account_token');
  }
}

/** An account is the calling program itself; any other token is not found. */
@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery, AccountResponse> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, accountToken }: GetAccountQuery): Promise<AccountResponse> {
    const program = accountToken === programToken ? await this.readModel.program.findUnique({ where: { token: programToken } }) : null;
    if (!program) throw new AccountNotFound(accountToken);
    return {
      token: program.token,
      name: program.name,
      state: program.state,
      created: isoSeconds(program.created),
      spend_limit: {
        transaction: Number(program.spendLimitTransaction),
        weekly: Number(program.spendLimitWeekly),
        monthly: Number(program.spendLimitMonthly),
        // Lithic's account limits that the program has no rule for: 0, which Lithic reads as none.
        daily: 0,
        lifetime: 0,
      },
      velocity_limit:
        program.velocityMaxAuthorizations === null || program.velocityWindowSeconds === null
          ? null
          : { max_authorizations: program.velocityMaxAuthorizations, window_seconds: program.velocityWindowSeconds },
      blocked_merchants: program.blockedMerchants,
    };
  }
}

@QueryHandler(ListFundingSourcesQuery)
export class ListFundingSourcesHandler implements IQueryHandler<ListFundingSourcesQuery, FundingSourceResponse[]> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly presenter: CardPresenter,
  ) {}

  async execute({ programToken }: ListFundingSourcesQuery): Promise<FundingSourceResponse[]> {
    const sources = await this.readModel.fundingSource.findMany({ where: { programToken }, orderBy: [{ created: 'asc' }, { token: 'asc' }] });
    return sources.map((source) => this.presenter.funding(source));
  }
}
