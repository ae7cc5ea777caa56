import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import {
  CommandAccepted,
  CreateEventSubscriptionCommand,
  DeleteEventSubscriptionCommand,
  EventSubscriptionSecretIssued,
  MarkEventSubscriptionFailingCommand,
  MarkEventSubscriptionRecoveredCommand,
  RotateEventSubscriptionSecretCommand,
  UpdateEventSubscriptionCommand,
  CommandOrigin,
} from '@ledger/contracts';
import {
  checkedEndpointUrl,
  EndpointUrlNotAllowed,
  EventSubscriptionCommand,
  eventSubscriptionDecider,
  eventSubscriptionStreamId,
} from '@ledger/domain';
import { EgressGuard } from '@ledger/egress';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { generateSigningSecret } from '@ledger/messaging';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

function run(env: PipelineEnvironment, command: EventSubscriptionCommand, origin: CommandOrigin) {
  return commandHandler(env, eventSubscriptionDecider, eventSubscriptionStreamId(command.subscriptionToken)).handle(command, origin);
}

/**
 * The receiver's URL must be well formed (the domain's rule, checked first so its message wins) and
 * lead where the egress policy lets webhooks go: its host and every address it resolves to now.
 * Deliveries check again at every connection.
 */
async function refuseForbiddenUrl(egress: EgressGuard, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  checkedEndpointUrl(url);
  if (!(await egress.check(url)).allowed) throw new EndpointUrlNotAllowed();
}

/** Creates the subscription with a fresh whsec_ secret, sealed before it is recorded; answers it in clear once. */
@CommandHandler(CreateEventSubscriptionCommand)
export class CreateEventSubscriptionHandler implements ICommandHandler<CreateEventSubscriptionCommand, EventSubscriptionSecretIssued> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
    private readonly egress: EgressGuard,
  ) {}

  async execute({ origin, subscription }: CreateEventSubscriptionCommand): Promise<EventSubscriptionSecretIssued> {
    await refuseForbiddenUrl(this.egress, subscription.url);
    const subscriptionToken = this.env.newId();
    const secret = generateSigningSecret();
    const outcome = await run(
      this.env,
      { type: 'CreateEventSubscription', subscriptionToken, programToken: origin.programToken, ...subscription, secretSealed: this.vault.encrypt(secret) },
      origin,
    );
    return { ...commandAccepted(subscriptionToken, outcome), secret };
  }
}

@CommandHandler(UpdateEventSubscriptionCommand)
export class UpdateEventSubscriptionHandler implements ICommandHandler<UpdateEventSubscriptionCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly egress: EgressGuard,
  ) {}

  async execute({ origin, subscriptionToken, changes }: UpdateEventSubscriptionCommand): Promise<CommandAccepted> {
    await refuseForbiddenUrl(this.egress, changes.url);
    const outcome = await run(this.env, { type: 'UpdateEventSubscription', subscriptionToken, programToken: origin.programToken, ...changes }, origin);
    return commandAccepted(subscriptionToken, outcome);
  }
}

/** The new secret signs every delivery from now on, retries of older messages included. */
@CommandHandler(RotateEventSubscriptionSecretCommand)
export class RotateEventSubscriptionSecretHandler implements ICommandHandler<RotateEventSubscriptionSecretCommand, EventSubscriptionSecretIssued> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ origin, subscriptionToken }: RotateEventSubscriptionSecretCommand): Promise<EventSubscriptionSecretIssued> {
    const secret = generateSigningSecret();
    const outcome = await run(
      this.env,
      { type: 'RotateEventSubscriptionSecret', subscriptionToken, programToken: origin.programToken, newSecretSealed: this.vault.encrypt(secret) },
      origin,
    );
    return { ...commandAccepted(subscriptionToken, outcome), secret };
  }
}

@CommandHandler(DeleteEventSubscriptionCommand)
export class DeleteEventSubscriptionHandler implements ICommandHandler<DeleteEventSubscriptionCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, subscriptionToken }: DeleteEventSubscriptionCommand): Promise<CommandAccepted> {
    const outcome = await run(this.env, { type: 'DeleteEventSubscription', subscriptionToken, programToken: origin.programToken }, origin);
    return commandAccepted(subscriptionToken, outcome);
  }
}

@CommandHandler(MarkEventSubscriptionFailingCommand)
export class MarkEventSubscriptionFailingHandler implements ICommandHandler<MarkEventSubscriptionFailingCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, subscriptionToken, messageId }: MarkEventSubscriptionFailingCommand): Promise<CommandAccepted> {
    const outcome = await run(this.env, { type: 'MarkEventSubscriptionFailing', subscriptionToken, programToken: origin.programToken, messageId }, origin);
    return commandAccepted(subscriptionToken, outcome);
  }
}

@CommandHandler(MarkEventSubscriptionRecoveredCommand)
export class MarkEventSubscriptionRecoveredHandler implements ICommandHandler<MarkEventSubscriptionRecoveredCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, subscriptionToken, messageId }: MarkEventSubscriptionRecoveredCommand): Promise<CommandAccepted> {
    const outcome = await run(this.env, { type: 'MarkEventSubscriptionRecovered', subscriptionToken, programToken: origin.programToken, messageId }, origin);
    return commandAccepted(subscriptionToken, outcome);
  }
}

export const EVENT_SUBSCRIPTION_HANDLERS = [
  CreateEventSubscriptionHandler,
  UpdateEventSubscriptionHandler,
  RotateEventSubscriptionSecretHandler,
  DeleteEventSubscriptionHandler,
  MarkEventSubscriptionFailingHandler,
  MarkEventSubscriptionRecoveredHandler,
];
