import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AdjustCardSpendCommand, CommandAccepted, SimulateReturnReversalCommand, SimulationAccepted } from '@ledger/contracts';
import { transactionDecider, transactionStreamId } from '@ledger/domain';
import { formatPosition, commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';

/**
 * A return taken back: the return transaction records the reversal (the domain decides whether it
 * may), then its card counts the return's new amount, 0, so the credit it gave is gone. Same order
 * and same repair as a void: a crash in between is caught up by the reconciler.
 */
@CommandHandler(SimulateReturnReversalCommand)
export class SimulateReturnReversalHandler implements ICommandHandler<SimulateReturnReversalCommand, SimulationAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly commands: CommandBus,
  ) {}

  async execute({ origin, transactionToken }: SimulateReturnReversalCommand): Promise<SimulationAccepted> {
    const outcome = await commandHandler(this.env, transactionDecider, transactionStreamId(transactionToken)).handle(
      { type: 'ReverseReturn', transactionToken, programToken: origin.programToken, eventToken: this.env.newId() },
      origin,
    );
    if (outcome.state.status === 'ABSENT') throw new Error(`Transaction ${transactionToken} vanished`);
    const card = await this.commands.execute<AdjustCardSpendCommand, CommandAccepted>(
      new AdjustCardSpendCommand(origin, outcome.state.cardToken, transactionToken, outcome.version, 'RETURN_REVERSAL', outcome.state.amount),
    );
    const position = card.position ?? (outcome.position ? formatPosition(outcome.position) : null);
    return { transactionToken, result: 'APPROVED', position };
  }
}
