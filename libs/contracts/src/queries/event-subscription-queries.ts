import type { PageRequest } from './page-request';
/** Read-side questions about event subscriptions and their deliveries. */
export class ListEventSubscriptionsQuery {
  constructor(
    readonly programToken: string,
    readonly paging: PageRequest,
  ) {}
}

export class GetEventSubscriptionQuery {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
  ) {}
}

export class GetEventSubscriptionSecretQuery {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
  ) {}
}

export type WebhookMessageStatus = 'pending' | 'delivered' | 'failed';
export const WEBHOOK_MESSAGE_STATUSES: readonly WebhookMessageStatus[] = ['pending', 'delivered', 'failed'];

/** Newest first. */
export class ListWebhookMessagesQuery {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
    readonly status: WebhookMessageStatus | undefined,
    readonly paging: PageRequest,
  ) {}
}

export class GetWebhookMessageQuery {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
    readonly messageId: string,
  ) {}
}

/** The delivery log, newest first: every attempt of the subscription, or of one of its messages. */
export class ListWebhookAttemptsQuery {
  constructor(
    readonly programToken: string,
    readonly subscriptionToken: string,
    readonly messageId: string | undefined,
    readonly paging: PageRequest,
    readonly filter: WebhookAttemptFilter = {},
  ) {}
}

/** Every attempt to deliver one event (Lithic's events.listAttempts), across the program's subscriptions. */
export class ListEventAttemptsQuery {
  constructor(
    readonly programToken: string,
    readonly eventToken: string,
    readonly paging: PageRequest,
    readonly filter: WebhookAttemptFilter = {},
  ) {}
}

/** Lithic's listAttempts filters: the attempt's outcome, and when it was made (begin inclusive, end exclusive). */
export interface WebhookAttemptFilter {
  readonly status?: 'FAILED' | 'PENDING' | 'SENDING' | 'SUCCESS';
  readonly createdFrom?: Date;
  readonly createdBefore?: Date;
}
