import type { GlobalPosition, SqlText } from '@ledger/event-store';
import { checkpointStatement } from '@ledger/runtime';
import type { Pool, PoolClient } from 'pg';
import { combinedStatements } from './projections/combined-statements';
import type { SqlStatement } from './projections/read-model-tables';

/**
 * Writes a replay's batches on one connection of its own, each batch and the checkpoint after it in
 * one transaction, in the order they are given, without making the replay wait: the statements are
 * queued on the connection (node-postgres sends each as the one before it is answered) while the
 * replay reads and derives the next batches. A batch's statements go as one (combinedStatements):
 * each is sent only when the event loop turns, which deriving keeps busy. One connection keeps the
 * batches' writes in log order: a later batch's upsert of a row never overtakes an earlier one's.
 *
 * The replay writes into a schema of its own with one writer, so a batch takes no advisory lock and
 * reads no checkpoint before it is applied, as the live projector's batches do.
 */
export class ReplayWriter {
  private readonly inFlight: Promise<void>[] = [];
  private failure: { error: unknown } | null = null;
  /**
   * The last statement queued; each is sent once the one before it is answered, whatever its outcome
   * (node-postgres is not to be handed a query while one runs).
   */
  private last: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly connection: PoolClient,
    private readonly checkpointTable: string,
    private readonly name: string,
  ) {}

  static async open(pool: Pool, checkpointTable: string, name: string): Promise<ReplayWriter> {
    return new ReplayWriter(await pool.connect(), checkpointTable, name);
  }

  /**
   * Queues one batch's transaction: its statements, the checkpoint at `position`, the commit.
   * `committed` is told once the commit is answered. Throws the first failure of an earlier batch.
   */
  write(statements: readonly SqlStatement[], position: GlobalPosition, committed: () => void): void {
    this.throwIfFailed();
    const checkpoint = checkpointStatement(this.checkpointTable, this.name, position);
    const send = (text: SqlText, values?: readonly unknown[]) => {
      this.last = this.last.catch(() => undefined).then(() => this.connection.query(text, values && [...values]));
      return this.last;
    };
    const sent = [
      send('begin'),
      ...combinedStatements(statements).map((statement) => send(statement.sql, statement.values)),
      send(checkpoint.text, checkpoint.values),
      // Queued now, behind its own statements and ahead of the next batch's. After a failed
      // statement PostgreSQL answers it with a rollback, and the batch counts as failed.
      send('commit'),
    ];
    const commit = Promise.all(sent);
    for (const query of sent) query.catch(() => undefined);
    const batch = commit.then(
      () => committed(),
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
    this.inFlight.push(batch);
    void batch.then(() => this.inFlight.splice(this.inFlight.indexOf(batch), 1));
  }

  /** Waits until fewer than `batches` batches are in flight: what bounds the rows a replay carries. */
  async room(batches: number): Promise<void> {
    while (this.inFlight.length >= batches) await this.inFlight[0];
    this.throwIfFailed();
  }

  /** Waits until every queued batch is committed; throws the first failure. */
  async drain(): Promise<void> {
    await this.room(1);
  }

  /** Gives the connection back, once nothing is queued on it (broken if a batch failed). */
  async close(): Promise<void> {
    await Promise.all([...this.inFlight, this.last.catch(() => undefined)]);
    this.connection.release(this.failure ? new Error('replay writer failed') : undefined);
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
