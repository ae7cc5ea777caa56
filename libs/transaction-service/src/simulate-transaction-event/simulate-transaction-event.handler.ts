import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SimulateTransactionEventCommand, SimulationAccepted, TransactionAmountAction } from '@ledger/contracts';
import type { TransactionMovement } from '@ledger/domain';
import { TransactionMovements } from '../transaction-movement/transaction-movement';

const MOVEMENTS: Record<TransactionAmountAction, 'VoidAuthorization' | 'ClearAuthorization' | 'AdviseAuthorization'> = {
  VOID: 'VoidAuthorization',
  CLEARING: 'ClearAuthorization',
  ADVICE: 'AdviseAuthorization',
};

/** Void, clearing and authorization advice: one movement of the transaction and its card. */
@CommandHandler(SimulateTransactionEventCommand)
export class SimulateTransactionEventHandler implements ICommandHandler<SimulateTransactionEventCommand, SimulationAccepted> {
  constructor(private readonly movements: TransactionMovements) {}

  execute({ origin, action, transactionToken, amount, eventToken }: SimulateTransactionEventCommand): Promise<SimulationAccepted> {
    const movement = { type: MOVEMENTS[action], transactionToken, programToken: origin.programToken, eventToken, amount } as TransactionMovement;
    return this.movements.move(origin, movement);
  }
}
