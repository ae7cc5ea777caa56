import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandAccepted, SimulateTokenizationCommand, TokenizeCardCommand } from '@ledger/contracts';
import { CardLocator } from '../card-locator';

/**
 * A simulated wallet's request to tokenize a card: the card is found by its number here, as for a
 * simulated authorization, and the card-service decides the token (TokenizeCardHandler).
 */
@CommandHandler(SimulateTokenizationCommand)
export class SimulateTokenizationHandler implements ICommandHandler<SimulateTokenizationCommand, CommandAccepted> {
  constructor(
    private readonly commands: CommandBus,
    private readonly locator: CardLocator,
  ) {}

  async execute({ origin, pan, request }: SimulateTokenizationCommand): Promise<CommandAccepted> {
    const cardToken = await this.locator.cardTokenFor(pan, origin.programToken);
    return this.commands.execute<TokenizeCardCommand, CommandAccepted>(new TokenizeCardCommand(origin, cardToken, request));
  }
}
