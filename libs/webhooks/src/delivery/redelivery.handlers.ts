import { Inject } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { RecoverEventSubscriptionCommand, ReplayMissingEventsCommand, SendExampleEventCommand, webhookMessageId } from '@ledger/contracts';
import { EventSubscriptionNotFound, NotFound, subscribesTo, type WebhookEventType } from '@ledger/domain';
import type { EventSubscriptionRow, ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { WebhookDispatcher } from './webhook-dispatcher';

/** How many events replay_missing reads and enqueues per transaction. */
const REPLAY_BATCH = 500;

interface Range {
  readonly begin?: Date;
  readonly end?: Date;
}

function createdIn(range: Range): { gte?: Date; lt?: Date } {
  return { ...(range.begin ? { gte: range.begin } : {}), ...(range.end ? { lt: range.end } : {}) };
}

/** A redelivery command names one subscription, which must be the calling program's. */
interface RedeliveryCommand {
  readonly programToken: string;
  readonly subscriptionToken: string;
}

/**
 * Redelivery on one of the program's subscriptions: after checking the subscription is the caller's,
 * `queue` makes messages due now, and the dispatcher is woken when it made any (rather than waiting
 * for its next poll).
 */
abstract class RedeliveryHandler<Command extends RedeliveryCommand, Result> {
  constructor(
    @Inject(READ_MODEL) protected readonly readModel: ReadModelClient,
    @Inject(WebhookDispatcher) private readonly dispatcher: WebhookDispatcher,
  ) {}

  async execute(command: Command): Promise<Result> {
    const { programToken, subscriptionToken } = command;
    const subscription = await this.readModel.eventSubscription.findFirst({ where: { token: subscriptionToken, programToken } });
    if (!subscription) throw new EventSubscriptionNotFound(subscriptionToken);
    const { queued, result } = await this.queue(command, subscription);
    if (queued > 0) this.dispatcher.wake();
    return result;
  }

  protected abstract queue(command: Command, subscription: EventSubscriptionRow): Promise<{ queued: number; result: Result }>;
}

/** Lithic's recover: failed messages created in the range become pending and due at once, as a resend makes one. */
@CommandHandler(RecoverEventSubscriptionCommand)
export class RecoverEventSubscriptionHandler extends RedeliveryHandler<RecoverEventSubscriptionCommand, number> {
  protected async queue({ programToken, subscriptionToken, range }: RecoverEventSubscriptionCommand) {
    const { count } = await this.readModel.webhookMessage.updateMany({
      where: { subscriptionToken, programToken, status: 'failed', created: createdIn(range) },
      data: { status: 'pending', roundAttempts: 0, nextAttemptAt: new Date() },
    });
    return { queued: count, result: count };
  }
}

/**
 * Lithic's replay_missing: the program's events (the events feed) created in the range, of types the
 * subscription wants, that have no message for it (it was created after them, disabled, or did not
 * want the type then) get one now, with the event's body and the message id a live feed would have
 * given it, so a later live feed of the same event adds nothing.
 */
@CommandHandler(ReplayMissingEventsCommand)
export class ReplayMissingEventsHandler extends RedeliveryHandler<ReplayMissingEventsCommand, number> {
  protected async queue({ programToken, subscriptionToken, range }: ReplayMissingEventsCommand, subscription: EventSubscriptionRow) {
    let added = 0;
    let after: { created: Date; token: string } | null = null;
    for (;;) {
      const events: { token: string; eventType: string; created: Date; payload: string }[] = await this.readModel.feedEvent.findMany({
        where: {
          programToken,
          created: createdIn(range),
          ...(after ? { OR: [{ created: { gt: after.created } }, { created: after.created, token: { gt: after.token } }] } : {}),
        },
        orderBy: [{ created: 'asc' }, { token: 'asc' }],
        take: REPLAY_BATCH,
        select: { token: true, eventType: true, created: true, payload: true },
      });
      if (events.length === 0) break;
      after = events[events.length - 1];
      const now = new Date();
      const rows = events
        .filter((event) => subscribesTo(subscription.eventTypes, event.eventType as WebhookEventType))
        .map((event) => ({
          id: webhookMessageId(event.token, subscriptionToken),
          eventId: event.token,
          subscriptionToken,
          programToken,
          eventType: event.eventType,
          body: event.payload,
          nextAttemptAt: now,
          created: now,
        }));
      if (rows.length > 0) added += (await this.readModel.webhookMessage.createMany({ data: rows, skipDuplicates: true })).count;
      if (events.length < REPLAY_BATCH) break;
    }
    return { queued: added, result: added };
  }
}

/** An example needs an event of its type to copy; a program that has none yet is told so. */
export class NoExampleEvent extends NotFound {
  static override readonly code = 'no_example_event';
  constructor(eventType: string) {
    super(`This program has no ${eventType} event yet to send as an example: make one first (create a card, simulate an authorization)`, 'event_type');
  }
}

/**
 * Lithic's send_example, sandbox only: a new message to the subscription with the body of the
 * program's latest event of that type, under a fresh message id (each example is a delivery of its own).
 */
@CommandHandler(SendExampleEventCommand)
export class SendExampleEventHandler extends RedeliveryHandler<SendExampleEventCommand, string> {
  protected async queue({ programToken, subscriptionToken, eventType }: SendExampleEventCommand) {
    const latest = await this.readModel.feedEvent.findFirst({ where: { programToken, eventType }, orderBy: [{ created: 'desc' }, { token: 'desc' }] });
    if (!latest) throw new NoExampleEvent(eventType);
    const id = randomUUID();
    const now = new Date();
    await this.readModel.webhookMessage.create({
      data: { id, eventId: `example-${id}`, subscriptionToken, programToken, eventType, body: latest.payload, nextAttemptAt: now, created: now },
    });
    return { queued: 1, result: id };
  }
}

export const REDELIVERY_HANDLERS = [RecoverEventSubscriptionHandler, ReplayMissingEventsHandler, SendExampleEventHandler];
