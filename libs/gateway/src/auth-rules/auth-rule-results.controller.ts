import { Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  AuthRuleFeaturesParams,
  AuthRuleFeaturesResponse,
  AuthRuleReportParams,
  AuthRuleReportResponse,
  AuthRuleResultPageModel,
  AuthRuleResultResponse,
  AuthRuleTokenParam,
  GetAuthRuleFeaturesQuery,
  GetAuthRuleReportQuery,
  ListAuthRuleResultsParams,
  ListAuthRuleResultsQuery,
  Page,
} from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { pageRequest } from '../listing/paging';

/**
 * What Auth Rules did and count (`client.authRules.v2.listResults`, `retrieveReport`,
 * `retrieveFeatures`): the results every authorization recorded, a rule's daily statistics of them,
 * and its velocity counters now. Registered before the rules' own controller, so `results` is never
 * read as a rule's token.
 */
@ProgramApi('auth rules', 'v2/auth_rules')
export class AuthRuleResultsController {
  constructor(private readonly queries: QueryBus) {}

  @Route('GET', 'results', { summary: "The program's Auth Rule evaluations, oldest first: each rule version's result on each authorization it ran on", answers: AuthRuleResultPageModel, errors: [404] })
  results(@CallingProgram() programToken: string, @Query() params: ListAuthRuleResultsParams): Promise<Page<AuthRuleResultResponse>> {
    const filter = {
      authRuleToken: params.auth_rule_token,
      eventToken: params.event_token,
      begin: params.begin,
      end: params.end,
      hasActions: params.has_actions === undefined ? undefined : params.has_actions === 'true',
    };
    return this.queries.execute(new ListAuthRuleResultsQuery(programToken, filter, pageRequest(params)));
  }

  @Route('GET', ':auth_rule_token/report', { summary: "A rule's daily statistics from begin to end (UTC days, both included, at most 31; one alone is that day): each version's actions and examples", answers: AuthRuleReportResponse, errors: [404] })
  report(@CallingProgram() programToken: string, @Param() { auth_rule_token }: AuthRuleTokenParam, @Query() { begin, end }: AuthRuleReportParams): Promise<AuthRuleReportResponse> {
    // Lithic requires both; one alone reports that one day rather than refusing the request.
    return this.queries.execute(new GetAuthRuleReportQuery(programToken, auth_rule_token, begin ?? end, end ?? begin));
  }

  @Route('GET', ':auth_rule_token/features', { summary: "What the rule's velocity limits have counted now, for a card (card_token) or the account", answers: AuthRuleFeaturesResponse, errors: [404] })
  features(@CallingProgram() programToken: string, @Param() { auth_rule_token }: AuthRuleTokenParam, @Query() params: AuthRuleFeaturesParams): Promise<AuthRuleFeaturesResponse> {
    return this.queries.execute(new GetAuthRuleFeaturesQuery(programToken, auth_rule_token, { cardToken: params.card_token, accountToken: params.account_token }));
  }
}
