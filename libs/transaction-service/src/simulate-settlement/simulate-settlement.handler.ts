import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SettlementAccepted, SimulateSettlementCommand, CommandOrigin } from '@ledger/contracts';
import { type FundingSourceState, programDecider, ProgramNotFound, programStreamId, transactionDecider, transactionStreamId } from '@ledger/domain';
import { formatPosition, GlobalPosition, commandHandler, PipelineEnvironment } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { PIPELINE_ENVIRONMENT, READ_MODEL } from '@ledger/runtime';

/**
 * The settlement step the real flow leaves unshown: SETTLING moves to SETTLED when the funding
 * source can be debited, to BOUNCED when it cannot (any state but ENABLED).
 */
@CommandHandler(SimulateSettlementCommand)
export class SimulateSettlementHandler implements ICommandHandler<SimulateSettlementCommand, SettlementAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
  ) {}

  async execute({ origin, transactionToken }: SimulateSettlementCommand): Promise<SettlementAccepted> {
    const program = await commandHandler(this.env, programDecider, programStreamId(origin.programToken)).state();
    if (program.status === 'absent') throw new ProgramNotFound(origin.programToken);
    const tokens = transactionToken ? [transactionToken] : await this.settlingTransactions(origin.programToken);
    const result: { settled: string[]; bounced: string[]; position: GlobalPosition | null } = { settled: [], bounced: [], position: null };
    for (const token of tokens) {
      const outcome = await this.settle(origin, token, (fundingToken) => program.fundingSources.find((s) => s.fundingToken === fundingToken)?.state ?? 'DELETED');
      (outcome.status === 'SETTLED' ? result.settled : result.bounced).push(token);
      result.position = outcome.position ?? result.position;
    }
    return { settled: result.settled, bounced: result.bounced, position: result.position ? formatPosition(result.position) : null };
  }

  private async settle(origin: CommandOrigin, transactionToken: string, fundingState: (fundingToken: string) => FundingSourceState) {
    const streamId = transactionStreamId(transactionToken);
    const transaction = await commandHandler(this.env, transactionDecider, streamId).state();
    // An absent transaction is refused as not found before its funding is looked at.
    const state = transaction.status === 'ABSENT' ? 'DELETED' : fundingState(transaction.fundingToken);
    const outcome = await commandHandler(this.env, transactionDecider, streamId).handle({
      type: 'SettleTransaction',
      transactionToken,
      programToken: origin.programToken,
      fundingState: state,
    }, origin);
    return { status: outcome.state.status, position: outcome.position };
  }

  private async settlingTransactions(programToken: string): Promise<string[]> {
    const rows = await this.readModel.transaction.findMany({ where: { programToken, status: 'SETTLING' }, select: { token: true }, orderBy: { created: 'asc' } });
    return rows.map((row) => row.token);
  }
}
