import type { Pool } from 'pg';
import type { GlobalPosition, PostgresEventStore } from '@ledger/event-store';
import { CarriedRows, ReadModelProjector, REPLAY_BATCH_SIZE } from '@ledger/projector';
import { createReadModelClient, migrateReadModel } from '@ledger/read-model';
import { pgProcessorSql } from '@ledger/runtime';

/**
 * The replay's Node.js stage without its writer: the log read a batch ahead and each batch derived by
 * the projector's replay pass into a fresh schema, its statements built and dropped. Every batch is
 * taken as committed at once, so the rows it wrote are read from the (empty) tables afterwards: the
 * rows differ from a replay's, the work per event does not. Answers events per second.
 */
export async function replayDerivationAlone(store: PostgresEventStore, pool: Pool, maxEvents: number): Promise<number> {
  const schema = `replay_derive_${process.pid}`;
  await pool.query(`drop schema if exists "${schema}" cascade`);
  await migrateReadModel(pool, { schema });
  const client = createReadModelClient(pool, { schema });
  try {
    const projector = new ReadModelProjector(store, client, { schema, pool, eventsFeed: false });
    const carried = new CarriedRows({ tablesStartEmpty: true });
    const loads = pgProcessorSql(pool);
    const read = (after: GlobalPosition | null) => store.readAll({ after, maxCount: REPLAY_BATCH_SIZE });
    const started = process.hrtime.bigint();
    let events = 0;
    let next = read(null);
    for (let number = 1; events < maxEvents; number++) {
      const batch = await next;
      if (batch.length === 0) break;
      next = read(batch[batch.length - 1].position);
      const derived = await projector.derive(batch, loads, carried.known);
      carried.carry(number, derived.rows);
      carried.committed(number);
      events += batch.length;
    }
    await next;
    return Math.round(events / (Number(process.hrtime.bigint() - started) / 1e9));
  } finally {
    await client.$disconnect();
    await pool.query(`drop schema if exists "${schema}" cascade`);
  }
}
