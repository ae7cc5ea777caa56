import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { PostgresEventStore } from '@ledger/event-store';
import { migrateReadModel, startEmbeddedPostgres } from '@ledger/read-model';
import { databasePool, keptSecret, LedgerConfig, ResolvedRuntime } from '@ledger/runtime';

export interface PreparedStorage {
  readonly runtime: ResolvedRuntime;
  /** Stops the embedded PostgreSQL, when this process started one. */
  readonly release: () => Promise<void>;
}

/**
 * Decides what the modules need before they are built: the database (DATABASE_URL, or an embedded
 * server whose data stays under the data folder), its schema, and the card data key.
 */
export async function prepareStorage(config: LedgerConfig, logger = new Logger('Storage')): Promise<PreparedStorage> {
  let databaseUrl = config.databaseUrl;
  let release = async (): Promise<void> => undefined;
  if (!databaseUrl && (await answers(embeddedUrl(config)))) {
    // Another process of ours (the server, or the admin CLI beside it) already runs the embedded server.
    databaseUrl = embeddedUrl(config);
  }
  if (!databaseUrl) {
    const dataDir = path.join(config.dataDir, 'postgres');
    logger.log(`DATABASE_URL is not set: starting embedded PostgreSQL in ${dataDir} on port ${config.embeddedPostgresPort}`);
    const embedded = await startEmbeddedPostgres({ dataDir, port: config.embeddedPostgresPort });
    databaseUrl = embedded.url;
    release = () => embedded.stop();
  }
  const pool = databasePool(databaseUrl, 2);
  try {
    if (config.eventStore === 'postgres') await new PostgresEventStore(pool).migrate();
    await migrateReadModel(pool);
  } finally {
    await pool.end();
  }
  const cardDataKey = config.cardDataKey ?? keptSecret(config.dataDir, 'card-data-key', () => randomBytes(32).toString('hex')).value;
  return { runtime: { config, databaseUrl, cardDataKey }, release };
}

function embeddedUrl(config: LedgerConfig): string {
  return `postgres://postgres:postgres@127.0.0.1:${config.embeddedPostgresPort}/ledger`;
}

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
