import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AdjustCardSpendCommand, CommandAccepted, CreditCardReturnCommand } from '@ledger/contracts';
import { cardDecider, cardStreamId } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

/** Voids, clearings and advices change what a transaction counts against its card. */
@CommandHandler(AdjustCardSpendCommand)
export class AdjustCardSpendHandler implements ICommandHandler<AdjustCardSpendCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute(command: AdjustCardSpendCommand): Promise<CommandAccepted> {
    const { origin, cardToken, transactionToken, transactionVersion, cause, amount } = command;
    const outcome = await commandHandler(this.env, cardDecider, cardStreamId(cardToken)).handle({
      type: 'AdjustSpend',
      cardToken,
      transactionToken,
      transactionVersion,
      cause,
      amount,
    }, origin);
    return commandAccepted(cardToken, outcome);
  }
}

/** A return gives spend back to its card. */
@CommandHandler(CreditCardReturnCommand)
export class CreditCardReturnHandler implements ICommandHandler<CreditCardReturnCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, cardToken, transactionToken, eventToken, amount, at }: CreditCardReturnCommand): Promise<CommandAccepted> {
    const outcome = await commandHandler(this.env, cardDecider, cardStreamId(cardToken)).handle({
      type: 'CreditReturn',
      cardToken,
      transactionToken,
      eventToken,
      amount,
      at,
    }, origin);
    return commandAccepted(cardToken, outcome);
  }
}
