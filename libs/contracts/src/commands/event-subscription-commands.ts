import type { CommandOrigin } from '@ledger/event-store';
import type { CommandAccepted } from './card-commands';

/** What create and rotate answer: the clear signing secret comes back once, to the caller. */
export interface EventSubscriptionSecretIssued extends CommandAccepted {
  readonly secret: string;
}

export class CreateEventSubscriptionCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly subscription: {
      readonly url: string;
      readonly description?: string;
      readonly eventTypes?: readonly string[];
      readonly disabled?: boolean;
    },
  ) {}
}

export class UpdateEventSubscriptionCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly subscriptionToken: string,
    readonly changes: {
      readonly url?: string;
      readonly description?: string;
      readonly eventTypes?: readonly string[];
      readonly disabled?: boolean;
    },
  ) {}
}

export class RotateEventSubscriptionSecretCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly subscriptionToken: string,
  ) {}
}

export class DeleteEventSubscriptionCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly subscriptionToken: string,
  ) {}
}

/** Sent by the dispatcher when a message ran out of retries. */
export class MarkEventSubscriptionFailingCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly subscriptionToken: string,
    readonly messageId: string,
  ) {}
}

/** Sent by the dispatcher when a delivery to a failing subscription succeeded. */
export class MarkEventSubscriptionRecoveredCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly subscriptionToken: string,
    readonly messageId: string,
  ) {}
}

/**
 * Makes a message due again at once, with the whole retry schedule ahead of it. Deliveries are not
 * events (the table is the outbox), so this changes the delivery table only.
 */
export class ResendWebhookMessageCommand {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
    readonly messageId: string,
  ) {}
}
