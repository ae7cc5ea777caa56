import { comparePositions, EventStore, GlobalPosition, RecordedEvent } from '@ledger/event-store';
import { createReadModelClient } from '@ledger/read-model';
import type { Pool } from 'pg';
import { PROJECTED_TABLES } from './projections/read-model-tables';
import { ReadModelProjector } from './read-model-projector';
import { replayPipeline } from './replay-pipeline';
import { createReplaySchema } from './replay-schema';

// Exported here too: the projector spec compares its schemas over the same tables.
export { PROJECTED_TABLES };

/**
 * Events per read and per projected batch in a replay. Larger than the live projector's batches
 * (CATCH_UP_BATCH_SIZE, libs/runtime): a replay's transaction writes into a throwaway schema nobody
 * reads, and on the bench's log 5,000 replays 15-20% faster than 2,000, while 10,000 and 20,000 gain
 * nothing more (docs/benchmarks.md).
 */
export const REPLAY_BATCH_SIZE = 5000;

export interface ReplayReport {
  readonly schema: string;
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  /** Rows that differ between the live read models and the replay, per table (first few shown). */
  readonly differences: { table: string; key: string; live: unknown; replayed: unknown }[];
}

/**
 * Auditors' replay: rebuilds every read model (and, asked, the events feed) from the events alone into
 * a fresh schema (createReplaySchema: the tables without their read-only indexes), through the live
 * projector's own pass, up to the position the live projector has reached, then compares both row by
 * row.
 */
export async function replayReadModels(
  store: EventStore,
  pool: Pool,
  options: {
    schema?: string;
    batchSize?: number;
    onProgress?: (events: number, eventsPerSecond: number) => void;
    keepSchema?: boolean;
    /** Replay only this many events and skip the comparison: a rate measurement on a large log. */
    maxEvents?: number;
    /**
     * Derive the events feed too, as the live projector does, and compare it with the live one. Off by
     * default: rendering and writing every webhook event's body more than halves a replay's rate, and
     * the read models are what an auditor rebuilds; the feed's bytes are pinned by their own test.
     */
    eventsFeed?: boolean;
  } = {},
): Promise<ReplayReport> {
  const schema = options.schema ?? `replay_${Date.now()}`;
  await createReplaySchema(pool, schema);
  const client = createReadModelClient(pool, { schema });
  try {
    const until = await liveCheckpoint(pool);
    const eventsFeed = options.eventsFeed ?? false;
    const projector = new ReadModelProjector(store, client, { schema, pool, eventsFeed });
    const started = process.hrtime.bigint();
    const read = async (after: GlobalPosition | null): Promise<RecordedEvent[]> =>
      (await store.readAll({ after, maxCount: options.batchSize ?? REPLAY_BATCH_SIZE })).filter((event) => until !== null && comparePositions(event.position, until) <= 0);
    // The schema was created empty just above.
    const events = await replayPipeline(projector, read, pool, { checkpointTable: `"${schema}".projector_checkpoints`, tablesStartEmpty: true, ...options });
    const seconds = elapsedSeconds(started);
    const differences = options.maxEvents === undefined ? await compare(pool, schema, eventsFeed ? REPLAYED_WITH_FEED : PROJECTED) : [];
    return { schema, events, seconds, eventsPerSecond: seconds > 0 ? events / seconds : events, differences };
  } finally {
    await client.$disconnect();
    if (!options.keepSchema) await pool.query(`drop schema if exists "${schema}" cascade`);
  }
}

function elapsedSeconds(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** How far the live read models have been projected. */
export async function liveCheckpoint(pool: Pool): Promise<GlobalPosition | null> {
  const { rows } = await pool.query<{ commit: string; prepare: string }>(
    `select commit_position::text as commit, prepare_position::text as prepare from projector_checkpoints where name = 'read-models'`,
  );
  return rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : null;
}

/** The read models a replay rebuilds, with the column each is keyed by. */
const PROJECTED: readonly [string, string][] = Object.entries(PROJECTED_TABLES);

/**
 * With the events feed: its bodies are the card or transaction as each event left it, so they come out
 * the same however the log is cut into batches.
 */
const REPLAYED_WITH_FEED: readonly [string, string][] = [...PROJECTED, ['feed_events', 'token']];

async function compare(pool: Pool, schema: string, tables: readonly [string, string][]): Promise<ReplayReport['differences']> {
  const differences: ReplayReport['differences'] = [];
  for (const [table, key] of tables) {
    const [live, replayed] = await Promise.all(
      ['public', schema].map(async (source) => {
        const { rows } = await pool.query(`select * from "${source}"."${table}" order by "${key}"`);
        return new Map(rows.map((row) => [String(row[key]), JSON.stringify(row)]));
      }),
    );
    for (const id of new Set([...live.keys(), ...replayed.keys()])) {
      const a = live.get(id);
      const b = replayed.get(id);
      if (a !== b) differences.push({ table, key: id, live: a ? JSON.parse(a) : null, replayed: b ? JSON.parse(b) : null });
    }
  }
  return differences;
}
