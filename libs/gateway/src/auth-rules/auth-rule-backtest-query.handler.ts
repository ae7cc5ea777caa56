import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { BacktestResultsResponse, GetAuthRuleBacktestQuery, ledgerCodec, presentBacktest } from '@ledger/contracts';
import { authRuleBacktestDecider, type AuthRuleBacktestEvent, authRuleBacktestStreamId, ownedBacktest } from '@ledger/domain';
import { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';

/** A backtest is its own stream, folded on each read: its report is there as soon as the create answered. */
@QueryHandler(GetAuthRuleBacktestQuery)
export class GetAuthRuleBacktestHandler implements IQueryHandler<GetAuthRuleBacktestQuery, BacktestResultsResponse> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ programToken, authRuleToken, backtestToken }: GetAuthRuleBacktestQuery): Promise<BacktestResultsResponse> {
    const events = (await this.store.readStream(authRuleBacktestStreamId(backtestToken))).map((event) => ledgerCodec<AuthRuleBacktestEvent>().decode(event));
    const backtest = events.reduce(authRuleBacktestDecider.evolve, authRuleBacktestDecider.initialState());
    return presentBacktest(ownedBacktest(backtest, backtestToken, authRuleToken, programToken));
  }
}
