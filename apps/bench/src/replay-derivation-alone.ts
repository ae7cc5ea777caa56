import type { Pool } from 'pg';
import type { GlobalPosition, PostgresEventStore } from '@ledger/event-store';
import { type KnownRows, PROJECTION_TABLES, type ProjectionRows, ReadModelProjector, REPLAY_BATCH_SIZE } from '@ledger/projector';
import { createReadModelClient, migrateReadModel } from '@ledger/read-model';
import { pgProcessorSql } from '@ledger/runtime';

/**
 * The replay's Node.js stage without its writer: the log read a batch ahead and each batch derived by
 * the projector's replay pass into a fresh schema, its statements built and dropped. Nothing reaches
 * the tables, so the rows every batch derived are kept in memory (derivedTables) and a later batch's
 * events find them there, as a replay's find them in its tables; a row no batch derived is absent
 * without a read (the tables start empty). A replay also reads back, once per table and batch, the
 * rows of batches already committed; this does not. Answers events per second.
 */
export async function replayDerivationAlone(store: PostgresEventStore, pool: Pool, maxEvents: number): Promise<number> {
  const schema = `replay_derive_${process.pid}`;
  await pool.query(`drop schema if exists "${schema}" cascade`);
  await migrateReadModel(pool, { schema });
  const client = createReadModelClient(pool, { schema });
  try {
    const projector = new ReadModelProjector(store, client, { schema, pool, eventsFeed: false });
    const tables = derivedTables();
    const loads = pgProcessorSql(pool);
    const read = (after: GlobalPosition | null) => store.readAll({ after, maxCount: REPLAY_BATCH_SIZE });
    const started = process.hrtime.bigint();
    let events = 0;
    let next = read(null);
    while (events < maxEvents) {
      const batch = await next;
      if (batch.length === 0) break;
      next = read(batch[batch.length - 1].position);
      tables.keep((await projector.derive(batch, loads, tables.known)).rows);
      events += batch.length;
    }
    await next;
    return Math.round(events / (Number(process.hrtime.bigint() - started) / 1e9));
  } finally {
    await client.$disconnect();
    await pool.query(`drop schema if exists "${schema}" cascade`);
  }
}

/**
 * What the tables would hold had every batch been written: each row as the last batch that set it
 * left it. Without it, an event on a row an earlier batch wrote (a card's memo changed after its
 * batch) found the empty table and failed the run.
 */
function derivedTables(): { known: KnownRows; keep(rows: ProjectionRows): void } {
  const tables = new Map(PROJECTION_TABLES.map((name) => [name, new Map<string, unknown>()]));
  const known = Object.fromEntries([...tables].map(([name, table]) => [name, (key: string) => table.get(key) ?? null])) as KnownRows;
  return {
    known,
    keep(rows) {
      for (const [name, table] of tables) {
        const set = rows[name];
        // A key the batch set is a row it left, or null for one it deleted.
        for (const key of set.writtenKeys()) {
          const row = set.writtenRow(key);
          if (row) table.set(key, row);
          else table.delete(key);
        }
      }
    },
  };
}
