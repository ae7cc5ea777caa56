import { Logger } from '@nestjs/common';
import { comparePositions, type EventStore, formatPosition, type GlobalPosition, preparedSql, type PreparedSql, type RecordedEvent, restartingSubscription, type SqlText } from '@ledger/event-store';
import { PROJECTION_CHANNEL } from './projection-watcher';

/**
 * Events per read while a follower catches up, for the followers that run together in the projector
 * role (read models with the feeds they derive, ledger tree). Live reads are far smaller. A batch
 * costs a fixed handful of statements whatever its size, so larger batches catch up in fewer
 * transactions (500 events catch up at about 2/3 the rate of 2000), but they hold their batches
 * and what they build from them at once: 2000 each takes the service's resident memory past the
 * 250 MB ceiling while it catches up on a bulk load; 1000 stays under it with the same catch-up time
 * (docs/decisions.md, "Memory"; figures in docs/benchmarks.md). The batches' statement parameters
 * are written in chunks (JSON_PARAMETER_CHARS) so that they do not land in V8's large-object space.
 */
export const CATCH_UP_BATCH_SIZE = 1000;

/** Raw SQL inside a batch's transaction, whichever client runs it (node-postgres or Prisma). */
export interface ProcessorSql {
  query<T>(text: SqlText, values: readonly unknown[]): Promise<T[]>;
  /** A statement whose rows are not read (Prisma cannot read a `void` column such as pg_notify's); answers the rows affected. */
  execute(text: SqlText, values: readonly unknown[]): Promise<number>;
}

/** One transaction, as its client (`tx`, what the processor's own code writes with) and as raw SQL. */
export interface BatchTransaction<Tx> {
  readonly tx: Tx;
  readonly sql: ProcessorSql;
}

/** Opens a transaction, runs the work in it, commits when the work resolves and rolls back when it throws. */
export interface ProcessorTransactions<Tx> {
  run<T>(work: (batch: BatchTransaction<Tx>) => Promise<T>): Promise<T>;
}

/**
 * What one follower of the global log does with a batch. The processor owns everything else: reading
 * from its checkpoint, batching, the transaction, the checkpoint inside it, and restarting.
 */
export interface LogProcessor<Tx, Prepared = void> {
  /** Its row in projector_checkpoints. */
  readonly name: string;
  /** Events per read while catching up; a live read holds what was appended since the last. */
  readonly batchSize: number;
  /**
   * How long commits may gather before the next read: larger, fewer batches on a busy log. Zero for
   * a follower a reader waits on (the read models).
   */
  readonly gatherMs: number;
  /**
   * Where it stands, read inside a transaction, when something other than its checkpoint row says so
   * (the kept tree's last leaf); default the row. Both the restart and each batch's filter use it.
   */
  position?(batch: BatchTransaction<Tx>): Promise<GlobalPosition | null>;
  /**
   * Work that needs no lock, before the transaction opens (hashing, waiting for the read models).
   * Kept out of the transaction because its write ties up every subscriber: events committed after
   * an open writing transaction began are not read until it ends (postgres-schema.ts, "ready").
   */
  prepare?(events: readonly RecordedEvent[]): Promise<Prepared>;
  /** Told where it resumes, at every (re)start, before the first batch: state kept between batches starts afresh. */
  resumed?(after: GlobalPosition | null): void;
  /**
   * Applies the events this processor has not applied yet, inside the transaction that then moves
   * the checkpoint. Answers where to resume after this batch when that is not its last event, or
   * null to leave the checkpoint where it is.
   */
  apply(events: readonly RecordedEvent[], batch: BatchTransaction<Tx>, prepared: Prepared): Promise<GlobalPosition | null | void>;
  /** After the commit, with the batch's events. */
  committed?(events: readonly RecordedEvent[]): void;
}

/** Where it starts from is a debug line: followers start in the background, after the start banner. */
export type ProcessorLogger = Pick<Logger, 'error'> & Partial<Pick<Logger, 'debug'>>;

export interface SubscriptionProcessorOptions {
  /** projector_checkpoints, schema-qualified when the read models live in a schema of their own. */
  readonly checkpointTable?: string;
  readonly logger?: ProcessorLogger;
  /** Errors it restarts after that are expected and need no log line (a stopping follower's own). */
  readonly quiet?: (error: unknown) => boolean;
  readonly retryMs?: number;
}

/** Taken first in every batch's transaction, on the follower's key (see SubscriptionProcessor). */
const LOCK_FOLLOWER = preparedSql(`select pg_advisory_xact_lock(hashtextextended($1, 0))`);

/**
 * Runs one follower of the global log, shaped like Emmett's PostgreSQL processor: catch-up and live in
 * one loop (the store's subscription), batches, the checkpoint moved in the same transaction as the
 * follower's writes, and a restart from the checkpoint after any failure, so a crash never skips or
 * doubles an event.
 *
 * Two replicas of one follower never apply a batch twice: each transaction first takes an advisory
 * lock named after the follower and its checkpoint table (a replay into another schema is another
 * follower), then reads the checkpoint and applies only what lies past it. The
 * lock is advisory rather than a row lock on the checkpoint because a row lock gives the transaction
 * a transaction id at once, and every subscriber of the log waits for the oldest open transaction
 * with an id; this way the id comes with the batch's writes, at the end.
 */
export class SubscriptionProcessor<Tx, Prepared = void> {
  private readonly logger: ProcessorLogger;
  private readonly table: string;
  /** What every batch runs, whatever it holds: prepared once per connection. */
  private readonly statements: { readonly checkpoint: PreparedSql; readonly saveCheckpoint: PreparedSql };
  /** The advisory lock's key: this follower over this checkpoint table. */
  private readonly lockKey: string;
  private subscription: { stop(): Promise<void> } | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly transactions: ProcessorTransactions<Tx>,
    private readonly processor: LogProcessor<Tx, Prepared>,
    private readonly options: SubscriptionProcessorOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(`SubscriptionProcessor(${processor.name})`);
    this.table = options.checkpointTable ?? 'projector_checkpoints';
    this.lockKey = `ledger:processor:${this.table}:${processor.name}`;
    this.statements = {
      checkpoint: preparedSql(`select commit_position::text as commit, prepare_position::text as prepare from ${this.table} where name = $1`),
      saveCheckpoint: preparedSql(checkpointSql(this.table)),
    };
  }

  start(): void {
    this.subscription = restartingSubscription({
      store: this.store,
      checkpoint: async () => {
        const after = await this.transactions.run((batch) => this.position(batch));
        this.processor.resumed?.(after);
        this.logger.debug?.(`${this.processor.name}: following from ${after ? formatPosition(after) : 'the start of the log'}`);
        return after;
      },
      handle: (events) => this.process(events),
      batchSize: this.processor.batchSize,
      gatherMs: this.processor.gatherMs || undefined,
      retryMs: this.options.retryMs,
      onError: (error) => {
        if (!this.options.quiet?.(error)) this.logger.error(`${this.processor.name} interrupted, resuming from its checkpoint: ${String(error)}`);
      },
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }

  /** One batch: prepared, then applied and checkpointed in one transaction. Public so tests and replay drive it. */
  async process(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const prepared = this.processor.prepare ? await this.processor.prepare(events) : (undefined as Prepared);
    const applied = await this.transactions.run(async (batch) => {
      await batch.sql.execute(LOCK_FOLLOWER, [this.lockKey]);
      const done = await this.position(batch);
      const fresh = done ? events.filter((event) => comparePositions(event.position, done) > 0) : events;
      if (fresh.length === 0) return false;
      const resumeAt = await this.processor.apply(fresh, batch, prepared);
      if (resumeAt !== null) await this.saveCheckpoint(batch.sql, resumeAt ?? fresh[fresh.length - 1].position);
      return true;
    });
    if (applied) this.processor.committed?.(events);
  }

  private position(batch: BatchTransaction<Tx>): Promise<GlobalPosition | null> {
    return this.processor.position ? this.processor.position(batch) : this.checkpoint(batch.sql);
  }

  /** The follower's checkpoint row; null before its first batch. */
  async checkpoint(sql: ProcessorSql): Promise<GlobalPosition | null> {
    const rows = await sql.query<{ commit: string; prepare: string }>(this.statements.checkpoint, [this.processor.name]);
    return rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : null;
  }

  private async saveCheckpoint(sql: ProcessorSql, position: GlobalPosition): Promise<void> {
    await sql.execute(this.statements.saveCheckpoint, checkpointValues(this.processor.name, position));
  }
}

/**
 * A follower's checkpoint upsert and its announcement (ProjectionWatcher), in one statement: what
 * each batch's transaction ends with, here and in a replay that writes its batches itself.
 */
export function checkpointStatement(table: string, name: string, position: GlobalPosition): { text: string; values: string[] } {
  return {
    text: checkpointSql(table),
    values: checkpointValues(name, position),
  };
}

function checkpointValues(name: string, position: GlobalPosition): string[] {
  return [name, position.commit.toString(), position.prepare.toString(), PROJECTION_CHANNEL, `${name}|${formatPosition(position)}`];
}

function checkpointSql(table: string): string {
  return `with saved as (
         insert into ${table} (name, commit_position, prepare_position, updated)
         values ($1, $2::bigint, $3::bigint, now())
         on conflict (name) do update
           set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position, updated = excluded.updated
         returning name)
       select pg_notify($4, $5) from saved`;
}
