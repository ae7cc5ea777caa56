import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import {
  EventSubscriptionResponse,
  EventSubscriptionSecretResponse,
  GetEventSubscriptionQuery,
  GetEventSubscriptionSecretQuery,
  GetWebhookMessageQuery,
  ListEventSubscriptionsQuery,
  ListWebhookAttemptsQuery,
  ListEventAttemptsQuery,
  ListWebhookMessagesQuery,
  Page,
  PageRequest,
  WebhookAttemptError,
  WebhookAttemptFilter,
  WebhookAttemptResponse,
  WebhookMessageNotFound,
  WebhookMessageResponse,
  WebhookMessageStatus,
} from '@ledger/contracts';
import { EventSubscriptionNotFound } from '@ledger/domain';
import type { EventSubscriptionRow, Prisma, ReadModelClient, WebhookAttempt, WebhookMessage } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { ownedRow } from '../listing/owned-row';
import { createdBetween, OLDEST_FIRST, tablePage } from '../listing/paging';

export function presentSubscription(row: EventSubscriptionRow): EventSubscriptionResponse {
  return { token: row.token, url: row.url, description: row.description, event_types: row.eventTypes, disabled: row.disabled, failing: row.failing };
}

export function presentMessage(row: WebhookMessage): WebhookMessageResponse {
  return {
    token: row.id,
    event_subscription_token: row.subscriptionToken,
    event_type: row.eventType,
    status: row.status as WebhookMessageStatus,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
    last_response_status: row.lastResponseStatus,
    created: row.created.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    // The body itself: Lithic's webhook bodies carry the object at the top level.
    payload: JSON.parse(row.body) as Record<string, unknown>,
  };
}

/** An attempt with the ledger event its message carries (Lithic's event_token). */
export function presentAttempt(row: WebhookAttempt, eventToken: string): WebhookAttemptResponse {
  return {
    token: row.token,
    event_token: eventToken,
    response: '',
    response_status_code: row.responseStatus ?? 0,
    status: row.responseStatus !== null && row.responseStatus >= 200 && row.responseStatus < 300 ? 'SUCCESS' : 'FAILED',
    message_token: row.messageId,
    event_subscription_token: row.subscriptionToken,
    attempt: row.attempt,
    created: row.at.toISOString(),
    url: row.url,
    response_status: row.responseStatus,
    // The dispatcher writes only these classes, and the table's check constraint holds it to them.
    error: row.error as WebhookAttemptError | null,
    duration_ms: row.durationMs,
  };
}

/** A message of the subscription, which is the program's. */
function ownedMessage(readModel: ReadModelClient, programToken: string, subscriptionToken: string, messageId: string): Promise<WebhookMessage> {
  return ownedRow(readModel.webhookMessage.findFirst({ where: { id: messageId, subscriptionToken, programToken } }), () => new WebhookMessageNotFound(messageId));
}

function ownedSubscription(readModel: ReadModelClient, programToken: string, subscriptionToken: string): Promise<EventSubscriptionRow> {
  return ownedRow(readModel.eventSubscription.findFirst({ where: { token: subscriptionToken, programToken } }), () => new EventSubscriptionNotFound(subscriptionToken));
}

/** Oldest first, like every other list. */
@QueryHandler(ListEventSubscriptionsQuery)
export class ListEventSubscriptionsHandler implements IQueryHandler<ListEventSubscriptionsQuery, Page<EventSubscriptionResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, paging }: ListEventSubscriptionsQuery): Promise<Page<EventSubscriptionResponse>> {
    return tablePage(paging, this.readModel.eventSubscription, {
      order: OLDEST_FIRST,
      noun: 'event subscription',
      where: { programToken },
      scope: { programToken },
      present: async (rows) => rows.map(presentSubscription),
    });
  }
}

@QueryHandler(GetEventSubscriptionQuery)
export class GetEventSubscriptionHandler implements IQueryHandler<GetEventSubscriptionQuery, EventSubscriptionResponse> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, subscriptionToken }: GetEventSubscriptionQuery): Promise<EventSubscriptionResponse> {
    return presentSubscription(await ownedSubscription(this.readModel, programToken, subscriptionToken));
  }
}

@QueryHandler(GetEventSubscriptionSecretQuery)
export class GetEventSubscriptionSecretHandler implements IQueryHandler<GetEventSubscriptionSecretQuery, EventSubscriptionSecretResponse> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly vault: CardVault,
  ) {}

  async execute({ programToken, subscriptionToken }: GetEventSubscriptionSecretQuery): Promise<EventSubscriptionSecretResponse> {
    const row = await ownedSubscription(this.readModel, programToken, subscriptionToken);
    return { secret: this.vault.decrypt(row.secretSealed) };
  }
}

/** Newest first: the delivery log is read from the latest end; cursors walk the same order. */
const NEWEST_MESSAGE_FIRST = { at: 'created', tie: 'id', direction: 'desc' } as const;
const NEWEST_ATTEMPT_FIRST = { at: 'at', tie: 'token', direction: 'desc' } as const;

/** Lithic's attempt status as a condition on the logged answer: SUCCESS is a 2xx; ended attempts are never PENDING or SENDING. */
function attemptStatusWhere(status: WebhookAttemptFilter['status']): Prisma.WebhookAttemptWhereInput {
  const success = { responseStatus: { gte: 200, lt: 300 } };
  switch (status) {
    case undefined:
      return {};
    case 'SUCCESS':
      return success;
    case 'FAILED':
      return { NOT: success };
    case 'PENDING':
    case 'SENDING':
      return { token: { in: [] } };
  }
}

@QueryHandler(ListWebhookMessagesQuery)
export class ListWebhookMessagesHandler implements IQueryHandler<ListWebhookMessagesQuery, Page<WebhookMessageResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, subscriptionToken, status, paging }: ListWebhookMessagesQuery): Promise<Page<WebhookMessageResponse>> {
    await ownedSubscription(this.readModel, programToken, subscriptionToken);
    return tablePage(paging, this.readModel.webhookMessage, {
      order: NEWEST_MESSAGE_FIRST,
      noun: 'message',
      where: { subscriptionToken, programToken, ...(status ? { status } : {}) },
      scope: { subscriptionToken, programToken },
      present: async (rows) => rows.map(presentMessage),
    });
  }
}

@QueryHandler(GetWebhookMessageQuery)
export class GetWebhookMessageHandler implements IQueryHandler<GetWebhookMessageQuery, WebhookMessageResponse> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, subscriptionToken, messageId }: GetWebhookMessageQuery): Promise<WebhookMessageResponse> {
    await ownedSubscription(this.readModel, programToken, subscriptionToken);
    return presentMessage(await ownedMessage(this.readModel, programToken, subscriptionToken, messageId));
  }
}

@QueryHandler(ListWebhookAttemptsQuery)
export class ListWebhookAttemptsHandler implements IQueryHandler<ListWebhookAttemptsQuery, Page<WebhookAttemptResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, subscriptionToken, messageId, paging, filter }: ListWebhookAttemptsQuery): Promise<Page<WebhookAttemptResponse>> {
    await ownedSubscription(this.readModel, programToken, subscriptionToken);
    if (messageId !== undefined) {
      const message = this.readModel.webhookMessage.findFirst({ where: { id: messageId, subscriptionToken, programToken }, select: { id: true } });
      await ownedRow(message, () => new WebhookMessageNotFound(messageId));
    }
    return attemptPage(this.readModel, { subscriptionToken, ...(messageId !== undefined ? { messageId } : {}) }, paging, filter);
  }
}

/** Lithic's events.listAttempts: every attempt to deliver one event, to any of the program's subscriptions. */
@QueryHandler(ListEventAttemptsQuery)
export class ListEventAttemptsHandler implements IQueryHandler<ListEventAttemptsQuery, Page<WebhookAttemptResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, eventToken, paging, filter }: ListEventAttemptsQuery): Promise<Page<WebhookAttemptResponse>> {
    const messages = await this.readModel.webhookMessage.findMany({ where: { eventId: eventToken, programToken }, select: { id: true } });
    return attemptPage(this.readModel, { messageId: { in: messages.map((message) => message.id) } }, paging, filter);
  }
}

/** One page of attempts within a scope (a subscription, a message, an event's messages), newest first. */
function attemptPage(readModel: ReadModelClient, scope: Prisma.WebhookAttemptWhereInput, paging: PageRequest, filter: WebhookAttemptFilter): Promise<Page<WebhookAttemptResponse>> {
  return tablePage(paging, readModel.webhookAttempt, {
    order: NEWEST_ATTEMPT_FIRST,
    noun: 'attempt',
    where: { ...scope, at: createdBetween(filter), ...attemptStatusWhere(filter.status) },
    scope,
    present: (rows) => presentAttempts(readModel, rows),
  });
}

async function presentAttempts(readModel: ReadModelClient, rows: WebhookAttempt[]): Promise<WebhookAttemptResponse[]> {
  const messageIds = [...new Set(rows.map((row) => row.messageId))];
  const messages = await readModel.webhookMessage.findMany({ where: { id: { in: messageIds } }, select: { id: true, eventId: true } });
  const eventOf = new Map(messages.map((message) => [message.id, message.eventId]));
  return rows.map((row) => presentAttempt(row, eventOf.get(row.messageId) ?? ''));
}

export const EVENT_SUBSCRIPTION_QUERY_HANDLERS = [
  ListEventSubscriptionsHandler,
  GetEventSubscriptionHandler,
  GetEventSubscriptionSecretHandler,
  ListWebhookMessagesHandler,
  GetWebhookMessageHandler,
  ListEventAttemptsHandler,
  ListWebhookAttemptsHandler,
];
