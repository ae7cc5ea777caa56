import { Body, Param, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  AuthRulePageModel,
  AuthRuleResponse,
  AuthRuleScopeFields,
  AuthRuleTokenParam,
  AuthRuleVersionListModel,
  AuthRuleVersionResponse,
  CommandAccepted,
  CommandOrigin,
  CreateAuthRuleCommand,
  CreateAuthRuleRequest,
  DeleteAuthRuleCommand,
  DraftAuthRuleCommand,
  DraftAuthRuleRequest,
  EmptyModel,
  GetAuthRuleQuery,
  ListAuthRulesParams,
  ListAuthRulesQuery,
  ListAuthRuleVersionsQuery,
  Page,
  PromoteAuthRuleCommand,
  UpdateAuthRuleCommand,
  UpdateAuthRuleRequest,
} from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';
import { pageRequest } from '../listing/paging';

/**
 * Lithic's Auth Rules v2 (`client.authRules.v2`), on the authorization stream. Writes are decided in
 * the card-service; the answers fold the rules' own streams, so a write is visible in its answer and
 * in every read after it. Another program's rule answers 404.
 */
@ProgramApi('auth rules', 'v2/auth_rules')
export class AuthRulesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Route('POST', '', { summary: 'Create an auth rule; its parameters are its draft, run in shadow until promoted', answers: AuthRuleResponse, errors: [404] })
  async create(@CallerOrigin() origin: CommandOrigin, @Body() body: CreateAuthRuleRequest): Promise<AuthRuleResponse> {
    const accepted = await this.commands.execute<CreateAuthRuleCommand, CommandAccepted>(
      new CreateAuthRuleCommand(origin, { name: body.name ?? null, type: body.type, parameters: body.parameters, eventStream: body.event_stream, scope: scopeOf(body) }),
    );
    return this.rule(origin, accepted.token);
  }

  @Route('GET', '', { summary: "List the program's auth rules, oldest first", answers: AuthRulePageModel })
  list(@CallingProgram() programToken: string, @Query() params: ListAuthRulesParams): Promise<Page<AuthRuleResponse>> {
    return this.queries.execute(new ListAuthRulesQuery(programToken, { cardToken: params.card_token, accountToken: params.account_token, scope: params.scope }, pageRequest(params)));
  }

  @Route('GET', ':auth_rule_token', { summary: 'Get an auth rule', answers: AuthRuleResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { auth_rule_token }: AuthRuleTokenParam): Promise<AuthRuleResponse> {
    return this.queries.execute(new GetAuthRuleQuery(programToken, auth_rule_token));
  }

  @Route('PATCH', ':auth_rule_token', { summary: "Update an auth rule's name, scope, or deactivate it; given associations replace the existing ones", answers: AuthRuleResponse, errors: [404] })
  async update(@CallerOrigin() origin: CommandOrigin, @Param() { auth_rule_token }: AuthRuleTokenParam, @Body() body: UpdateAuthRuleRequest): Promise<AuthRuleResponse> {
    await this.commands.execute<UpdateAuthRuleCommand, CommandAccepted>(new UpdateAuthRuleCommand(origin, auth_rule_token, { name: body.name, state: body.state, scope: scopeOf(body) }));
    return this.rule(origin, auth_rule_token);
  }

  @Route('DELETE', ':auth_rule_token', { summary: 'Delete an auth rule', answers: EmptyModel, errors: [404] })
  async delete(@CallerOrigin() origin: CommandOrigin, @Param() { auth_rule_token }: AuthRuleTokenParam): Promise<Record<string, never>> {
    await this.commands.execute<DeleteAuthRuleCommand, CommandAccepted>(new DeleteAuthRuleCommand(origin, auth_rule_token));
    return {};
  }

  @Route('POST', ':auth_rule_token/draft', { summary: 'Draft new parameters, run in shadow beside the current version; null discards the draft', answers: AuthRuleResponse, errors: [404] })
  async draft(@CallerOrigin() origin: CommandOrigin, @Param() { auth_rule_token }: AuthRuleTokenParam, @Body() body: DraftAuthRuleRequest): Promise<AuthRuleResponse> {
    await this.commands.execute<DraftAuthRuleCommand, CommandAccepted>(new DraftAuthRuleCommand(origin, auth_rule_token, body.parameters ?? null));
    return this.rule(origin, auth_rule_token);
  }

  @Route('POST', ':auth_rule_token/promote', { summary: 'Promote the draft to the current version, enforced while the rule is ACTIVE', answers: AuthRuleResponse, errors: [404, 409] })
  async promote(@CallerOrigin() origin: CommandOrigin, @Param() { auth_rule_token }: AuthRuleTokenParam): Promise<AuthRuleResponse> {
    await this.commands.execute<PromoteAuthRuleCommand, CommandAccepted>(new PromoteAuthRuleCommand(origin, auth_rule_token));
    return this.rule(origin, auth_rule_token);
  }

  @Route('GET', ':auth_rule_token/versions', { summary: "Every version of the rule, newest first", answers: AuthRuleVersionListModel, errors: [404] })
  versions(@CallingProgram() programToken: string, @Param() { auth_rule_token }: AuthRuleTokenParam): Promise<{ data: AuthRuleVersionResponse[] }> {
    return this.queries.execute(new ListAuthRuleVersionsQuery(programToken, auth_rule_token));
  }

  private rule({ programToken }: CommandOrigin, authRuleToken: string): Promise<AuthRuleResponse> {
    return this.queries.execute(new GetAuthRuleQuery(programToken, authRuleToken));
  }
}

function scopeOf(body: Partial<CreateAuthRuleRequest>): AuthRuleScopeFields {
  return {
    programLevel: body.program_level,
    accountTokens: body.account_tokens,
    cardTokens: body.card_tokens,
    excludedCardTokens: body.excluded_card_tokens,
    excludedAccountTokens: body.excluded_account_tokens,
    businessAccountTokens: body.business_account_tokens,
    excludedBusinessAccountTokens: body.excluded_business_account_tokens,
  };
}
