import type { SqlClient, SqlStatement } from './read-model-tables';

/**
 * Runs statements on one transaction strictly in the order they were pushed, one at a time, without
 * making the pusher wait: the projector applies the next events in memory while PostgreSQL executes
 * the writes of the previous ones. The first failure stops the queue; `drain` reports it.
 */
export class StatementQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly sql: SqlClient) {}

  push(statements: readonly SqlStatement[]): void {
    for (const statement of statements) {
      this.tail = this.tail.then(async () => {
        await this.sql.execute(statement.sql, statement.values);
      });
    }
    // The failure is reported by drain(); until then it must not count as unhandled.
    this.tail.catch(() => undefined);
  }

  /** Resolves when every pushed statement has run; rejects with the first failure. */
  drain(): Promise<void> {
    return this.tail;
  }

  /** Waits until nothing runs any more, whatever the outcome (before a rollback). */
  async idle(): Promise<void> {
    await this.tail.catch(() => undefined);
  }
}
