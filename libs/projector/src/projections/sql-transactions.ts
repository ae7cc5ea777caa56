import type { Pool, PoolClient } from 'pg';
import type { ReadModelClient } from '@ledger/read-model';
import type { SqlClient } from './read-model-tables';

/** A batch's transaction may take this long before Prisma abandons it (it is then retried). */
const PRISMA_TRANSACTION_TIMEOUT_MS = 60_000;

type RawSql = Pick<ReadModelClient, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** Raw SQL through a Prisma client or interactive transaction. */
export function prismaSql(client: RawSql): SqlClient {
  return {
    query: <T>(text: string, values: readonly unknown[]) => client.$queryRawUnsafe<T[]>(text, ...values),
    execute: (text: string, values: readonly unknown[]) => client.$executeRawUnsafe(text, ...values),
  };
}

/** Runs `work` in a Prisma interactive transaction: committed when it resolves, rolled back when it throws. */
export async function inPrismaTransaction(client: ReadModelClient, work: (sql: SqlClient) => Promise<void>): Promise<void> {
  await client.$transaction((tx) => work(prismaSql(tx)), { timeout: PRISMA_TRANSACTION_TIMEOUT_MS });
}

/**
 * Runs `work` in a transaction on a connection of the pool: committed when it resolves, rolled back
 * when it throws. A connection whose rollback fails is discarded, not returned to the pool.
 */
export async function inPgTransaction(pool: Pool, work: (sql: SqlClient) => Promise<void>): Promise<void> {
  const connection = await pool.connect();
  let broken: Error | undefined;
  try {
    await connection.query('begin');
    await work(pgSql(connection));
    await connection.query('commit');
  } catch (error) {
    await connection.query('rollback').catch((rollbackFailure: unknown) => {
      broken = rollbackFailure instanceof Error ? rollbackFailure : new Error(String(rollbackFailure));
    });
    throw error;
  } finally {
    connection.release(broken);
  }
}

function pgSql(connection: PoolClient): SqlClient {
  return {
    query: async <T>(text: string, values: readonly unknown[]) => (await connection.query(text, [...values])).rows as T[],
    execute: async (text: string, values: readonly unknown[]) => (await connection.query(text, [...values])).rowCount ?? 0,
  };
}
