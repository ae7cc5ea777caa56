import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SimulateReturnReversalCommand, SimulationAccepted } from '@ledger/contracts';
import { TransactionMovements } from '../transaction-movement/transaction-movement';

/** A return taken back: the domain decides whether it may be, and the card loses the credit it gave, in one write. */
@CommandHandler(SimulateReturnReversalCommand)
export class SimulateReturnReversalHandler implements ICommandHandler<SimulateReturnReversalCommand, SimulationAccepted> {
  constructor(private readonly movements: TransactionMovements) {}

  execute({ origin, transactionToken, eventToken }: SimulateReturnReversalCommand): Promise<SimulationAccepted> {
    return this.movements.move(origin, { type: 'ReverseReturn', transactionToken, programToken: origin.programToken, eventToken });
  }
}
