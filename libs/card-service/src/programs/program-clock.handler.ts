import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AdvanceProgramClockCommand, CommandAccepted } from '@ledger/contracts';
import { PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';
import { onOwnProgram } from './own-program';

/** The sandbox test clock: an event on the program's stream, so replay rebuilds the clock. */
@CommandHandler(AdvanceProgramClockCommand)
export class AdvanceProgramClockHandler implements ICommandHandler<AdvanceProgramClockCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, frozenTime }: AdvanceProgramClockCommand): Promise<CommandAccepted> {
    const outcome = await onOwnProgram(this.env, origin, { type: 'AdvanceProgramClock', frozenTime });
    return commandAccepted(origin.programToken, outcome);
  }
}
