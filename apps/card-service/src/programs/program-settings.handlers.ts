import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomInt, randomUUID } from 'node:crypto';
import { AddFundingSourceCommand, CommandAccepted, ledgerCodec, UpdateFundingSourceCommand, UpdateProgramSettingsCommand } from '@ledger/contracts';
import { programDecider, ProgramEvent, programStreamId } from '@ledger/domain';
import { handleCommand, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

const codec = ledgerCodec<ProgramEvent>();

@CommandHandler(UpdateProgramSettingsCommand)
export class UpdateProgramSettingsHandler implements ICommandHandler<UpdateProgramSettingsCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, settings }: UpdateProgramSettingsCommand): Promise<CommandAccepted> {
    const outcome = await handleCommand(this.env, programDecider, codec, programStreamId(origin.programToken), {
      type: 'UpdateProgramSettings',
      programToken: origin.programToken,
      ...settings,
    }, origin);
    return commandAccepted(origin.programToken, outcome);
  }
}

@CommandHandler(AddFundingSourceCommand)
export class AddFundingSourceHandler implements ICommandHandler<AddFundingSourceCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, source }: AddFundingSourceCommand): Promise<CommandAccepted> {
    const fundingToken = randomUUID();
    // Only the last four digits of an account number are ever kept.
    const lastFour = source.accountNumber?.slice(-4) ?? String(randomInt(10_000)).padStart(4, '0');
    const outcome = await handleCommand(this.env, programDecider, codec, programStreamId(origin.programToken), {
      type: 'AddFundingSource',
      programToken: origin.programToken,
      source: {
        fundingToken,
        type: source.type ?? 'DEPOSITORY_CHECKING',
        state: source.state ?? 'ENABLED',
        nickname: source.nickname ?? '',
        accountName: source.accountName,
        lastFour,
      },
    }, origin);
    return commandAccepted(fundingToken, outcome);
  }
}

@CommandHandler(UpdateFundingSourceCommand)
export class UpdateFundingSourceHandler implements ICommandHandler<UpdateFundingSourceCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, fundingToken, changes }: UpdateFundingSourceCommand): Promise<CommandAccepted> {
    const outcome = await handleCommand(this.env, programDecider, codec, programStreamId(origin.programToken), {
      type: 'UpdateFundingSource',
      programToken: origin.programToken,
      fundingToken,
      ...changes,
    }, origin);
    return commandAccepted(fundingToken, outcome);
  }
}
