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
  ListWebhookMessagesQuery,
  Page,
  WebhookAttemptResponse,
  WebhookMessageNotFound,
  WebhookMessageResponse,
  WebhookMessageStatus,
} from '@ledger/contracts';
import { EventSubscriptionNotFound } from '@ledger/domain';
import type { EventSubscriptionRow, ReadModelClient, WebhookAttempt, WebhookMessage } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { OLDEST_FIRST, pageOf, pageWindow } from '../http/paging';

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
    payload: (JSON.parse(row.body) as { payload: unknown }).payload,
  };
}

export function presentAttempt(row: WebhookAttempt): WebhookAttemptResponse {
  return {
    message_token: row.messageId,
    event_subscription_token: row.subscriptionToken,
    attempt: row.attempt,
    created: row.at.toISOString(),
    url: row.url,
    response_status: row.responseStatus,
    error: row.error,
    duration_ms: row.durationMs,
  };
}

/** The subscription when it is the caller's; another program's token is not found (404, never 403). */
async function ownedSubscription(readModel: ReadModelClient, programToken: string, subscriptionToken: string): Promise<EventSubscriptionRow> {
  const row = await readModel.eventSubscription.findFirst({ where: { token: subscriptionToken, programToken } });
  if (!row) throw new EventSubscriptionNotFound(subscriptionToken);
  return row;
}

/** Oldest first, like every other list. */
@QueryHandler(ListEventSubscriptionsQuery)
export class ListEventSubscriptionsHandler implements IQueryHandler<ListEventSubscriptionsQuery, Page<EventSubscriptionResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, page, pageSize }: ListEventSubscriptionsQuery): Promise<Page<EventSubscriptionResponse>> {
    const where = { programToken };
    const [total, rows] = await Promise.all([
      this.readModel.eventSubscription.count({ where }),
      this.readModel.eventSubscription.findMany({ where, orderBy: OLDEST_FIRST, ...pageWindow(page, pageSize) }),
    ]);
    return pageOf(rows.map(presentSubscription), page, pageSize, total);
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

/** Newest first: the delivery log is read from the latest end. */
@QueryHandler(ListWebhookMessagesQuery)
export class ListWebhookMessagesHandler implements IQueryHandler<ListWebhookMessagesQuery, Page<WebhookMessageResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, subscriptionToken, status, page, pageSize }: ListWebhookMessagesQuery): Promise<Page<WebhookMessageResponse>> {
    await ownedSubscription(this.readModel, programToken, subscriptionToken);
    const where = { subscriptionToken, programToken, ...(status ? { status } : {}) };
    const [total, rows] = await Promise.all([
      this.readModel.webhookMessage.count({ where }),
      this.readModel.webhookMessage.findMany({ where, orderBy: [{ created: 'desc' }, { id: 'desc' }], ...pageWindow(page, pageSize) }),
    ]);
    return pageOf(rows.map(presentMessage), page, pageSize, total);
  }
}

@QueryHandler(GetWebhookMessageQuery)
export class GetWebhookMessageHandler implements IQueryHandler<GetWebhookMessageQuery, WebhookMessageResponse> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, subscriptionToken, messageId }: GetWebhookMessageQuery): Promise<WebhookMessageResponse> {
    await ownedSubscription(this.readModel, programToken, subscriptionToken);
    const row = await this.readModel.webhookMessage.findFirst({ where: { id: messageId, subscriptionToken, programToken } });
    if (!row) throw new WebhookMessageNotFound(messageId);
    return presentMessage(row);
  }
}

@QueryHandler(ListWebhookAttemptsQuery)
export class ListWebhookAttemptsHandler implements IQueryHandler<ListWebhookAttemptsQuery, Page<WebhookAttemptResponse>> {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async execute({ programToken, subscriptionToken, messageId, page, pageSize }: ListWebhookAttemptsQuery): Promise<Page<WebhookAttemptResponse>> {
    await ownedSubscription(this.readModel, programToken, subscriptionToken);
    if (messageId !== undefined) {
      const message = await this.readModel.webhookMessage.findFirst({ where: { id: messageId, subscriptionToken, programToken }, select: { id: true } });
      if (!message) throw new WebhookMessageNotFound(messageId);
    }
    const where = { subscriptionToken, ...(messageId !== undefined ? { messageId } : {}) };
    const [total, rows] = await Promise.all([
      this.readModel.webhookAttempt.count({ where }),
      this.readModel.webhookAttempt.findMany({ where, orderBy: [{ at: 'desc' }, { attempt: 'desc' }], ...pageWindow(page, pageSize) }),
    ]);
    return pageOf(rows.map(presentAttempt), page, pageSize, total);
  }
}

export const EVENT_SUBSCRIPTION_QUERY_HANDLERS = [
  ListEventSubscriptionsHandler,
  GetEventSubscriptionHandler,
  GetEventSubscriptionSecretHandler,
  ListWebhookMessagesHandler,
  GetWebhookMessageHandler,
  ListWebhookAttemptsHandler,
];
