import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import {
  AuthorizationStreamSettings,
  CommandAccepted,
  DisenrollAuthorizationStreamCommand,
  EnrollAuthorizationStreamCommand,
  RotateAuthorizationStreamSecretCommand,
} from '@ledger/contracts';
import { checkedEndpointUrl, EndpointUrlNotAllowed } from '@ledger/domain';
import { EgressGuard } from '@ledger/egress';
import { formatPosition, PipelineEnvironment } from '@ledger/event-store';
import { generateSigningSecret } from '@ledger/messaging';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';
import { onOwnProgram } from '../programs/own-program';

@CommandHandler(EnrollAuthorizationStreamCommand)
export class EnrollAuthorizationStreamHandler implements ICommandHandler<EnrollAuthorizationStreamCommand, AuthorizationStreamSettings> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
    private readonly egress: EgressGuard,
  ) {}

  /**
   * The URL must be well formed (the domain's rule, checked first so its message wins) and lead where
   * the egress policy lets calls go; every authorization checks again at its connection.
   */
  async execute({ origin, url, timeoutMs }: EnrollAuthorizationStreamCommand): Promise<AuthorizationStreamSettings> {
    checkedEndpointUrl(url);
    if (!(await this.egress.check(url)).allowed) throw new EndpointUrlNotAllowed();
    const outcome = await onOwnProgram(this.env, origin, {
      type: 'EnrollAuthorizationStream',
      url,
      timeoutMs,
      newSecretSealed: this.vault.encrypt(generateSigningSecret()),
    });
    const stream = outcome.state.status === 'active' ? outcome.state.authorizationStream : null;
    if (!stream) throw new Error('The authorization stream was not recorded');
    return { url: stream.url, timeoutMs: stream.timeoutMs, secret: this.vault.decrypt(stream.secretSealed), position: outcome.position ? formatPosition(outcome.position) : null };
  }
}

@CommandHandler(RotateAuthorizationStreamSecretCommand)
export class RotateAuthorizationStreamSecretHandler implements ICommandHandler<RotateAuthorizationStreamSecretCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ origin }: RotateAuthorizationStreamSecretCommand): Promise<CommandAccepted> {
    const outcome = await onOwnProgram(this.env, origin, { type: 'RotateAuthorizationStreamSecret', newSecretSealed: this.vault.encrypt(generateSigningSecret()) });
    return commandAccepted(origin.programToken, outcome);
  }
}

@CommandHandler(DisenrollAuthorizationStreamCommand)
export class DisenrollAuthorizationStreamHandler implements ICommandHandler<DisenrollAuthorizationStreamCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin }: DisenrollAuthorizationStreamCommand): Promise<CommandAccepted> {
    const outcome = await onOwnProgram(this.env, origin, { type: 'DisenrollAuthorizationStream' });
    return commandAccepted(origin.programToken, outcome);
  }
}
