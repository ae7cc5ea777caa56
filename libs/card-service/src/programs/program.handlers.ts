import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomInt } from 'node:crypto';
import { generateApiKey, hashApiKey } from '@ledger/auth';
import {
  ApiKeyIssuedResult,
  CommandAccepted,
  CreateProgramCommand,
  IssueApiKeyCommand,
  ProgramCreatedResult,
  RevokeApiKeyCommand,
} from '@ledger/contracts';
import { GlobalPosition, formatPosition, commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { programDecider, programStreamId } from '@ledger/domain';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { onOwnProgram } from './own-program';

function written(position: GlobalPosition | undefined): string {
  if (!position) throw new Error('The command was expected to record events');
  return formatPosition(position);
}

@CommandHandler(CreateProgramCommand)
export class CreateProgramHandler implements ICommandHandler<CreateProgramCommand, ProgramCreatedResult> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute(command: CreateProgramCommand): Promise<ProgramCreatedResult> {
    const programToken = command.programToken ?? this.env.newId();
    const apiKey = command.apiKey ?? generateApiKey();
    const keyId = this.env.newId();
    const outcome = await commandHandler(this.env, programDecider, programStreamId(programToken)).handle({
      type: 'CreateProgram',
      programToken,
      name: command.name,
      apiKey: { keyId, keyHash: hashApiKey(apiKey) },
      defaultFundingSource: {
        fundingToken: this.env.newId(),
        nickname: '',
        accountName: `${command.name} checking`,
        lastFour: String(randomInt(10_000)).padStart(4, '0'),
      },
    }, { programToken, correlationId: command.correlationId, causationId: null });
    return { programToken, apiKey, keyId, position: written(outcome.position) };
  }
}

@CommandHandler(IssueApiKeyCommand)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKeyCommand, ApiKeyIssuedResult> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, apiKey = generateApiKey() }: IssueApiKeyCommand): Promise<ApiKeyIssuedResult> {
    const keyId = this.env.newId();
    const outcome = await onOwnProgram(this.env, origin, { type: 'IssueApiKey', apiKey: { keyId, keyHash: hashApiKey(apiKey) } });
    return { programToken: origin.programToken, apiKey, keyId, position: written(outcome.position) };
  }
}

@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, keyId }: RevokeApiKeyCommand): Promise<CommandAccepted> {
    const outcome = await onOwnProgram(this.env, origin, { type: 'RevokeApiKey', keyId });
    return { token: keyId, position: written(outcome.position) };
  }
}
