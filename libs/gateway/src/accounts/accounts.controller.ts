import { Body, Param, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { AccountPageModel, AccountResponse, AccountSpendLimitsResponse, AccountTokenParam, AddFundingSourceCommand, CommandAccepted, CommandOrigin, CreateFundingSourceRequest, CursorPageParams, FundingSourcePageModel, FundingSourceResponse, FundingTokenParam, GetAccountQuery, GetAccountSpendLimitsQuery, GetFundingSourceQuery, ListAccountsQuery, ListFundingSourcesQuery, Page, PagedDateRangeParams, UpdateAccountRequest, UpdateFundingSourceCommand, UpdateFundingSourceRequest, UpdateProgramSettingsCommand } from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { RequestInvalid } from '../http/errors';
import { pageRequest } from '../listing/paging';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { CallerOrigin } from '../http/command-origin';
import { AccountNotFound } from './account-query.handlers';

/**
 * The platform limits the update names: ours under spend_limit, and Lithic's monthly_spend_limit for
 * the same monthly limit (both may be sent if they agree). Lithic's daily and lifetime limits are
 * the account limits beside them (accountLimitsOf).
 */
function spendLimitsOf(body: UpdateAccountRequest): UpdateAccountRequest['spend_limit'] {
  const ours = body.spend_limit?.monthly;
  const lithics = body.monthly_spend_limit;
  if (ours !== undefined && lithics !== undefined && ours !== lithics) throw new RequestInvalid('spend_limit.monthly and monthly_spend_limit name the same limit and differ');
  if (lithics === undefined) return body.spend_limit;
  return { ...body.spend_limit, monthly: lithics };
}

/** Lithic's daily and lifetime account limits, when the update names either. */
function accountLimitsOf(body: UpdateAccountRequest): { daily?: number; lifetime?: number } | undefined {
  if (body.daily_spend_limit === undefined && body.lifetime_spend_limit === undefined) return undefined;
  return { daily: body.daily_spend_limit, lifetime: body.lifetime_spend_limit };
}

/**
 * Program settings and funding sources, which the spec leaves unshown: an account here is the
 * program (as Lithic's account_token names the entity cards belong to). These settings are what
 * the platform-level decline reasons are provoked with (docs/declines.md).
 */
@ProgramApi('accounts', 'v1')
export class AccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  @Route('GET', 'accounts', { summary: 'The calling program\'s account (an account is the program): a list of one, paged like every list', answers: AccountPageModel })
  list(@CallingProgram() programToken: string, @Query() params: PagedDateRangeParams): Promise<Page<AccountResponse>> {
    return this.queries.execute(new ListAccountsQuery(programToken, { createdFrom: params.begin, createdBefore: params.end }, pageRequest(params)));
  }

  @Route('GET', 'accounts/:account_token/spend_limits', {
    summary: 'Lithic\'s account spend limits: each platform window\'s limit, what counts against it and what is left',
    answers: AccountSpendLimitsResponse,
    errors: [404],
  })
  spendLimits(@CallingProgram() programToken: string, @Param() { account_token }: AccountTokenParam): Promise<AccountSpendLimitsResponse> {
    return this.queries.execute(new GetAccountSpendLimitsQuery(programToken, account_token));
  }

  @Route('GET', 'accounts/:account_token', { summary: 'Get the program\'s account', answers: AccountResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { account_token }: AccountTokenParam): Promise<AccountResponse> {
    return this.queries.execute(new GetAccountQuery(programToken, account_token));
  }

  @Route('PATCH', 'accounts/:account_token', {
    summary: 'Update the program\'s settings: state, platform spend limits, velocity rule, blocked merchants',
    answers: AccountResponse,
    errors: [404, 409],
  })
  async update(@CallerOrigin() origin: CommandOrigin, @Param() { account_token }: AccountTokenParam, @Body() body: UpdateAccountRequest): Promise<AccountResponse> {
    const { programToken } = origin;
    if (account_token !== programToken) throw new AccountNotFound(account_token);
    const accepted = await this.commands.execute<UpdateProgramSettingsCommand, CommandAccepted>(
      new UpdateProgramSettingsCommand(origin, {
        state: body.state,
        spendLimits: spendLimitsOf(body),
        accountSpendLimits: accountLimitsOf(body),
        velocityRule:
          body.velocity_limit === undefined
            ? undefined
            : body.velocity_limit === null
              ? null
              : { maxAuthorizations: body.velocity_limit.max_authorizations, windowSeconds: body.velocity_limit.window_seconds },
        blockedMerchants: body.blocked_merchants,
      }),
    );
    return this.acknowledger.answer(accepted, () => this.queries.execute(new GetAccountQuery(programToken, programToken)));
  }

  @Route('GET', 'funding_sources', { summary: 'List the program\'s funding sources, oldest first', answers: FundingSourcePageModel })
  fundingSources(@CallingProgram() programToken: string, @Query() params: CursorPageParams): Promise<Page<FundingSourceResponse>> {
    return this.queries.execute(new ListFundingSourcesQuery(programToken, pageRequest(params)));
  }

  @Route('POST', 'funding_sources', { summary: 'Add a funding source (a bank account; only its last four digits are kept)', answers: FundingSourceResponse, errors: [409] })
  async addFundingSource(@CallerOrigin() origin: CommandOrigin, @Body() body: CreateFundingSourceRequest): Promise<FundingSourceResponse> {
    const accepted = await this.commands.execute<AddFundingSourceCommand, CommandAccepted>(
      new AddFundingSourceCommand(origin, {
        accountName: body.account_name,
        accountNumber: body.account_number,
        nickname: body.nickname,
        type: body.type,
        state: body.state,
      }),
    );
    return this.answerFundingSource(origin, accepted);
  }

  @Route('PATCH', 'funding_sources/:funding_token', { summary: 'Update a funding source\'s state or nickname', answers: FundingSourceResponse, errors: [404, 409] })
  async updateFundingSource(@CallerOrigin() origin: CommandOrigin, @Param() { funding_token }: FundingTokenParam, @Body() body: UpdateFundingSourceRequest): Promise<FundingSourceResponse> {
    const accepted = await this.commands.execute<UpdateFundingSourceCommand, CommandAccepted>(
      new UpdateFundingSourceCommand(origin, funding_token, { state: body.state, nickname: body.nickname }),
    );
    return this.answerFundingSource(origin, accepted);
  }

  private answerFundingSource({ programToken }: CommandOrigin, accepted: CommandAccepted): Promise<FundingSourceResponse> {
    return this.acknowledger.answer(accepted, () => this.queries.execute(new GetFundingSourceQuery(programToken, accepted.token)));
  }
}
