import type { Consumer, ConsumerConfig, IHeaders, Kafka } from 'kafkajs';
import { escapeIdentifier, type Pool, type PoolClient } from 'pg';
import type { IntegrationMessage } from '@ledger/contracts';
import { pgTransactions } from '@ledger/runtime';

/** Where each consumer records the ids it has applied; it belongs to messaging, not to the read models. */
export const PROCESSED_MESSAGES_TABLE = 'processed_messages';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a message came from, for logs and for handlers that care. */
export interface Delivery {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

export interface IdempotentConsumerOptions {
  readonly kafka: Kafka;
  readonly groupId: string;
  readonly topics: readonly string[];
  readonly pool: Pool;
  /** This consumer's name in processed_messages: its de-duplication scope. Keep it stable across releases. */
  readonly name: string;
  /**
   * Applies one message, inside the transaction that records its id: write through `client` only,
   * and throw to roll both back (the message is then delivered again). Never called twice for one id.
   */
  readonly apply: (message: IntegrationMessage, client: PoolClient, delivery: Delivery) => Promise<void>;
  /** Told after each delivery's transaction committed: applied false means a repeat that was dropped. */
  readonly onProcessed?: (message: IntegrationMessage, applied: boolean, delivery: Delivery) => void;
  /** Where a group without committed offsets starts. Default true: nothing published before it is missed. */
  readonly fromBeginning?: boolean;
  /** Schema of processed_messages; default the connection's current schema. */
  readonly schema?: string;
  /** Extra kafkajs consumer settings (session timeout, heartbeats, ...). */
  readonly consumer?: Omit<ConsumerConfig, 'groupId'>;
}

export interface RunningIdempotentConsumer {
  readonly consumer: Consumer;
  /** Finishes the message in hand, commits the offsets of what was processed, leaves the group. */
  stop(): Promise<void>;
}

/**
 * Exactly-once *effect* over at-least-once *delivery*. Kafka may deliver a message more than once
 * (the publisher resends after a crash before its checkpoint; a consumer that dies after applying a
 * message and before committing its offset gets it again). For each delivery this helper opens one
 * PostgreSQL transaction, inserts (consumer name, message id) into processed_messages with
 * `on conflict do nothing`, calls `apply` only when that insert added the row, and commits. Only
 * after the commit does kafkajs mark the offset as processed (eachMessage with autoCommit), so:
 *
 * - a crash before the commit leaves neither the effect nor the id, and the message comes again;
 * - a crash after the commit and before the offset commit redelivers a message whose id is already
 *   recorded, and `apply` is not called again;
 * - two group members that briefly both hold a partition during a rebalance serialise on the
 *   primary key: the second insert waits for the first transaction and then does nothing.
 *
 * The guarantee covers what `apply` writes through the given client. Side effects outside the
 * database (HTTP calls, e-mails) are still at-least-once and need their own idempotency key: the
 * message id. A message that cannot be parsed or has no id is not skipped: the error goes to kafkajs,
 * which retries and restarts the consumer, so nothing is silently lost.
 */
export async function runIdempotentConsumer(options: IdempotentConsumerOptions): Promise<RunningIdempotentConsumer> {
  const table = await ensureProcessedMessagesTable(options.pool, options.schema);
  const consumer = options.kafka.consumer({ ...options.consumer, groupId: options.groupId });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...options.topics], fromBeginning: options.fromBeginning ?? true });
    await consumer.run({
      autoCommit: true,
      eachMessage: async ({ topic, partition, message: raw }) => {
        const delivery: Delivery = {
          topic,
          partition,
          offset: raw.offset,
          key: raw.key ? raw.key.toString('utf8') : null,
          headers: headersOf(raw.headers),
        };
        const message = parseMessage(raw.value, delivery);
        const applied = await processOnce(options, table, message, delivery);
        options.onProcessed?.(message, applied, delivery);
      },
    });
  } catch (error) {
    await consumer.disconnect().catch(() => undefined);
    throw error;
  }
  return { consumer, stop: () => consumer.disconnect() };
}

/** Creates processed_messages if missing (safe when several consumers start at once); returns its name. */
export async function ensureProcessedMessagesTable(pool: Pool, schema?: string): Promise<string> {
  const table = schema ? `${escapeIdentifier(schema)}.${PROCESSED_MESSAGES_TABLE}` : PROCESSED_MESSAGES_TABLE;
  await pgTransactions(pool).run(async ({ tx: client }) => {
    // Two concurrent "create table if not exists" can both miss the table and collide in pg_type.
    await client.query(`select pg_advisory_xact_lock(hashtextextended('ledger:messaging:processed_messages', 0))`);
    if (schema) await client.query(`create schema if not exists ${escapeIdentifier(schema)}`);
    await client.query(
      `create table if not exists ${table} (
         consumer text not null,
         message_id uuid not null,
         processed_at timestamptz not null default now(),
         primary key (consumer, message_id)
       )`,
    );
  });
  return table;
}

async function processOnce(options: IdempotentConsumerOptions, table: string, message: IntegrationMessage, delivery: Delivery): Promise<boolean> {
  return pgTransactions(options.pool).run(async ({ tx: client }) => {
    const inserted = await client.query(`insert into ${table} (consumer, message_id) values ($1, $2) on conflict do nothing`, [options.name, message.id]);
    const applied = inserted.rowCount === 1;
    if (applied) await options.apply(message, client, delivery);
    return applied;
  });
}

function parseMessage(value: Buffer | null, delivery: Delivery): IntegrationMessage {
  const where = `${delivery.topic}[${delivery.partition}]@${delivery.offset}`;
  if (value === null) throw new Error(`Message ${where} has no value`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch (error) {
    throw new Error(`Message ${where} is not JSON: ${(error as Error).message}`);
  }
  const id = (parsed as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw new Error(`Message ${where} has no message id to de-duplicate on`);
  return parsed as IntegrationMessage;
}

function headersOf(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    result[name] = (Array.isArray(value) ? value : [value]).map((v) => v.toString()).join(',');
  }
  return result;
}
