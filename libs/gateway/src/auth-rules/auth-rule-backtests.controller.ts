import { Body, Param } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  AuthRuleBacktestParams,
  AuthRuleTokenParam,
  BacktestCreateResponse,
  BacktestResultsResponse,
  CommandAccepted,
  CommandOrigin,
  CreateAuthRuleBacktestRequest,
  GetAuthRuleBacktestQuery,
  RequestAuthRuleBacktestCommand,
} from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';

/**
 * Lithic's Auth Rule backtests (`client.authRules.v2.backtests`): the program's real authorization
 * history replayed through the rule's current and draft versions. The report is made with the request
 * (the card-service writes it), so a retrieve right after it finds the results.
 */
@ProgramApi('auth rules', 'v2/auth_rules')
export class AuthRuleBacktestsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Route('POST', ':auth_rule_token/backtests', { summary: "Backtest the rule's current and draft versions over the program's authorizations in a window", answers: BacktestCreateResponse, errors: [404] })
  async create(@CallerOrigin() origin: CommandOrigin, @Param() { auth_rule_token }: AuthRuleTokenParam, @Body() body: CreateAuthRuleBacktestRequest): Promise<BacktestCreateResponse> {
    const accepted = await this.commands.execute<RequestAuthRuleBacktestCommand, CommandAccepted>(new RequestAuthRuleBacktestCommand(origin, auth_rule_token, { start: body.start, end: body.end }));
    return { backtest_token: accepted.token };
  }

  @Route('GET', ':auth_rule_token/backtests/:auth_rule_backtest_token', { summary: 'Get a backtest report', answers: BacktestResultsResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { auth_rule_token, auth_rule_backtest_token }: AuthRuleBacktestParams): Promise<BacktestResultsResponse> {
    return this.queries.execute(new GetAuthRuleBacktestQuery(programToken, auth_rule_token, auth_rule_backtest_token));
  }
}
