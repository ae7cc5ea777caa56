import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ExpireAuthorizationCommand, SimulationAccepted } from '@ledger/contracts';
import { TransactionMovements } from '../transaction-movement/transaction-movement';

/**
 * An authorization's hold runs out: a movement like a void (the domain decides whether the
 * transaction may expire, and the card stops counting it), so the same one atomic write records both.
 */
@CommandHandler(ExpireAuthorizationCommand)
export class ExpireAuthorizationHandler implements ICommandHandler<ExpireAuthorizationCommand, SimulationAccepted> {
  constructor(private readonly movements: TransactionMovements) {}

  execute({ origin, transactionToken, amount, eventToken }: ExpireAuthorizationCommand): Promise<SimulationAccepted> {
    return this.movements.move(origin, { type: 'ExpireAuthorization', transactionToken, programToken: origin.programToken, eventToken, amount });
  }
}
