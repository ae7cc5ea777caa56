import { Inject, Type } from '@nestjs/common';
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

/**
 * The handler of a message that is nothing but its domain command: it runs the command on the
 * subscription's stream and answers the subscription's token.
 */
function runningHandler<Message extends { readonly origin: CommandOrigin; readonly subscriptionToken: string }>(
  message: Type<Message>,
  command: (message: Message) => EventSubscriptionCommand,
): Type {
  @CommandHandler(message)
  class RunningHandler {
    constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

    async execute(received: Message): Promise<CommandAccepted> {
      return commandAccepted(received.subscriptionToken, await run(this.env, command(received), received.origin));
    }
  }
  Object.defineProperty(RunningHandler, 'name', { value: message.name.replace(/Command$/, 'Handler') });
  return RunningHandler;
}

export const DeleteEventSubscriptionHandler = runningHandler(DeleteEventSubscriptionCommand, ({ origin, subscriptionToken }) => ({
  type: 'DeleteEventSubscription',
  subscriptionToken,
  programToken: origin.programToken,
}));

/** The dispatcher's: a message failed its last attempt. */
export const MarkEventSubscriptionFailingHandler = runningHandler(MarkEventSubscriptionFailingCommand, ({ origin, subscriptionToken, messageId }) => ({
  type: 'MarkEventSubscriptionFailing',
  subscriptionToken,
  programToken: origin.programToken,
  messageId,
}));

/** The dispatcher's: a message of a failing subscription was delivered. */
export const MarkEventSubscriptionRecoveredHandler = runningHandler(MarkEventSubscriptionRecoveredCommand, ({ origin, subscriptionToken, messageId }) => ({
  type: 'MarkEventSubscriptionRecovered',
  subscriptionToken,
  programToken: origin.programToken,
  messageId,
}));

export const EVENT_SUBSCRIPTION_HANDLERS = [
  CreateEventSubscriptionHandler,
  UpdateEventSubscriptionHandler,
  RotateEventSubscriptionSecretHandler,
  DeleteEventSubscriptionHandler,
  MarkEventSubscriptionFailingHandler,
  MarkEventSubscriptionRecoveredHandler,
];
