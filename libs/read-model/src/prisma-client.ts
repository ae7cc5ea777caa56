import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient } from './generated/prisma/client';
export type { ApiKey, Card, FundingSource, Program, ProjectorCheckpoint, Transaction, TransactionCount } from './generated/prisma/client';
export type { EventSubscription as EventSubscriptionRow, WebhookAttempt, WebhookMessage } from './generated/prisma/client';

export interface ReadModelClientOptions {
  /** Schema holding the read-model tables (see `migrateReadModel`); default `public`. */
  schema?: string;
}

/**
 * A Prisma client over the given pool, through the `pg` driver adapter (Prisma 7 has no query engine
 * binary). The pool stays the caller's: `$disconnect()` does not end it. BigInt columns come back as
 * `bigint`, timestamptz(3) as `Date`.
 */
export function createReadModelClient(pool: Pool, options: ReadModelClientOptions = {}): PrismaClient {
  // The adapter puts an 'error' listener on the shared pool per connected client (and takes it off on
  // $disconnect): a ledger's dozen clients on one pool are not a leak, so each client brings its own room.
  pool.setMaxListeners(pool.getMaxListeners() + 1);
  const adapter = new PrismaPg(pool, options.schema === undefined ? undefined : { schema: options.schema });
  return new PrismaClient({ adapter });
}
