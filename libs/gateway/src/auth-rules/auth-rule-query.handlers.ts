import { Inject, Injectable } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  AuthRuleFilter,
  AuthRuleResponse,
  AuthRuleVersionResponse,
  GetAuthRuleQuery,
  ledgerCodec,
  ListAuthRulesQuery,
  ListAuthRuleVersionsQuery,
  Page,
} from '@ledger/contracts';
import {
  appliesTo,
  AuthRuleEvent,
  authRuleDecider,
  AuthRuleNotFound,
  authRuleStreamId,
  type ExistingAuthRule,
  programAuthRulesDecider,
  ProgramAuthRulesEvent,
  programAuthRulesStreamId,
  versionStates,
} from '@ledger/domain';
import { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';
import { inMemoryPage } from '../listing/paging';

/**
 * A program's auth rules, folded from their streams: its list (auth-rules-<program>), then each
 * rule's stream. The streams are the truth the card-service decides on, so a rule is shown as soon as
 * its write succeeded, with no read model to wait for.
 */
@Injectable()
export class AuthRuleStreams {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async rule(programToken: string, authRuleToken: string): Promise<ExistingAuthRule> {
    const events = (await this.store.readStream(authRuleStreamId(authRuleToken))).map((event) => ledgerCodec<AuthRuleEvent>().decode(event));
    const rule = events.reduce(authRuleDecider.evolve, authRuleDecider.initialState());
    if (rule.status !== 'existing' || rule.programToken !== programToken) throw new AuthRuleNotFound(authRuleToken);
    return rule;
  }

  async rules(programToken: string): Promise<ExistingAuthRule[]> {
    const listed = (await this.store.readStream(programAuthRulesStreamId(programToken))).map((event) => ledgerCodec<ProgramAuthRulesEvent>().decode(event));
    const { authRuleTokens } = listed.reduce(programAuthRulesDecider.evolve, programAuthRulesDecider.initialState());
    return Promise.all(authRuleTokens.map((token) => this.rule(programToken, token)));
  }
}

/** Lithic's AuthRule: the scope spelled out in its lists, the versions as Lithic shows them. */
export function presentAuthRule(rule: ExistingAuthRule): AuthRuleResponse {
  const { scope } = rule;
  return {
    token: rule.authRuleToken,
    account_tokens: scope.level === 'ACCOUNT' ? [...scope.accountTokens] : [],
    business_account_tokens: [],
    card_tokens: scope.level === 'CARD' ? [...scope.cardTokens] : [],
    current_version: rule.current === null ? null : { parameters: rule.current.parameters as unknown as Record<string, unknown>, version: rule.current.version },
    draft_version: rule.draft === null ? null : { error: null, parameters: rule.draft.parameters as unknown as Record<string, unknown>, state: 'SHADOWING', version: rule.draft.version },
    event_stream: 'AUTHORIZATION',
    lithic_managed: false,
    name: rule.name,
    program_level: scope.level === 'PROGRAM',
    state: rule.state,
    type: rule.ruleType,
    excluded_account_tokens: scope.level === 'PROGRAM' ? [...scope.excludedAccountTokens] : [],
    excluded_business_account_tokens: [],
    excluded_card_tokens: scope.level === 'PROGRAM' ? [...scope.excludedCardTokens] : [],
  };
}

/** Lithic's filters: a card's or an account's rules are those that would run on it; `scope` names the level (ANY: every level). */
function matches(rule: ExistingAuthRule, filter: AuthRuleFilter, programToken: string): boolean {
  if (filter.scope !== undefined && filter.scope !== 'ANY' && filter.scope !== rule.scope.level) return false;
  if (filter.accountToken !== undefined && (filter.accountToken !== programToken || rule.scope.level === 'CARD' || !appliesTo(rule.scope, { cardToken: '', accountToken: filter.accountToken }))) return false;
  if (filter.cardToken !== undefined && !appliesTo(rule.scope, { cardToken: filter.cardToken, accountToken: programToken })) return false;
  return true;
}

@QueryHandler(GetAuthRuleQuery)
export class GetAuthRuleHandler implements IQueryHandler<GetAuthRuleQuery, AuthRuleResponse> {
  constructor(private readonly streams: AuthRuleStreams) {}

  async execute({ programToken, authRuleToken }: GetAuthRuleQuery): Promise<AuthRuleResponse> {
    return presentAuthRule(await this.streams.rule(programToken, authRuleToken));
  }
}

/** Oldest first, as every list here; Lithic's cursors walk the same order. */
@QueryHandler(ListAuthRulesQuery)
export class ListAuthRulesHandler implements IQueryHandler<ListAuthRulesQuery, Page<AuthRuleResponse>> {
  constructor(private readonly streams: AuthRuleStreams) {}

  async execute({ programToken, filter, paging }: ListAuthRulesQuery): Promise<Page<AuthRuleResponse>> {
    const rules = (await this.streams.rules(programToken)).filter((rule) => matches(rule, filter, programToken));
    return inMemoryPage(paging, rules, (rule) => rule.authRuleToken, 'auth rule', async (shown) => shown.map(presentAuthRule));
  }
}

@QueryHandler(ListAuthRuleVersionsQuery)
export class ListAuthRuleVersionsHandler implements IQueryHandler<ListAuthRuleVersionsQuery, { data: AuthRuleVersionResponse[] }> {
  constructor(private readonly streams: AuthRuleStreams) {}

  async execute({ programToken, authRuleToken }: ListAuthRuleVersionsQuery): Promise<{ data: AuthRuleVersionResponse[] }> {
    const rule = await this.streams.rule(programToken, authRuleToken);
    return {
      data: versionStates(rule).map(({ version, state }) => ({ created: version.created, parameters: version.parameters as unknown as Record<string, unknown>, state, version: version.version })),
    };
  }
}

export const AUTH_RULE_QUERY_HANDLERS = [AuthRuleStreams, GetAuthRuleHandler, ListAuthRulesHandler, ListAuthRuleVersionsHandler];
