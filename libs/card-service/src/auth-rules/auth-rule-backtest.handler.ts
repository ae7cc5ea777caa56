import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandAccepted, RequestAuthRuleBacktestCommand } from '@ledger/contracts';
import { cardsToReplay, authRuleBacktestDecider, authRuleBacktestStreamId, authRuleDecider, authRuleStreamId, programDecider, ProgramNotFound, programStreamId, programTime } from '@ledger/domain';
import { decideAcrossStreams, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';
import { type CardHistorySource, ProgramCardHistories } from './program-card-histories';

/**
 * A backtest, computed in the request: the replay of a program's history is a fold over its card
 * streams (10,000 authorizations take well under a second), so the report is written with the request
 * in one write on the backtest's own stream, and a retrieve never finds it pending. The rule's stream
 * is checked, not written: a report always names the versions the rule had when it was written.
 */
@CommandHandler(RequestAuthRuleBacktestCommand)
export class RequestAuthRuleBacktestHandler implements ICommandHandler<RequestAuthRuleBacktestCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    // A type's metadata is Object, so Nest is told the class to inject.
    @Inject(ProgramCardHistories) private readonly histories: CardHistorySource,
  ) {}

  async execute({ origin, authRuleToken, window }: RequestAuthRuleBacktestCommand): Promise<CommandAccepted> {
    const backtestToken = this.env.newId();
    const backtestStream = authRuleBacktestStreamId(backtestToken);
    const ruleStream = authRuleStreamId(authRuleToken);
    const programToken = origin.programToken;
    const outcome = await decideAcrossStreams(this.env, origin, backtestStream, async (reader) => {
      const program = await reader.fold(programDecider, programStreamId(programToken));
      if (program.state.status === 'absent') throw new ProgramNotFound(programToken);
      const now = programTime(program.state.clock, this.env.now());
      const rule = await reader.fold(authRuleDecider, ruleStream);
      const backtest = await reader.fold(authRuleBacktestDecider, backtestStream);
      const context = { now, rule: rule.state };
      const requested = authRuleBacktestDecider.decide({ type: 'RequestAuthRuleBacktest', backtestToken, authRuleToken, programToken, ...window }, backtest.state, context);
      // The request was decided, so the rule exists and is the program's.
      const scope = rule.state.status === 'existing' ? rule.state.scope : null;
      const histories = await this.histories.of(programToken, this.env.codec, scope && cardsToReplay(scope));
      const reported = authRuleBacktestDecider.decide({ type: 'ReportAuthRuleBacktest', histories, accountCreated: program.state.created }, requested.reduce(authRuleBacktestDecider.evolve, backtest.state), context);
      return {
        now,
        result: null,
        streams: [
          { streamId: backtestStream, folder: authRuleBacktestDecider, fold: backtest, events: [...requested, ...reported], mustBeNew: true },
          { streamId: ruleStream, folder: authRuleDecider, fold: rule, events: [] },
        ],
      };
    });
    return commandAccepted(backtestToken, { position: outcome.position ?? undefined });
  }
}
