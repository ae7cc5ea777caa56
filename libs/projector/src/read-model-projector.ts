import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { decodeEvent, LedgerEvent } from '@ledger/contracts';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { type BatchTransaction, CATCH_UP_BATCH_SIZE, type LogProcessor, pgTransactions, prismaTransactions, type ProcessorTransactions, READ_MODEL_PROJECTOR, SubscriptionProcessor } from '@ledger/runtime';
import { CardProjection } from './projections/card-projection';
import { EventSubscriptionProjection } from './projections/event-subscription-projection';
import { ProgramProjection } from './projections/program-projection';
import { type KnownRows, newProjectionRows, ProjectionRows } from './projections/projection-rows';
import { projectedTables, ProjectedTables, SqlClient, SqlStatement } from './projections/read-model-tables';
import { StatementQueue } from './projections/statement-queue';
import { TransactionProjection } from './projections/transaction-projection';
import type { Projection } from './projections/projection';
import { EventBodiesOfBatch, webhookSubjectOf, type WebhookSubject } from './derived/event-bodies-of-batch';
import { EventsFeedTable } from './derived/events-feed-table';
import { WebhookOutboxTable, type WebhookOutboxOptions } from './derived/webhook-outbox-table';

/**
 * Events applied between writes within a batch: the rows they changed are sent to PostgreSQL, which
 * writes them while the next events are applied in memory (a row changed again is written again,
 * the later write winning).
 */
const WRITE_EVERY = 500;

const NONE: readonly Projection[] = [];

export interface ReadModelProjectorOptions {
  /** Its checkpoint row's name; default `read-models`. */
  readonly name?: string;
  /** The schema the read-model client writes to, named in the raw SQL; default the connection's. */
  readonly schema?: string;
  readonly batchSize?: number;
  /**
   * The pool under the read-model client. Given, each batch runs on a connection of its own through
   * node-postgres, which replays about 10% faster than a Prisma interactive transaction (Prisma adds
   * work per statement, noticeable on the large JSON parameters); without it, through Prisma.
   */
  readonly pool?: Pool;
  /** Writes the events feed's rows in each batch; default true. */
  readonly eventsFeed?: boolean;
  /** Writes the webhook outbox's messages in each batch (the embedded default, without Kafka); default none. */
  readonly webhookOutbox?: WebhookOutboxOptions & {
    /** Told after a batch that added messages committed, so the dispatcher need not wait for its next poll. */
    readonly onEnqueued?: () => void;
  };
}

/** A batch a replay derived in memory: the statements that write it, in order, and the rows it wrote. */
export interface DerivedBatch {
  readonly rows: ProjectionRows;
  readonly statements: readonly SqlStatement[];
}

/** A decoded event of the batch, with the webhook it becomes, if any. */
interface BatchEvent {
  readonly recorded: RecordedEvent;
  readonly event: LedgerEvent;
  readonly subject: WebhookSubject | null;
}

/**
 * Builds the PostgreSQL read models from the global log, as a SubscriptionProcessor: each batch of
 * events and the checkpoint after it are written in one transaction, so a crash never skips or
 * doubles an event, and two projector replicas never apply the same batch twice. It does not gather
 * commits: reads that must show a write wait for it here.
 *
 * A batch is applied in memory: the stored rows its events read are loaded with one query per
 * table, the projections fold the events onto them in log order with pure functions, and the
 * changed rows go back with one multi-row upsert (and, for deleted subscriptions, one delete) per
 * table, so a batch costs a handful of statements however many events it holds.
 */
export class ReadModelProjector implements LogProcessor<unknown> {
  readonly name: string;
  readonly batchSize: number;
  readonly gatherMs = 0;
  private readonly processor: SubscriptionProcessor<unknown>;
  private readonly projections: readonly Projection[] = [
    new ProgramProjection(),
    new CardProjection(),
    new TransactionProjection(),
    new EventSubscriptionProjection(),
  ];
  /** The projections each event type goes to. */
  private readonly handlers = new Map<string, readonly Projection[]>();
  private readonly tables: ProjectedTables;
  private readonly feed: EventsFeedTable | null;
  private readonly outbox: WebhookOutboxTable | null;
  private readonly onEnqueued: () => void;
  /** A dispute's and a token's webhook bodies are folded from their streams (EventBodiesOfBatch.foldStreams). */
  private readonly streams: Pick<EventStore, 'readStream'>;
  /** Set by a batch that enqueued webhook messages, told once it committed. */
  private enqueued = false;

  constructor(store: EventStore, readModel: ReadModelClient, options: ReadModelProjectorOptions = {}) {
    this.name = options.name ?? READ_MODEL_PROJECTOR;
    this.streams = store;
    this.batchSize = options.batchSize ?? CATCH_UP_BATCH_SIZE;
    this.tables = projectedTables(options.schema);
    this.feed = options.eventsFeed === false ? null : new EventsFeedTable(options.schema);
    this.outbox = options.webhookOutbox ? new WebhookOutboxTable(options.webhookOutbox, options.schema) : null;
    this.onEnqueued = options.webhookOutbox?.onEnqueued ?? (() => undefined);
    const transactions: ProcessorTransactions<unknown> = options.pool ? pgTransactions(options.pool) : prismaTransactions(readModel);
    this.processor = new SubscriptionProcessor(store, transactions, this, {
      // Raw SQL names the checkpoint table with the schema the Prisma client writes to.
      checkpointTable: options.schema ? `"${options.schema}".projector_checkpoints` : 'projector_checkpoints',
      logger: new Logger(ReadModelProjector.name),
    });
    for (const projection of this.projections) {
      for (const type of projection.events) this.handlers.set(type, [...(this.handlers.get(type) ?? []), projection]);
    }
  }

  start(): void {
    this.processor.start();
  }

  async stop(): Promise<void> {
    await this.processor.stop();
  }

  /** Applies one batch; public so tests and the replay tool can drive it directly. */
  async project(events: readonly RecordedEvent[]): Promise<void> {
    await this.processor.process(events);
  }

  /**
   * The batch's new events inside its transaction: rows loaded, events applied, rows written, and
   * what a webhook event derives (its body, the feed's row, the outbox's messages) from the rows as
   * each event left them.
   */
  async apply(events: readonly RecordedEvent[], { sql }: BatchTransaction<unknown>): Promise<void> {
    this.enqueued = false;
    const batch = this.decode(events);
    const bodies = new EventBodiesOfBatch(this.streams);
    const rows = await this.load(sql, batch, bodies, newProjectionRows());
    const writes = new StatementQueue(sql);
    try {
      for (let start = 0; start < batch.length; start += WRITE_EVERY) {
        const end = Math.min(start + WRITE_EVERY, batch.length);
        for (let i = start; i < end; i++) this.applyOne(batch[i], rows, bodies);
        writes.push(this.writes(rows));
        // Let the driver send what is queued, so PostgreSQL works while the next events are applied.
        if (end < batch.length) await new Promise((resolve) => setImmediate(resolve));
      }
      await writes.drain();
    } catch (error) {
      await writes.idle();
      throw error;
    }
    await this.feed?.insert(sql, bodies.events());
    if (this.outbox && (await this.outbox.enqueue(sql, bodies.events())) > 0) this.enqueued = true;
  }

  committed(): void {
    if (this.enqueued) this.onEnqueued();
  }

  /**
   * A replay's pass over a batch: the same loads, projections and bodies as {@link apply}, but the
   * rows of earlier batches still being written are taken from `known` rather than read (the table
   * does not show them yet), the rest are read with `sql` outside any transaction, and the statements
   * that write the batch are answered rather than run, so the caller sends them while it derives the
   * next batch. Each changed row is written once, as the batch leaves it: what the live path's
   * writes within a batch end with.
   */
  async derive(events: readonly RecordedEvent[], sql: SqlClient, known: KnownRows): Promise<DerivedBatch> {
    if (this.outbox) throw new Error('projector: a replay derives no webhook outbox (its messages are live deliveries)');
    const batch = this.decode(events);
    const bodies = new EventBodiesOfBatch(this.streams);
    const rows = await this.load(sql, batch, bodies, newProjectionRows(known));
    for (let start = 0; start < batch.length; start += WRITE_EVERY) {
      const end = Math.min(start + WRITE_EVERY, batch.length);
      for (let i = start; i < end; i++) this.applyOne(batch[i], rows, bodies);
      // Let the reads and writes in flight be answered between stretches of applying.
      if (end < batch.length) await new Promise((resolve) => setImmediate(resolve));
    }
    const statements = this.writes(rows);
    if (this.feed) statements.push(...this.feed.statements(bodies.events()));
    return { rows, statements };
  }

  private decode(events: readonly RecordedEvent[]): BatchEvent[] {
    const deriving = this.feed !== null || this.outbox !== null;
    return events.map((recorded) => ({ recorded, event: decodeEvent(recorded), subject: deriving ? webhookSubjectOf(recorded) : null }));
  }

  private applyOne({ recorded, event, subject }: BatchEvent, rows: ProjectionRows, bodies: EventBodiesOfBatch): void {
    const before = subject && bodies.cardBefore(subject, rows);
    for (const projection of this.handlers.get(event.type) ?? NONE) projection.apply(event, recorded, rows);
    if (subject) bodies.add(recorded, subject, rows, before);
  }

  /** Every stored row the batch's events read, and their bodies read, one query per table that has any. */
  private async load(sql: SqlClient, batch: readonly BatchEvent[], bodies: EventBodiesOfBatch, rows: ProjectionRows): Promise<ProjectionRows> {
    for (const { recorded, event, subject } of batch) {
      for (const projection of this.handlers.get(event.type) ?? NONE) projection.need(event, rows);
      if (subject) bodies.need(event, subject, rows, recorded);
    }
    await bodies.foldStreams();
    const tables = this.tables;
    await tables.programs.load(sql, rows.programs);
    await tables.apiKeys.load(sql, rows.apiKeys);
    await tables.transactions.load(sql, rows.transactions);
    await tables.transactionCounts.load(sql, rows.transactionCounts);
    await tables.eventSubscriptions.load(sql, rows.eventSubscriptions);
    // A body needs the card of a stored transaction, and the funding sources of both: known once they are loaded.
    bodies.needAfterLoad(rows);
    await tables.cards.load(sql, rows.cards);
    bodies.needFundingOfCards(rows);
    await tables.fundingSources.load(sql, rows.fundingSources);
    return rows;
  }

  /** The statements writing back what changed since the last call, table by table. */
  private writes(rows: ProjectionRows): SqlStatement[] {
    const tables = this.tables;
    return [
      ...tables.programs.writes(rows.programs),
      ...tables.apiKeys.writes(rows.apiKeys),
      ...tables.fundingSources.writes(rows.fundingSources),
      ...tables.cards.writes(rows.cards),
      ...tables.transactions.writes(rows.transactions),
      ...tables.transactionCounts.writes(rows.transactionCounts),
      ...tables.eventSubscriptions.writes(rows.eventSubscriptions),
    ];
  }
}
