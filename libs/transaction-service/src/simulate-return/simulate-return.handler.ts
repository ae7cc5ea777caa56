import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomInt } from 'node:crypto';
import { CommandAccepted, CreditCardReturnCommand, SimulateReturnCommand, SimulationAccepted } from '@ledger/contracts';
import { cardDecider, CardNotFound, cardStreamId, transactionDecider, transactionStreamId } from '@ledger/domain';
import { businessTime, commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { CardLocator } from '../card-locator';

/** A return is its own transaction, cleared at once; then the card gets the spend back. */
@CommandHandler(SimulateReturnCommand)
export class SimulateReturnHandler implements ICommandHandler<SimulateReturnCommand, SimulationAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly commands: CommandBus,
    private readonly locator: CardLocator,
  ) {}

  async execute({ origin, pan, amount, merchant }: SimulateReturnCommand): Promise<SimulationAccepted> {
    const cardToken = await this.locator.cardTokenFor(pan, origin.programToken);
    const card = await commandHandler(this.env, cardDecider, cardStreamId(cardToken)).state();
    if (card.status !== 'issued') throw new CardNotFound(cardToken);
    const transactionToken = this.env.newId();
    const eventToken = this.env.newId();
    const at = (await businessTime(this.env, origin.programToken)).toISOString();
    await commandHandler(this.env, transactionDecider, transactionStreamId(transactionToken)).handle({
      type: 'RecordReturn',
      facts: {
        cardToken,
        programToken: origin.programToken,
        transactionToken,
        eventToken,
        amount,
        merchant,
        merchantAmount: amount,
        merchantCurrency: 'USD',
        authorizationCode: String(randomInt(1_000_000)).padStart(6, '0'),
        fundingToken: card.fundingToken,
        at,
      },
    }, origin);
    const credited = await this.commands.execute<CreditCardReturnCommand, CommandAccepted>(
      new CreditCardReturnCommand(origin, cardToken, transactionToken, eventToken, amount, at),
    );
    return { transactionToken, result: 'APPROVED', position: credited.position };
  }
}

