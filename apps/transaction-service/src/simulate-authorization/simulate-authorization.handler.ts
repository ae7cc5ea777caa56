import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomInt, randomUUID } from 'node:crypto';
import { AuthorizeCardSpendCommand, CardSpendDecision, ledgerCodec, SimulateAuthorizationCommand, SimulationAccepted } from '@ledger/contracts';
import { transactionDecider, TransactionEvent, transactionStreamId } from '@ledger/domain';
import { formatPosition, handleCommand, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { CardLocator } from '../card-locator';

/**
 * A simulated authorization: the card decides (and records its decision), then the transaction is
 * recorded from exactly the facts the card recorded. Should the process die in between, the
 * reconciler records the transaction from the card's event.
 */
@CommandHandler(SimulateAuthorizationCommand)
export class SimulateAuthorizationHandler implements ICommandHandler<SimulateAuthorizationCommand, SimulationAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly commands: CommandBus,
    private readonly locator: CardLocator,
  ) {}

  async execute({ origin, authorization }: SimulateAuthorizationCommand): Promise<SimulationAccepted> {
    const cardToken = await this.locator.cardTokenFor(authorization.pan, origin.programToken);
    const transactionToken = randomUUID();
    const decision = await this.commands.execute<AuthorizeCardSpendCommand, CardSpendDecision>(
      new AuthorizeCardSpendCommand(origin, cardToken, {
        transactionToken,
        eventToken: randomUUID(),
        authorizationCode: String(randomInt(1_000_000)).padStart(6, '0'),
        amount: authorization.amount,
        merchant: authorization.merchant,
        merchantAmount: authorization.merchantAmount,
        merchantCurrency: authorization.merchantCurrency,
        presented: authorization.presented,
        partialApprovalCapable: authorization.partialApprovalCapable,
      }),
    );
    const recorded = await handleCommand(this.env, transactionDecider, ledgerCodec<TransactionEvent>(), transactionStreamId(transactionToken), {
      type: 'RecordAuthorization',
      facts: decision.facts,
      result: decision.result,
    }, origin, { newStream: true });
    return { transactionToken, result: decision.result, position: recorded.position ? formatPosition(recorded.position) : decision.position };
  }
}
