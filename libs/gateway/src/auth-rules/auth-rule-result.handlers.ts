import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  AuthRuleFeaturesResponse,
  AuthRuleReportResponse,
  AuthRuleResultResponse,
  GetAuthRuleFeaturesQuery,
  GetAuthRuleReportQuery,
  ListAuthRuleResultsQuery,
  nameBasedUuid,
  Page,
} from '@ledger/contracts';
import {
  accountUsageAt,
  accountVelocityUsageDecider,
  accountVelocityUsageStreamId,
  type AccountVelocityUsageEvent,
  actionsOf,
  type AuthRuleEvaluation,
  cardActivityFolder,
  cardDecider,
  type CardEvent,
  CardNotFound,
  cardStreamId,
  cardVelocityUsage,
  dailyReport,
  programDecider,
  ProgramNotFound,
  programStreamId,
  programTime,
  runningVelocityLimits,
  type VelocityLimitParameters,
  type VelocityUsage,
  velocityFeatures,
} from '@ledger/domain';
import { type EventCodec, foldOf, type PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { RequestInvalid } from '../http/errors';
import { inMemoryPage } from '../listing/paging';
import { AccountNotFound } from '../accounts/account-query.handlers';
import { AuthRuleStreams } from './auth-rule-query.handlers';
import { AuthRuleEvaluations } from './auth-rule-evaluations';

/** Namespace of the evaluations' name-based tokens (RFC 9562 version 5). */
const EVALUATION_TOKEN_NAMESPACE = Buffer.from('3c9a51d07e2b4f168a4d0c5e7b9f2a61', 'hex');

/** An evaluation's token: the same for every read of the same result, as each is recorded once. */
export function evaluationToken(evaluation: Pick<AuthRuleEvaluation, 'eventToken' | 'authRuleToken' | 'version'>): string {
  return nameBasedUuid(EVALUATION_TOKEN_NAMESPACE, `${evaluation.eventToken}/${evaluation.authRuleToken}/${evaluation.version}`);
}

/** Lithic's AuthorizationResult; a draft's shadow run is Lithic's INACTIVE mode (recorded, not enforced). */
function presentResult(evaluation: AuthRuleEvaluation): AuthRuleResultResponse {
  return {
    token: evaluationToken(evaluation),
    actions: actionsOf(evaluation).map((action) => ({ ...action })),
    auth_rule_token: evaluation.authRuleToken,
    evaluation_time: evaluation.evaluated,
    event_stream: 'AUTHORIZATION',
    event_token: evaluation.eventToken,
    mode: evaluation.mode === 'ACTIVE' ? 'ACTIVE' : 'INACTIVE',
    rule_version: evaluation.version,
    transaction_token: evaluation.transactionToken,
  };
}

/** Oldest first, as every list here; a rule named by the filter must be the program's (404 otherwise). */
@QueryHandler(ListAuthRuleResultsQuery)
export class ListAuthRuleResultsHandler implements IQueryHandler<ListAuthRuleResultsQuery, Page<AuthRuleResultResponse>> {
  constructor(
    private readonly evaluations: AuthRuleEvaluations,
    private readonly streams: AuthRuleStreams,
  ) {}

  async execute({ programToken, filter, paging }: ListAuthRuleResultsQuery): Promise<Page<AuthRuleResultResponse>> {
    if (filter.authRuleToken !== undefined) await this.streams.rule(programToken, filter.authRuleToken);
    const evaluations = await this.evaluations.of(programToken, { ...filter, from: filter.begin, before: filter.end });
    return inMemoryPage(paging, evaluations, evaluationToken, 'auth rule result', async (shown) => shown.map(presentResult));
  }
}

/** Lithic's longest report: a month. */
const MAX_REPORT_DAYS = 31;
const DAY_MS = 86_400_000;
/** The last instant a request may name (query-parameters.ts): the day after 9999-12-31 is not one PostgreSQL reads back. */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Daily statistics of a rule's recorded results. Lithic's report ends the day before today; here the
 * ledger holds every result the moment it is recorded (and projected), so today is reported too.
 */
@QueryHandler(GetAuthRuleReportQuery)
export class GetAuthRuleReportHandler implements IQueryHandler<GetAuthRuleReportQuery, AuthRuleReportResponse> {
  constructor(
    private readonly evaluations: AuthRuleEvaluations,
    private readonly streams: AuthRuleStreams,
  ) {}

  async execute({ programToken, authRuleToken, begin, end }: GetAuthRuleReportQuery): Promise<AuthRuleReportResponse> {
    // A rule the program does not have is 404 whatever else the request says.
    await this.streams.rule(programToken, authRuleToken);
    if (begin === undefined || end === undefined) throw new RequestInvalid('begin and end are required');
    if (end < begin) throw new RequestInvalid('end must be on or after begin');
    if ((end.getTime() - begin.getTime()) / DAY_MS >= MAX_REPORT_DAYS) throw new RequestInvalid(`begin and end may span at most ${MAX_REPORT_DAYS} days`);
    const evaluations = await this.evaluations.of(programToken, { authRuleToken, from: begin, before: new Date(Math.min(end.getTime() + DAY_MS, LAST_INSTANT)) });
    const [first, last] = [begin, end].map((day) => day.toISOString().slice(0, 10));
    return {
      auth_rule_token: authRuleToken,
      begin: first,
      end: last,
      daily_statistics: dailyReport(evaluations, first, last).map((day) => ({
        date: day.date,
        versions: day.versions.map((stats) => ({
          action_counts: { ...stats.actionCounts },
          examples: stats.examples.map((example) => ({
            actions: example.actions.map((action) => ({ ...action })),
            event_token: example.eventToken,
            timestamp: example.timestamp,
            transaction_token: example.transactionToken,
          })),
          state: stats.state,
          version: stats.version,
        })),
      })),
    };
  }
}

/**
 * What the rule's velocity limits have counted now, folded from the streams the authorization decides
 * on (never a read model), at the program's business time: exactly the counters the next
 * authorization would be decided against. A CARD-scoped limit needs the card.
 */
@QueryHandler(GetAuthRuleFeaturesQuery)
export class GetAuthRuleFeaturesHandler implements IQueryHandler<GetAuthRuleFeaturesQuery, AuthRuleFeaturesResponse> {
  constructor(
    private readonly streams: AuthRuleStreams,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
  ) {}

  async execute({ programToken, authRuleToken, target }: GetAuthRuleFeaturesQuery): Promise<AuthRuleFeaturesResponse> {
    const rule = await this.streams.rule(programToken, authRuleToken);
    const program = (await foldOf(this.env, programDecider, this.env.codec as EventCodec<never>, programStreamId(programToken))).state;
    if (program.status === 'absent') throw new ProgramNotFound(programToken);
    const now = programTime(program.clock, this.env.now());
    const limits = runningVelocityLimits(rule);
    const counted = await Promise.all(limits.map(async (limit) => ({ parameters: limit.parameters, usage: await this.usage(programToken, authRuleToken, limit, target, now) })));
    return {
      evaluated: now.toISOString(),
      features: velocityFeatures(counted).map((feature) => ({
        filters: { ...feature.filters },
        period: { ...feature.period },
        scope: feature.scope,
        value: { ...feature.value },
      })),
    };
  }

  private async usage(
    programToken: string,
    authRuleToken: string,
    { version, parameters }: { version: number; parameters: VelocityLimitParameters },
    target: GetAuthRuleFeaturesQuery['target'],
    now: Date,
  ): Promise<VelocityUsage> {
    if (parameters.scope === 'ACCOUNT') {
      // The account is the program itself: another account token names nothing of this program.
      if (target.accountToken !== undefined && target.accountToken !== programToken) throw new AccountNotFound(target.accountToken);
      const streamId = accountVelocityUsageStreamId(authRuleToken, version);
      return accountUsageAt(parameters, (await foldOf(this.env, accountVelocityUsageDecider, this.env.codec as EventCodec<AccountVelocityUsageEvent>, streamId)).state, now);
    }
    if (target.cardToken === undefined) throw new RequestInvalid('card_token is required for a CARD-scoped velocity limit');
    const card = (await foldOf(this.env, cardDecider, this.env.codec as EventCodec<CardEvent>, cardStreamId(target.cardToken))).state;
    if (card.status !== 'issued' || card.programToken !== programToken) throw new CardNotFound(target.cardToken);
    const activity = (await foldOf(this.env, cardActivityFolder, this.env.codec as EventCodec<CardEvent>, cardStreamId(target.cardToken))).state;
    return cardVelocityUsage(parameters, activity, now);
  }
}

export const AUTH_RULE_RESULT_QUERY_HANDLERS = [AuthRuleEvaluations, ListAuthRuleResultsHandler, GetAuthRuleReportHandler, GetAuthRuleFeaturesHandler];
