import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomInt } from 'node:crypto';
import { AddFundingSourceCommand, CommandAccepted, UpdateFundingSourceCommand, UpdateProgramSettingsCommand } from '@ledger/contracts';
import { PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';
import { onOwnProgram } from './own-program';

@CommandHandler(UpdateProgramSettingsCommand)
export class UpdateProgramSettingsHandler implements ICommandHandler<UpdateProgramSettingsCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, settings }: UpdateProgramSettingsCommand): Promise<CommandAccepted> {
    const outcome = await onOwnProgram(this.env, origin, { type: 'UpdateProgramSettings', ...settings });
    return commandAccepted(origin.programToken, outcome);
  }
}

@CommandHandler(AddFundingSourceCommand)
export class AddFundingSourceHandler implements ICommandHandler<AddFundingSourceCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, source }: AddFundingSourceCommand): Promise<CommandAccepted> {
    const fundingToken = this.env.newId();
    // Only the last four digits of an account number are ever kept.
    const lastFour = source.accountNumber?.slice(-4) ?? String(randomInt(10_000)).padStart(4, '0');
    const outcome = await onOwnProgram(this.env, origin, {
      type: 'AddFundingSource',
      source: {
        fundingToken,
        type: source.type ?? 'DEPOSITORY_CHECKING',
        state: source.state ?? 'ENABLED',
        nickname: source.nickname ?? '',
        accountName: source.accountName,
        lastFour,
      },
    });
    return commandAccepted(fundingToken, outcome);
  }
}

@CommandHandler(UpdateFundingSourceCommand)
export class UpdateFundingSourceHandler implements ICommandHandler<UpdateFundingSourceCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, fundingToken, changes }: UpdateFundingSourceCommand): Promise<CommandAccepted> {
    const outcome = await onOwnProgram(this.env, origin, {
      type: 'UpdateFundingSource',
      fundingToken,
      ...changes,
    });
    return commandAccepted(fundingToken, outcome);
  }
}
