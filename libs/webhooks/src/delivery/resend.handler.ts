import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { ResendWebhookMessageCommand, WebhookMessageNotFound } from '@ledger/contracts';
import { EventSubscriptionNotFound } from '@ledger/domain';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * POST .../messages/{message_token}/resend: the message becomes pending and due at once, with the whole
 * retry schedule ahead of it again (its attempt numbers keep counting). Works for delivered, failed and
 * pending messages alike; the receiver sees the same webhook-id as before.
 */
@CommandHandler(ResendWebhookMessageCommand)
export class ResendWebhookMessageHandler implements ICommandHandler<ResendWebhookMessageCommand, void> {
  constructor(
    private readonly pool: Pool,
    @Inject(WebhookDispatcher) private readonly dispatcher: WebhookDispatcher,
  ) {}

  async execute({ programToken, subscriptionToken, messageId }: ResendWebhookMessageCommand): Promise<void> {
    const owned = await this.pool.query('select 1 from event_subscriptions where token = $1 and program_token = $2', [subscriptionToken, programToken]);
    if (owned.rowCount === 0) throw new EventSubscriptionNotFound(subscriptionToken);
    const resent = await this.pool.query(
      `update webhook_messages set status = 'pending', round_attempts = 0, next_attempt_at = $4
        where id = $1 and subscription_token = $2 and program_token = $3`,
      [messageId, subscriptionToken, programToken, new Date()],
    );
    if (resent.rowCount === 0) throw new WebhookMessageNotFound(messageId);
    this.dispatcher.wake();
  }
}
