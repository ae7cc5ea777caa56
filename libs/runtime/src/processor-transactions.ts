import type { Pool, PoolClient } from 'pg';
import { textOf, type SqlText } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import type { ProcessorSql, ProcessorTransactions } from './subscription-processor';

/** A batch's transaction may take this long before Prisma abandons it (the processor then restarts). */
const PRISMA_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Transactions on connections of a node-postgres pool. A connection lost mid-batch (the server
 * restarting or shutting down) fails the batch, which the processor retries; it must not take the
 * process down, which an 'error' event on a checked-out client with no listener does. A connection
 * that failed, or whose rollback failed, is discarded, not returned to the pool.
 */
export function pgTransactions(pool: Pool): ProcessorTransactions<PoolClient> {
  return {
    async run(work) {
      const connection = await pool.connect();
      let broken: Error | undefined;
      const lost = (error: Error) => (broken = error);
      connection.on('error', lost);
      try {
        await connection.query('begin');
        const result = await work({ tx: connection, sql: pgProcessorSql(connection) });
        await connection.query('commit');
        return result;
      } catch (error) {
        await connection.query('rollback').catch((rollbackFailure: unknown) => {
          broken = rollbackFailure instanceof Error ? rollbackFailure : new Error(String(rollbackFailure));
        });
        throw error;
      } finally {
        connection.off('error', lost);
        connection.release(broken);
      }
    },
  };
}

/** Prisma interactive transactions, for followers that write through the read-model client (the webhook outbox). */
export function prismaTransactions(client: ReadModelClient): ProcessorTransactions<ReadModelTransaction> {
  return {
    run: (work) => client.$transaction((tx) => work({ tx, sql: prismaProcessorSql(tx) }), { maxWait: 10_000, timeout: PRISMA_TRANSACTION_TIMEOUT_MS }),
  };
}

export function pgProcessorSql(connection: Pick<PoolClient, 'query'>): ProcessorSql {
  return {
    query: async <T>(text: SqlText, values: readonly unknown[]) => (await connection.query(text, [...values])).rows as T[],
    execute: async (text: SqlText, values: readonly unknown[]) => (await connection.query(text, [...values])).rowCount ?? 0,
  };
}

function prismaProcessorSql(tx: Pick<ReadModelTransaction, '$queryRawUnsafe' | '$executeRawUnsafe'>): ProcessorSql {
  return {
    // Prisma prepares no statement by name: a prepared one is sent as its text.
    query: <T>(text: SqlText, values: readonly unknown[]) => tx.$queryRawUnsafe<T[]>(textOf(text), ...values),
    execute: (text: SqlText, values: readonly unknown[]) => tx.$executeRawUnsafe(textOf(text), ...values),
  };
}
