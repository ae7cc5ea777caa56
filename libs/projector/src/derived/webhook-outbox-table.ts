import { webhookMessageId } from '@ledger/contracts';
import { receivesEvent } from '@ledger/domain';
import { preparedSql, type PreparedSql } from '@ledger/event-store';
import { jsonParameterChunks, type ProcessorSql } from '@ledger/runtime';
import type { DerivedEvent } from './event-bodies-of-batch';

export interface WebhookOutboxOptions {
  /** Wait before each attempt; the first entry is the wait before the first one. */
  readonly retrySchedule: readonly number[];
  readonly now?: () => Date;
}

interface SubscriptionRow {
  readonly token: string;
  readonly program_token: string;
  readonly event_types: string[];
  readonly created: Date;
}

/**
 * The webhook outbox (`webhook_messages`) of the embedded default, where no Kafka feeds it: one
 * message per (event, subscription), for every subscription of the event's program that is enabled
 * when the batch is written, wants the event's type and was created no later than the event happened.
 * Written in the projector's batch transaction, after its read-model rows, so a subscription created
 * in the same batch is seen; the unique key makes an event fed twice add nothing.
 */
export class WebhookOutboxTable {
  private readonly subscriptionsSql: PreparedSql;
  private readonly insertSql: PreparedSql;
  private readonly now: () => Date;

  constructor(
    private readonly options: WebhookOutboxOptions,
    schema?: string,
  ) {
    const qualified = (table: string) => (schema ? `"${schema}".${table}` : table);
    this.now = options.now ?? (() => new Date());
    this.subscriptionsSql = preparedSql(`select token, program_token, event_types, created from ${qualified('event_subscriptions')} where program_token = any($1::uuid[]) and not disabled`);
    this.insertSql = preparedSql(`insert into ${qualified('webhook_messages')} (id, event_id, subscription_token, program_token, event_type, body, next_attempt_at, created)
      select r.id, r.event_id, r.subscription_token, r.program_token, r.event_type, r.body, r.next_attempt_at, r.created
        from jsonb_to_recordset($1::jsonb)
          as r(id uuid, event_id text, subscription_token uuid, program_token uuid, event_type text, body text, next_attempt_at timestamptz, created timestamptz)
      on conflict do nothing`);
  }

  /** Inserts the messages of these events; answers how many were new. */
  async enqueue(sql: ProcessorSql, events: readonly DerivedEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const programs = [...new Set(events.map((event) => event.recorded.metadata.programToken))];
    const rows = await sql.query<SubscriptionRow>(this.subscriptionsSql, [programs]);
    if (rows.length === 0) return 0;
    const subscriptions = rows.map((row) => ({ token: row.token, programToken: row.program_token, eventTypes: row.event_types, created: row.created }));
    const now = this.now();
    const created = now.toISOString();
    const firstAttempt = new Date(now.getTime() + (this.options.retrySchedule[0] ?? 0)).toISOString();
    const messages = [];
    for (const { recorded, eventType, body } of events) {
      const event = { programToken: recorded.metadata.programToken, eventType, occurredAt: new Date(recorded.metadata.occurredAt) };
      for (const subscription of subscriptions) {
        if (!receivesEvent(subscription, event)) continue;
        messages.push({
          id: webhookMessageId(recorded.metadata.eventId, subscription.token),
          event_id: recorded.metadata.eventId,
          subscription_token: subscription.token,
          program_token: recorded.metadata.programToken,
          event_type: eventType,
          body,
          next_attempt_at: firstAttempt,
          created,
        });
      }
    }
    let inserted = 0;
    for (const chunk of jsonParameterChunks(messages)) inserted += await sql.execute(this.insertSql, [chunk]);
    return inserted;
  }
}
