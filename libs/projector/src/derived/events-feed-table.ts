import { preparedSql } from '@ledger/event-store';
import { EVENT_FEED_CHANNEL, JSON_PARAMETER_CHARS, type ProcessorSql } from '@ledger/runtime';
import type { SqlStatement } from '../projections/read-model-tables';
import type { DerivedEvent } from './event-bodies-of-batch';

const COLUMNS = ['token', 'program_token', 'event_type', 'created', 'commit_position', 'prepare_position', 'payload'] as const;
const TYPES = ['uuid', 'uuid', 'text', 'timestamptz', 'bigint', 'bigint', 'text'] as const;

/** Rows per statement at most, whatever their size: 7 parameters each, far below PostgreSQL's 65,535. */
const MAX_ROWS = 1000;

/** Live batches are small: their statements are kept, a catch-up's larger ones made each time. */
const KEPT_STATEMENT_ROWS = 64;

const WAKE_READERS = preparedSql(`select pg_notify('${EVENT_FEED_CHANNEL}', '')`);

/**
 * The events feed (`feed_events`, GET /v1/events and its stream): a row for every event a webhook
 * carries, for every program, whether or not it has a subscription, written in the projector's batch
 * transaction, so rows are added in log order and a reader that has seen position P never later finds
 * a row before P.
 *
 * Each value is a parameter of its own, the payload sent as the text it is: inside a JSON parameter
 * (as the read models' upserts go) the payload, itself JSON, would be escaped whole a second time.
 */
export class EventsFeedTable {
  private readonly table: string;
  /** The insert for a number of rows, kept for the small numbers live batches have. */
  private readonly kept = new Map<number, string>();

  constructor(schema?: string) {
    this.table = schema ? `"${schema}".feed_events` : 'feed_events';
  }

  /** Inserts the events' rows (a repeat is skipped) and, when any is new, wakes the feed's readers at commit. */
  async insert(sql: ProcessorSql, events: readonly DerivedEvent[]): Promise<void> {
    let inserted = 0;
    for (const statement of this.statements(events)) inserted += await sql.execute(statement.sql, statement.values);
    // NOTIFY is delivered at commit, and only then: a stream woken by it finds the rows.
    if (inserted > 0) await sql.execute(WAKE_READERS, []);
  }

  /** The inserts of the events' rows, each made when it is taken; without waking readers (a replay's feed, in a schema no reader follows). */
  *statements(events: readonly DerivedEvent[]): Generator<SqlStatement> {
    for (const chunk of chunks(events)) yield { sql: this.statement(chunk.length), values: chunk.flatMap(feedRow) };
  }

  /**
   * Sent as text, not prepared: one statement per number of rows, of up to 448 parameters each, the
   * kept ones would hold about 12 MB of plans in every PostgreSQL connection (docs/decisions.md).
   */
  private statement(rows: number): string {
    let text = this.kept.get(rows);
    if (text === undefined) {
      const tuples = Array.from({ length: rows }, (_, row) => `(${TYPES.map((type, column) => `$${row * TYPES.length + column + 1}::${type}`).join(', ')})`);
      text = `insert into ${this.table} (${COLUMNS.join(', ')}) values ${tuples.join(', ')} on conflict (token) do nothing`;
      if (rows <= KEPT_STATEMENT_ROWS) this.kept.set(rows, text);
    }
    return text;
  }
}

/**
 * The events in statements of at most JSON_PARAMETER_CHARS characters of payload and MAX_ROWS rows:
 * a batch's payloads in one statement made a buffer of megabytes for the driver to build, which lands
 * in V8's large-object space.
 */
function* chunks(events: readonly DerivedEvent[]): Generator<DerivedEvent[]> {
  let chunk: DerivedEvent[] = [];
  let size = 0;
  for (const event of events) {
    if (chunk.length > 0 && (size + event.body.length > JSON_PARAMETER_CHARS || chunk.length === MAX_ROWS)) {
      yield chunk;
      chunk = [];
      size = 0;
    }
    chunk.push(event);
    size += event.body.length;
  }
  if (chunk.length > 0) yield chunk;
}

function feedRow({ recorded, eventType, body }: DerivedEvent): unknown[] {
  return [
    recorded.metadata.eventId,
    recorded.metadata.programToken,
    eventType,
    recorded.metadata.occurredAt,
    recorded.position.commit.toString(),
    recorded.position.prepare.toString(),
    body,
  ];
}
