import type { Pool } from 'pg';
import { createReplaySchema, PROJECTED_TABLES } from '@ledger/projector';

/**
 * The replay's other ceiling: how fast PostgreSQL alone writes the rows a replay ends with (every
 * read-model table and the events feed), copied with one `insert ... select` per table from the kept
 * replay schema into a fresh one made as a replay's (createReplaySchema, the same indexes), no Node.js
 * work at all. A replay writes at least these rows (more: a row changed by several batches is written
 * by each), so it cannot replay events faster than this rate, whatever the log's read rate.
 */
export async function replayWriteCeiling(pool: Pool, replayedSchema: string, events: number): Promise<{ eventsPerSecond: number; seconds: number }> {
  const schema = `${replayedSchema}_ceiling`;
  await createReplaySchema(pool, schema);
  try {
    const started = process.hrtime.bigint();
    for (const table of [...Object.keys(PROJECTED_TABLES), 'feed_events']) {
      await pool.query(`insert into "${schema}"."${table}" select * from "${replayedSchema}"."${table}"`);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { eventsPerSecond: Math.round(events / seconds), seconds: Math.round(seconds * 100) / 100 };
  } finally {
    await pool.query(`drop schema if exists "${schema}" cascade`);
  }
}
