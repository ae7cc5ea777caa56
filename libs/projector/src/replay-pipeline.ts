import type { GlobalPosition, RecordedEvent } from '@ledger/event-store';
import { pgProcessorSql } from '@ledger/runtime';
import type { Pool } from 'pg';
import { CarriedRows } from './projections/carried-rows';
import type { ReadModelProjector } from './read-model-projector';
import { ReplayWriter } from './replay-writer';

/**
 * Batches queued on the replay's writer at most. Two keep PostgreSQL writing one batch while the
 * next is derived; more hold more rows and statements in memory and gain nothing once the writer
 * or the deriving is the slower stage.
 */
const MAX_BATCHES_WRITING = 2;

export interface ReplayPipelineOptions {
  /** The replay's projector_checkpoints, schema-qualified. */
  readonly checkpointTable: string;
  /** The projected tables were empty when the replay began: a row it never wrote is known absent. */
  readonly tablesStartEmpty: boolean;
  /** Stop reading once this many events were replayed. */
  readonly maxEvents?: number;
  readonly onProgress?: (events: number, eventsPerSecond: number) => void;
}

/**
 * A replay's three stages, overlapped: the log is read a batch ahead, each batch is derived in memory
 * by the live projector's own pass (ReadModelProjector.derive), and its statements are queued on the
 * writer's connection, which writes and commits them while the next batches are read and derived. A
 * batch's rows are carried to the batches after it until it has committed, so deriving never waits
 * for a write. At most MAX_BATCHES_WRITING batches are queued: the memory a replay holds stays a few
 * batches' worth, whatever the log's length. Answers the events replayed.
 *
 * `read` answers the batch after a position (the first batch after null), empty at the end.
 */
export async function replayPipeline(
  projector: ReadModelProjector,
  read: (after: GlobalPosition | null) => Promise<readonly RecordedEvent[]>,
  pool: Pool,
  options: ReplayPipelineOptions,
): Promise<number> {
  const started = process.hrtime.bigint();
  const writer = await ReplayWriter.open(pool, options.checkpointTable, projector.name);
  const carried = new CarriedRows({ tablesStartEmpty: options.tablesStartEmpty });
  const loads = pgProcessorSql(pool);
  let events = 0;
  let batches = 0;
  let next = read(null);
  try {
    for (;;) {
      const batch = await next;
      if (batch.length === 0 || (options.maxEvents !== undefined && events >= options.maxEvents)) break;
      const last = batch[batch.length - 1].position;
      next = read(last);
      const derived = await projector.derive(batch, loads, carried.known);
      const number = ++batches;
      carried.carry(number, derived.rows);
      await writer.room(MAX_BATCHES_WRITING);
      writer.write(derived.statements, last, () => carried.committed(number));
      events += batch.length;
      options.onProgress?.(events, events / (Number(process.hrtime.bigint() - started) / 1e9));
    }
    await writer.drain();
    return events;
  } finally {
    await next.catch(() => undefined);
    await writer.close();
  }
}
