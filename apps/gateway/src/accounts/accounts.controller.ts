import { Body, Controller, Get, HttpCode, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
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
  GetAccountQuery,
  ListFundingSourcesQuery,
  UpdateAccountRequest,
  UpdateFundingSourceCommand,
  UpdateFundingSourceRequest,
  UpdateProgramSettingsCommand,
} from '@ledger/contracts';
import { FundingSourceNotFound } from '@ledger/domain';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { AccountListModel, AccountModel, ApiErrors, FundingSourceListModel, FundingSourceModel } from '../http/openapi-models';
import { commandOrigin } from '../http/command-origin';
import { RequestWithId } from '../http/request-id';
import { AccountNotFound } from './account-query.handlers';

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
  @ApiOperation({ summary: 'The calling program\'s account (an account is the program)' })
  @ApiOkResponse({ type: AccountListModel })
  async list(@CallingProgram() programToken: string): Promise<{ data: AccountResponse[] }> {
    return { data: [await this.queries.execute(new GetAccountQuery(programToken, programToken))] };
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
        spendLimits: body.spend_limit,
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
  @ApiOperation({ summary: 'List the program\'s funding sources' })
  @ApiOkResponse({ type: FundingSourceListModel })
  async fundingSources(@CallingProgram() programToken: string): Promise<{ data: FundingSourceResponse[] }> {
    return { data: await this.queries.execute(new ListFundingSourcesQuery(programToken)) };
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
    const sources: FundingSourceResponse[] = await this.queries.execute(new ListFundingSourcesQuery(programToken));
    const source = sources.find((candidate) => candidate.token === accepted.token);
    if (!source) throw new FundingSourceNotFound(accepted.token);
    return source;
  }
}
