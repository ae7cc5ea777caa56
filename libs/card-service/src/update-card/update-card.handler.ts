import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import { CommandAccepted, UpdateCardCommand } from '@ledger/contracts';
import { cardDecider, cardStreamId, decideCardUpdate, programDecider, programStreamId, programTime, type UpdateCard } from '@ledger/domain';
import { decideAcrossStreams, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

/**
 * A card's update: decided on the card and the program (decideCardUpdate), and written with the
 * program's version checked, so a funding source the program lost meanwhile decides it again.
 */
@CommandHandler(UpdateCardCommand)
export class UpdateCardHandler implements ICommandHandler<UpdateCardCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ origin, cardToken, changes }: UpdateCardCommand): Promise<CommandAccepted> {
    const cardStream = cardStreamId(cardToken);
    const programStream = programStreamId(origin.programToken);
    const command: UpdateCard = {
      type: 'UpdateCard',
      cardToken,
      programToken: origin.programToken,
      state: changes.state,
      memo: changes.memo,
      fundingToken: changes.fundingToken,
      spendLimit: changes.spendLimit,
      spendLimitDuration: changes.spendLimitDuration,
      pinHash: changes.pin === undefined ? undefined : this.vault.pinHash(cardToken, changes.pin),
    };
    const outcome = await decideAcrossStreams(this.env, origin, cardStream, async (reader) => {
      const [card, program] = await Promise.all([reader.fold(cardDecider, cardStream), reader.fold(programDecider, programStream)]);
      const now = program.state.status === 'absent' ? this.env.now() : programTime(program.state.clock, this.env.now());
      const events = decideCardUpdate(command, card.state, program.state, now);
      return {
        now,
        result: null,
        streams: [
          { streamId: cardStream, folder: cardDecider, fold: card, events },
          // Only an update that names a funding source was decided on the program.
          ...(command.fundingToken === undefined ? [] : [{ streamId: programStream, folder: programDecider, fold: program, events: [] }]),
        ],
      };
    });
    return commandAccepted(cardToken, { position: outcome.position ?? undefined });
  }
}
