import { IntegrationMessage, subjectTokenOf, webhookEventTypeOf, webhookMessageId } from '@ledger/contracts';
import { receivesEvent, WebhookEventType } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { EventBodies } from '../events/event-bodies';
import { WebhookPayloads } from './webhook-payloads';

type Reader = Pick<ReadModelTransaction, 'eventSubscription' | 'card' | 'fundingSource' | 'transaction'>;

/** An event whose webhook needs a card or transaction the read model does not have (yet). */
export class WebhookSubjectMissing extends Error {
  constructor(eventType: WebhookEventType, subjectToken: string, eventId: string) {
    super(`No read-model row for the ${eventType} webhook of event ${eventId} (subject ${subjectToken})`);
    this.name = 'WebhookSubjectMissing';
  }
}

/**
 * Turns integration envelopes into rows of the webhook outbox, one per (event, subscription). Both
 * feeds call it, the outbox feeder with envelopes it makes from the event store and the Kafka feeder
 * with the ones it consumes, so both fill the table the same way. A message goes to every subscription
 * of the event's program that is enabled now, wants its type and was created no later than the event
 * happened. The insert skips rows already there, so feeding an event twice changes nothing.
 */
export class WebhookEnqueuer {
  constructor(
    private readonly retrySchedule: readonly number[],
    /** card.updated bodies read the card's events up to the one delivered (previous_fields, state). */
    private readonly store: Pick<EventStore, 'readStream'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Which of these programs have an enabled subscription at all: the cheap first question of the Kafka feed. */
  async programsWithSubscriptions(readModel: Pick<ReadModelClient, 'eventSubscription'>, programTokens: readonly string[]): Promise<Set<string>> {
    const rows = await readModel.eventSubscription.findMany({
      where: { programToken: { in: [...programTokens] }, disabled: false },
      select: { programToken: true },
      distinct: ['programToken'],
    });
    return new Set(rows.map((row) => row.programToken));
  }

  /** Inserts the messages for these envelopes; answers how many rows were new. */
  async enqueue(tx: Reader & Pick<ReadModelTransaction, 'webhookMessage'>, envelopes: readonly IntegrationMessage[]): Promise<number> {
    const wanted = envelopes.flatMap((envelope) => {
      const eventType = webhookEventTypeOf(envelope);
      return eventType ? [{ envelope, eventType }] : [];
    });
    if (wanted.length === 0) return 0;
    const programs = [...new Set(wanted.map(({ envelope }) => envelope.program_token))];
    const subscriptions = await tx.eventSubscription.findMany({
      where: { programToken: { in: programs }, disabled: false },
      select: { token: true, programToken: true, eventTypes: true, created: true },
    });
    if (subscriptions.length === 0) return 0;

    const bodies = new EventBodies(new WebhookPayloads(tx), this.store);
    const subscribed = new Set(subscriptions.map((subscription) => subscription.programToken));
    await bodies.prefetch(wanted.filter(({ envelope }) => subscribed.has(envelope.program_token)).map(({ envelope, eventType }) => ({ eventType, subject: subjectTokenOf(envelope) })));
    const now = this.now();
    const firstAttempt = new Date(now.getTime() + (this.retrySchedule[0] ?? 0));
    const rows = [];
    for (const { envelope, eventType } of wanted) {
      const occurred = new Date(envelope.occurred_at);
      const targets = subscriptions.filter(
        (subscription) => receivesEvent(subscription, { programToken: envelope.program_token, eventType, occurredAt: occurred }),
      );
      if (targets.length === 0) continue;
      const subject = subjectTokenOf(envelope);
      const body = await bodies.body(eventType, subject, { streamId: envelope.stream_id, streamVersion: envelope.stream_version });
      if (body === null) throw new WebhookSubjectMissing(eventType, subject, envelope.id);
      const text = JSON.stringify(body);
      for (const subscription of targets) {
        const id = webhookMessageId(envelope.id, subscription.token);
        rows.push({
          id,
          eventId: envelope.id,
          subscriptionToken: subscription.token,
          programToken: envelope.program_token,
          eventType,
          body: text,
          nextAttemptAt: firstAttempt,
          created: now,
        });
      }
    }
    if (rows.length === 0) return 0;
    const { count } = await tx.webhookMessage.createMany({ data: rows, skipDuplicates: true });
    return count;
  }
}
