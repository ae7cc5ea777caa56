import { EVENT_FEED_CHANNEL, jsonParameterChunks, type ProcessorSql } from '@ledger/runtime';
import type { DerivedEvent } from './event-bodies-of-batch';

/**
 * The events feed (`feed_events`, GET /v1/events and its stream): a row for every event a webhook
 * carries, for every program, whether or not it has a subscription, written in the projector's batch
 * transaction, so rows are added in log order and a reader that has seen position P never later finds
 * a row before P.
 */
export class EventsFeedTable {
  private readonly insertSql: string;

  constructor(schema?: string) {
    const table = schema ? `"${schema}".feed_events` : 'feed_events';
    this.insertSql = `insert into ${table} (token, program_token, event_type, created, commit_position, prepare_position, payload)
      select r.token, r.program_token, r.event_type, r.created, r.commit_position, r.prepare_position, r.payload
        from jsonb_to_recordset($1::jsonb)
          as r(token uuid, program_token uuid, event_type text, created timestamptz, commit_position bigint, prepare_position bigint, payload text)
      on conflict (token) do nothing`;
  }

  /** Inserts the events' rows (a repeat is skipped) and, when any is new, wakes the feed's readers at commit. */
  async insert(sql: ProcessorSql, events: readonly DerivedEvent[]): Promise<void> {
    if (events.length === 0) return;
    let inserted = 0;
    // Statements of at most JSON_PARAMETER_CHARS each: a whole batch as one parameter lands in V8's large-object space.
    for (const chunk of jsonParameterChunks(events, feedRowJson)) inserted += await sql.execute(this.insertSql, [chunk]);
    // NOTIFY is delivered at commit, and only then: a stream woken by it finds the rows.
    if (inserted > 0) await sql.execute(`select pg_notify('${EVENT_FEED_CHANNEL}', '')`, []);
  }
}

function feedRowJson({ recorded, eventType, body }: DerivedEvent): string {
  return JSON.stringify({
    token: recorded.metadata.eventId,
    program_token: recorded.metadata.programToken,
    event_type: eventType,
    created: recorded.metadata.occurredAt,
    commit_position: recorded.position.commit.toString(),
    prepare_position: recorded.position.prepare.toString(),
    payload: body,
  });
}
