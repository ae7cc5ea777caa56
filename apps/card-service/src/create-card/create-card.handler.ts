import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CardVault } from '@ledger/card-vault';
import { CommandAccepted, CreateCardCommand, ledgerCodec, CommandOrigin } from '@ledger/contracts';
import {
  CardEvent,
  CardNumberAssigned,
  CreateCard,
  cardDecider,
  cardNumberStreamId,
  CardNumberSecrets,
  cardStreamId,
  ExistingProgram,
  programDecider,
  ProgramEvent,
  ProgramNotFound,
  programStreamId,
  programTime,
  resolveFundingSource,
} from '@ledger/domain';
import { chainEvents, handleCommand, loadState, NO_STREAM, PipelineEnvironment, WrongExpectedVersionError } from '@ledger/event-store';
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
    const cardToken = randomUUID();
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
    const outcome = await handleCommand(this.env, cardDecider, ledgerCodec<CardEvent>(), cardStreamId(cardToken), command(cardNumber), origin, { businessNow });
    return commandAccepted(cardToken, outcome);
  }

  private async program(programToken: string): Promise<ExistingProgram> {
    const program = await loadState(this.env, programDecider, ledgerCodec<ProgramEvent>(), programStreamId(programToken));
    if (program.status === 'absent') throw new ProgramNotFound(programToken);
    return program;
  }

  /**
   * Draws numbers until one is free, claiming it in the registry before the card exists. A crash in
   * between leaves a claimed number that no card uses: harmless, and never a duplicate.
   */
  private async assignCardNumber(cardToken: string, origin: CommandOrigin, businessNow: () => Date): Promise<CardNumberSecrets> {
    for (let draw = 1; ; draw++) {
      const secrets = this.vault.protect(this.vault.newCardNumber());
      const event: CardNumberAssigned = { type: 'CardNumberAssigned', data: { panHash: secrets.panHash, cardToken, programToken: origin.programToken } };
      const metadata = { eventId: this.env.newId(), ...origin, occurredAt: businessNow().toISOString(), writtenAt: this.env.now().toISOString() };
      try {
        const streamId = cardNumberStreamId(secrets.panHash);
        await this.env.store.append(streamId, chainEvents(streamId, null, [ledgerCodec().encode(event, metadata)]), NO_STREAM);
        return secrets;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || draw >= MAX_NUMBER_DRAWS) throw error;
      }
    }
  }
}
