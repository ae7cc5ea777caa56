import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import { CommandAccepted, CreateCardCommand, CommandOrigin } from '@ledger/contracts';
import {
  checkedCardProgram,
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
  replacementTerms,
  resolveFundingSource,
  type CardType,
  type ReplacementTerms,
} from '@ledger/domain';
import { decideAcrossStreams, emptyFold, PipelineEnvironment, WrongExpectedVersionError } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

/** A collision in a 10^9 number space is rare; ten in a row means something else is wrong. */
const MAX_NUMBER_DRAWS = 10;

/**
 * A new card and the claim on its number in the card-number registry, decided together and written
 * as one atomic write with the program's version checked: a refused card claims nothing, and a card
 * never stands without its claim. Both streams must be new; a number another card holds refuses the
 * write on the registry's stream, and a new number is drawn.
 */
@CommandHandler(CreateCardCommand)
export class CreateCardHandler implements ICommandHandler<CreateCardCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ origin, card }: CreateCardCommand): Promise<CommandAccepted> {
    checkedCardProgram(origin.programToken, card.cardProgramToken);
    const cardToken = this.env.newId();
    const pinHash = card.pin === undefined ? undefined : this.vault.pinHash(cardToken, card.pin);
    for (let draw = 1; ; draw++) {
      const cardNumber = this.vault.protect(this.vault.newCardNumber());
      try {
        return await this.create(origin, cardToken, cardNumber, card.replacementFor === undefined ? undefined : { token: card.replacementFor, cardType: card.type }, (program, replacing): CreateCard => ({
          type: 'CreateCard',
          cardToken,
          programToken: origin.programToken,
          cardType: card.type,
          state: card.state,
          memo: card.memo,
          spendLimit: card.spendLimit ?? replacing?.spendLimit,
          spendLimitDuration: card.spendLimitDuration ?? replacing?.spendLimitDuration,
          fundingToken: resolveFundingSource(program, card.fundingToken ?? replacing?.fundingToken).fundingToken,
          expiry: card.expiry,
          cardNumber,
          pinHash,
          shipping: card.shipping,
          replacementFor: card.replacementFor,
        }));
      } catch (error) {
        const numberTaken = error instanceof WrongExpectedVersionError && error.streamId === cardNumberStreamId(cardNumber.panHash);
        if (!numberTaken || draw >= MAX_NUMBER_DRAWS) throw numberTaken ? new CardNumberTaken() : error;
      }
    }
  }

  /**
   * A replacement is decided on the replaced card too: its stream is read and checked in the same
   * write, so the terms it hands on are the card's as it is when the replacement is recorded.
   */
  private async create(
    origin: CommandOrigin,
    cardToken: string,
    cardNumber: CardNumberSecrets,
    replacement: { readonly token: string; readonly cardType: CardType } | undefined,
    command: (program: ExistingProgram, replacing: ReplacementTerms | undefined) => CreateCard,
  ): Promise<CommandAccepted> {
    const cardStream = cardStreamId(cardToken);
    const registryStream = cardNumberStreamId(cardNumber.panHash);
    const programStream = programStreamId(origin.programToken);
    const outcome = await decideAcrossStreams(this.env, origin, cardStream, async (reader) => {
      const program = await reader.fold(programDecider, programStream);
      if (program.state.status === 'absent') throw new ProgramNotFound(origin.programToken);
      const now = programTime(program.state.clock, this.env.now());
      const [noCard, noClaim] = [emptyFold(cardDecider), emptyFold(cardNumberRegistryDecider)];
      const replaced = replacement && (await reader.fold(cardDecider, cardStreamId(replacement.token)));
      const terms = replaced ? replacementTerms(replaced.state, replacement.token, origin.programToken, replacement.cardType) : undefined;
      const cardEvents = cardDecider.decide(command(program.state, terms), noCard.state, { now });
      const claim = cardNumberRegistryDecider.decide({ type: 'AssignCardNumber', panHash: cardNumber.panHash, cardToken, programToken: origin.programToken }, noClaim.state, { now });
      return {
        now,
        result: null,
        streams: [
          { streamId: registryStream, folder: cardNumberRegistryDecider, fold: noClaim, events: claim, mustBeNew: true, writeOnce: true },
          { streamId: cardStream, folder: cardDecider, fold: noCard, events: cardEvents, mustBeNew: true },
          { streamId: programStream, folder: programDecider, fold: program, events: [] },
          ...(replaced ? [{ streamId: cardStreamId(replacement.token), folder: cardDecider, fold: replaced, events: [] }] : []),
        ],
      };
    });
    return commandAccepted(cardToken, { position: outcome.position ?? undefined });
  }
}
