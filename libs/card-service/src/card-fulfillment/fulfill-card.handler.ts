import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandAccepted, FulfillCardCommand } from '@ledger/contracts';
import { cardDecider, cardStreamId, programDecider, programStreamId, programTime } from '@ledger/domain';
import { decideAcrossStreams, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

/**
 * A card's plastic (shipment, renewal, reissue, conversion), decided on the card's stream at the
 * program's time: a renewal's generated expiry follows the program's test clock.
 */
@CommandHandler(FulfillCardCommand)
export class FulfillCardHandler implements ICommandHandler<FulfillCardCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, command }: FulfillCardCommand): Promise<CommandAccepted> {
    const cardStream = cardStreamId(command.cardToken);
    const outcome = await decideAcrossStreams(this.env, origin, cardStream, async (reader) => {
      const [card, program] = await Promise.all([reader.fold(cardDecider, cardStream), reader.fold(programDecider, programStreamId(origin.programToken))]);
      const now = program.state.status === 'absent' ? this.env.now() : programTime(program.state.clock, this.env.now());
      const events = cardDecider.decide({ ...command, programToken: origin.programToken }, card.state, { now });
      return { now, result: null, streams: [{ streamId: cardStream, folder: cardDecider, fold: card, events }] };
    });
    return commandAccepted(command.cardToken, { position: outcome.position ?? undefined });
  }
}
