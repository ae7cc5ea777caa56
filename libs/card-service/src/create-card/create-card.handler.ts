import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import { CommandAccepted, CreateCardCommand, CommandOrigin } from '@ledger/contracts';
import {
  CreateCard,
  cardDecider,
  cardNumberRegistryDecider,
  cardNumberStreamId,
  CardNumberTaken,
  CardNumberSecrets,
  cardStreamId,
  ExistingProgram,
  programDecider,
  ProgramNotFound,
  programStreamId,
  programTime,
  resolveFundingSource,
} from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

/** A collision in a 10^9 number space is rare; ten in a row means something else is wrong. */
const MAX_NUMBER_DRAWS = 10;

@CommandHandler(CreateCardCommand)
export class CreateCardHandler implements ICommandHandler<CreateCardCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ origin, card }: CreateCardCommand): Promise<CommandAccepted> {
    const program = await this.program(origin.programToken);
    // The program was just loaded: its clock is known, no need for the pipeline to read it again.
    const businessNow = () => programTime(program.clock, this.env.now());
    const funding = resolveFundingSource(program, card.fundingToken);
    const cardToken = this.env.newId();
    const command = (cardNumber: CardNumberSecrets): CreateCard => ({
      type: 'CreateCard',
      cardToken,
      programToken: origin.programToken,
      cardType: card.type,
      state: card.state,
      memo: card.memo,
      spendLimit: card.spendLimit,
      spendLimitDuration: card.spendLimitDuration,
      fundingToken: funding.fundingToken,
      expiry: card.expiry,
      cardNumber,
      pinHash: card.pin === undefined ? undefined : this.vault.pinHash(cardToken, card.pin),
    });
    // Decide once before claiming a number, so a refused card leaves nothing behind in the registry.
    cardDecider.decide(command(this.vault.protect(this.vault.newCardNumber())), cardDecider.initialState(), { now: businessNow() });
    const cardNumber = await this.assignCardNumber(cardToken, origin, businessNow);
    const outcome = await commandHandler(this.env, cardDecider, cardStreamId(cardToken)).handle(command(cardNumber), origin, { businessNow });
    return commandAccepted(cardToken, outcome);
  }

  private async program(programToken: string): Promise<ExistingProgram> {
    const program = await commandHandler(this.env, programDecider, programStreamId(programToken)).state();
    if (program.status === 'absent') throw new ProgramNotFound(programToken);
    return program;
  }

  /**
   * Draws numbers until one is free, claiming it in the registry before the card exists. A crash in
   * between leaves a claimed number that no card uses: harmless, and never a duplicate. The claim
   * expects no stream; a number another card holds fails that append, is read, and is refused.
   */
  private async assignCardNumber(cardToken: string, origin: CommandOrigin, businessNow: () => Date): Promise<CardNumberSecrets> {
    for (let draw = 1; ; draw++) {
      const secrets = this.vault.protect(this.vault.newCardNumber());
      const registry = commandHandler(this.env, cardNumberRegistryDecider, cardNumberStreamId(secrets.panHash));
      try {
        await registry.handle({ type: 'AssignCardNumber', panHash: secrets.panHash, cardToken, programToken: origin.programToken }, origin, { newStream: true, writeOnce: true, businessNow });
        return secrets;
      } catch (error) {
        if (!(error instanceof CardNumberTaken) || draw >= MAX_NUMBER_DRAWS) throw error;
      }
    }
  }
}
