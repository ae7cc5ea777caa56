import type { CommandAccepted } from './card-commands';
import { type CommandOrigin } from './command-origin';

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

/** Lithic's recover: every failed message of the subscription created in [begin, end) is due again at once. Answers how many. */
export class RecoverEventSubscriptionCommand {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
    readonly range: { readonly begin?: Date; readonly end?: Date },
  ) {}
}

/**
 * Lithic's replay_missing: every event of the program created in [begin, end) that the subscription
 * wants and never got a message for gets one now, due at once. Answers how many.
 */
export class ReplayMissingEventsCommand {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
    readonly range: { readonly begin?: Date; readonly end?: Date },
  ) {}
}

/** Lithic's send_example (sandbox): one message of this type, a copy of the program's latest such event, to the subscription. */
export class SendExampleEventCommand {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
    readonly eventType: string,
  ) {}
}
