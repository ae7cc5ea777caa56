import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SettlementAccepted, SimulateSettlementCommand, CommandOrigin } from '@ledger/contracts';
import { decideSettlement, evolveTransaction, programDecider, ProgramNotFound, programStreamId, transactionDecider, transactionStreamId } from '@ledger/domain';
import { businessTime, commandHandler, decideAcrossStreams, formatPosition, GlobalPosition, PipelineEnvironment } from '@ledger/event-store';
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
      const outcome = await this.settle(origin, token);
      (outcome.status === 'SETTLED' ? result.settled : result.bounced).push(token);
      result.position = outcome.position ?? result.position;
    }
    return { settled: result.settled, bounced: result.bounced, position: result.position ? formatPosition(result.position) : null };
  }

  /** One transaction, decided on its stream and on the program's funding sources as they are at the write. */
  private async settle(origin: CommandOrigin, transactionToken: string) {
    const transactionStream = transactionStreamId(transactionToken);
    const programStream = programStreamId(origin.programToken);
    const outcome = await decideAcrossStreams(this.env, origin, transactionStream, async (reader) => {
      const [transaction, program] = await Promise.all([reader.fold(transactionDecider, transactionStream), reader.fold(programDecider, programStream)]);
      if (program.state.status === 'absent') throw new ProgramNotFound(origin.programToken);
      const now = await businessTime(this.env, origin.programToken);
      const events = decideSettlement(transactionToken, transaction.state, program.state, now);
      return {
        now,
        result: events.reduce(evolveTransaction, transaction.state),
        streams: [
          { streamId: transactionStream, folder: transactionDecider, fold: transaction, events },
          // The funding source's state decided on must still be the program's when the settlement is written.
          { streamId: programStream, folder: programDecider, fold: program, events: [] },
        ],
      };
    });
    return { status: outcome.result.status, position: outcome.position };
  }

  private async settlingTransactions(programToken: string): Promise<string[]> {
    const rows = await this.readModel.transaction.findMany({ where: { programToken, status: 'SETTLING' }, select: { token: true }, orderBy: { created: 'asc' } });
    return rows.map((row) => row.token);
  }
}
