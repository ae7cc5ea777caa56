import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AdjustCardSpendCommand, CommandAccepted, SimulateTransactionEventCommand, SimulationAccepted, TransactionAmountAction } from '@ledger/contracts';
import { SpendAdjustmentCause, TransactionCommand, transactionDecider, transactionStreamId } from '@ledger/domain';
import { formatPosition, commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';

const COMMAND_TYPES: Record<TransactionAmountAction, 'VoidAuthorization' | 'ClearAuthorization' | 'AdviseAuthorization'> = {
  VOID: 'VoidAuthorization',
  CLEARING: 'ClearAuthorization',
  ADVICE: 'AdviseAuthorization',
};

/**
 * Void, clearing and authorization advice: the transaction moves first, then its card counts the
 * new amount. In that order a crash in between can only make the card count too much until the
 * reconciler catches up, never too little.
 */
@CommandHandler(SimulateTransactionEventCommand)
export class SimulateTransactionEventHandler implements ICommandHandler<SimulateTransactionEventCommand, SimulationAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly commands: CommandBus,
  ) {}

  async execute({ origin, action, transactionToken, amount }: SimulateTransactionEventCommand): Promise<SimulationAccepted> {
    const command = {
      type: COMMAND_TYPES[action],
      transactionToken,
      programToken: origin.programToken,
      eventToken: this.env.newId(),
      amount,
    } as TransactionCommand;
    const outcome = await commandHandler(this.env, transactionDecider, transactionStreamId(transactionToken)).handle(command, origin);
    if (outcome.state.status === 'ABSENT') throw new Error(`Transaction ${transactionToken} vanished`);
    const cause: SpendAdjustmentCause = action;
    const card = await this.commands.execute<AdjustCardSpendCommand, CommandAccepted>(
      new AdjustCardSpendCommand(origin, outcome.state.cardToken, transactionToken, outcome.version, cause, outcome.state.amount),
    );
    const position = card.position ?? (outcome.position ? formatPosition(outcome.position) : null);
    return { transactionToken, result: 'APPROVED', position };
  }
}
