import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { decodeEvent, LedgerEvent } from '@ledger/contracts';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { type BatchTransaction, CATCH_UP_BATCH_SIZE, type LogProcessor, pgTransactions, prismaTransactions, type ProcessorTransactions, READ_MODEL_PROJECTOR, SubscriptionProcessor } from '@ledger/runtime';
import { CardProjection } from './projections/card-projection';
import { EventSubscriptionProjection } from './projections/event-subscription-projection';
import { ProgramProjection } from './projections/program-projection';
import { newProjectionRows, ProjectionRows } from './projections/projection-rows';
import { projectedTables, ProjectedTables, SqlClient, SqlStatement } from './projections/read-model-tables';
import { StatementQueue } from './projections/statement-queue';
import { TransactionProjection } from './projections/transaction-projection';
import type { Projection } from './projections/projection';

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

  constructor(store: EventStore, readModel: ReadModelClient, options: ReadModelProjectorOptions = {}) {
    this.name = options.name ?? READ_MODEL_PROJECTOR;
    this.batchSize = options.batchSize ?? CATCH_UP_BATCH_SIZE;
    this.tables = projectedTables(options.schema);
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

  /** The batch's new events inside its transaction: rows loaded, events applied, rows written. */
  async apply(events: readonly RecordedEvent[], { sql }: BatchTransaction<unknown>): Promise<void> {
    const decoded = events.map((recorded) => ({ recorded, event: decodeEvent(recorded) }));
    const rows = await this.load(sql, decoded);
    const writes = new StatementQueue(sql);
    try {
      for (let start = 0; start < decoded.length; start += WRITE_EVERY) {
        const end = Math.min(start + WRITE_EVERY, decoded.length);
        for (let i = start; i < end; i++) {
          const { event, recorded } = decoded[i];
          for (const projection of this.handlers.get(event.type) ?? NONE) projection.apply(event, recorded, rows);
        }
        writes.push(this.writes(rows));
        // Let the driver send what is queued, so PostgreSQL works while the next events are applied.
        if (end < decoded.length) await new Promise((resolve) => setImmediate(resolve));
      }
      await writes.drain();
    } catch (error) {
      await writes.settle();
      throw error;
    }
  }

  /** Every stored row the batch's events read, one query per table that has any. */
  private async load(sql: SqlClient, decoded: readonly { event: LedgerEvent }[]): Promise<ProjectionRows> {
    const rows = newProjectionRows();
    for (const { event } of decoded) {
      for (const projection of this.handlers.get(event.type) ?? NONE) projection.need(event, rows);
    }
    const tables = this.tables;
    await tables.programs.load(sql, rows.programs);
    await tables.apiKeys.load(sql, rows.apiKeys);
    await tables.fundingSources.load(sql, rows.fundingSources);
    await tables.cards.load(sql, rows.cards);
    await tables.transactions.load(sql, rows.transactions);
    await tables.transactionCounts.load(sql, rows.transactionCounts);
    await tables.eventSubscriptions.load(sql, rows.eventSubscriptions);
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
