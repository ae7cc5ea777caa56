import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import {
  AccountResponse,
  AccountTokenParam,
  AddFundingSourceCommand,
  CommandAccepted,
  CreateFundingSourceRequest,
  FundingSourceResponse,
  FundingTokenParam,
  AccountSpendLimitsResponse,
  CursorPageParams,
  DEFAULT_PAGE_SIZE,
  GetAccountQuery,
  GetAccountSpendLimitsQuery,
  GetFundingSourceQuery,
  ListAccountsQuery,
  ListFundingSourcesQuery,
  Page,
  PagedDateRangeParams,
  UpdateAccountRequest,
  UpdateFundingSourceCommand,
  UpdateFundingSourceRequest,
  UpdateProgramSettingsCommand,
} from '@ledger/contracts';
import { RequestInvalid } from '../http/errors';
import { pageRequest } from '../http/paging';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { AccountModel, AccountPageModel, AccountSpendLimitStandingModel, ApiErrors, FundingSourceModel, FundingSourcePageModel } from '../http/openapi-models';
import { commandOrigin } from '../http/command-origin';
import { RequestWithId } from '../http/request-id';
import { AccountNotFound } from './account-query.handlers';

/**
 * The platform limits the update names: ours under spend_limit, and Lithic's monthly_spend_limit for
 * the same monthly limit (both may be sent if they agree). Lithic's daily and lifetime limits are
 * only ever 0 (the request DTO refuses any other value), so they change nothing.
 */
function spendLimitsOf(body: UpdateAccountRequest): UpdateAccountRequest['spend_limit'] {
  const ours = body.spend_limit?.monthly;
  const lithics = body.monthly_spend_limit;
  if (ours !== undefined && lithics !== undefined && ours !== lithics) throw new RequestInvalid('spend_limit.monthly and monthly_spend_limit name the same limit and differ');
  if (lithics === undefined) return body.spend_limit;
  return { ...body.spend_limit, monthly: lithics };
}

/**
 * Program settings and funding sources, which the spec leaves unshown: an account here is the
 * program (as Lithic's account_token names the entity cards belong to). These settings are what
 * the platform-level decline reasons are provoked with (docs/declines.md).
 */
@ApiTags('accounts')
@ApiSecurity('api-key')
@ApiErrors(400, 401)
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class AccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  @Get('accounts')
  @ApiOperation({ summary: 'The calling program\'s account (an account is the program): a list of one, paged like every list' })
  @ApiOkResponse({ type: AccountPageModel })
  list(@CallingProgram() programToken: string, @Query() params: PagedDateRangeParams): Promise<Page<AccountResponse>> {
    return this.queries.execute(
      new ListAccountsQuery(programToken, { createdFrom: params.begin, createdBefore: params.end }, pageRequest(params, params.page_size ?? DEFAULT_PAGE_SIZE)),
    );
  }

  @Get('accounts/:account_token/spend_limits')
  @ApiOperation({ summary: 'Lithic\'s account spend limits: each platform window\'s limit, what counts against it and what is left' })
  @ApiOkResponse({ type: AccountSpendLimitStandingModel })
  @ApiErrors(404)
  spendLimits(@CallingProgram() programToken: string, @Param() { account_token }: AccountTokenParam): Promise<AccountSpendLimitsResponse> {
    return this.queries.execute(new GetAccountSpendLimitsQuery(programToken, account_token));
  }

  @Get('accounts/:account_token')
  @ApiOperation({ summary: 'Get the program\'s account' })
  @ApiOkResponse({ type: AccountModel })
  @ApiErrors(404)
  get(@CallingProgram() programToken: string, @Param() { account_token }: AccountTokenParam): Promise<AccountResponse> {
    return this.queries.execute(new GetAccountQuery(programToken, account_token));
  }

  @Patch('accounts/:account_token')
  @ApiOperation({ summary: 'Update the program\'s settings: state, platform spend limits, velocity rule, blocked merchants' })
  @ApiOkResponse({ type: AccountModel })
  @ApiErrors(404, 409)
  async update(
    @CallingProgram() programToken: string,
    @Req() request: RequestWithId,
    @Param() { account_token }: AccountTokenParam,
    @Body() body: UpdateAccountRequest,
  ): Promise<AccountResponse> {
    if (account_token !== programToken) throw new AccountNotFound(account_token);
    const accepted = await this.commands.execute<UpdateProgramSettingsCommand, CommandAccepted>(
      new UpdateProgramSettingsCommand(commandOrigin(programToken, request), {
        state: body.state,
        spendLimits: spendLimitsOf(body),
        velocityRule:
          body.velocity_limit === undefined
            ? undefined
            : body.velocity_limit === null
              ? null
              : { maxAuthorizations: body.velocity_limit.max_authorizations, windowSeconds: body.velocity_limit.window_seconds },
        blockedMerchants: body.blocked_merchants,
      }),
    );
    await this.acknowledger.visible(accepted);
    return this.queries.execute(new GetAccountQuery(programToken, programToken));
  }

  @Get('funding_sources')
  @ApiOperation({ summary: 'List the program\'s funding sources, oldest first' })
  @ApiOkResponse({ type: FundingSourcePageModel })
  fundingSources(@CallingProgram() programToken: string, @Query() params: CursorPageParams): Promise<Page<FundingSourceResponse>> {
    return this.queries.execute(new ListFundingSourcesQuery(programToken, pageRequest(params, params.page_size ?? DEFAULT_PAGE_SIZE)));
  }

  @Post('funding_sources')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add a funding source (a bank account; only its last four digits are kept)' })
  @ApiOkResponse({ type: FundingSourceModel })
  @ApiErrors(409)
  async addFundingSource(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: CreateFundingSourceRequest): Promise<FundingSourceResponse> {
    const accepted = await this.commands.execute<AddFundingSourceCommand, CommandAccepted>(
      new AddFundingSourceCommand(commandOrigin(programToken, request), {
        accountName: body.account_name,
        accountNumber: body.account_number,
        nickname: body.nickname,
        type: body.type,
        state: body.state,
      }),
    );
    return this.answerFundingSource(programToken, accepted);
  }

  @Patch('funding_sources/:funding_token')
  @ApiOperation({ summary: 'Update a funding source\'s state or nickname' })
  @ApiOkResponse({ type: FundingSourceModel })
  @ApiErrors(404, 409)
  async updateFundingSource(
    @CallingProgram() programToken: string,
    @Req() request: RequestWithId,
    @Param() { funding_token }: FundingTokenParam,
    @Body() body: UpdateFundingSourceRequest,
  ): Promise<FundingSourceResponse> {
    const accepted = await this.commands.execute<UpdateFundingSourceCommand, CommandAccepted>(
      new UpdateFundingSourceCommand(commandOrigin(programToken, request), funding_token, { state: body.state, nickname: body.nickname }),
    );
    return this.answerFundingSource(programToken, accepted);
  }

  private async answerFundingSource(programToken: string, accepted: CommandAccepted): Promise<FundingSourceResponse> {
    await this.acknowledger.visible(accepted);
    return this.queries.execute(new GetFundingSourceQuery(programToken, accepted.token));
  }
}
