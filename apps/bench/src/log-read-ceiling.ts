import type { EventStore, GlobalPosition } from '@ledger/event-store';
import { REPLAY_BATCH_SIZE } from '@ledger/projector';

/**
 * The replay's ceiling on this machine: the rate the same events are read and decoded at, in the
 * same batches, with nothing projected. A replay cannot run faster than its log can be read.
 */
export async function logReadCeiling(store: EventStore, maxEvents: number): Promise<{ events: number; eventsPerSecond: number }> {
  const started = process.hrtime.bigint();
  let after: GlobalPosition | null = null;
  let events = 0;
  while (events < maxEvents) {
    const batch = await store.readAll({ after, maxCount: REPLAY_BATCH_SIZE });
    if (batch.length === 0) break;
    events += batch.length;
    after = batch[batch.length - 1].position;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { events, eventsPerSecond: Math.round(events / seconds) };
}
