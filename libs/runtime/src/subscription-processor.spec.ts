import { randomUUID } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import { chainEvents, comparePositions, type GlobalPosition, NO_STREAM, PostgresEventStore, type RecordedEvent } from '@ledger/event-store';
import { migrateReadModel } from '@ledger/read-model';
import { eventually, truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { pgTransactions } from './processor-transactions';
import { type BatchTransaction, type LogProcessor, SubscriptionProcessor } from './subscription-processor';

/**
 * The processor against this worker's PostgreSQL: the follower's rows and its checkpoint commit
 * together or not at all, a restart resumes from the checkpoint, and two replicas never apply one
 * event twice. The follower under test records each event it applies in a table of its own.
 */
describe('SubscriptionProcessor', () => {
  let pool: Pool;
  let store: PostgresEventStore;
  const quiet = { log: () => undefined, error: () => undefined };

  beforeAll(async () => {
    pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 8, idleTimeoutMillis: 0 });
    store = new PostgresEventStore(pool, { pollIntervalMs: 100 });
    await store.migrate();
    await migrateReadModel(pool);
    await pool.query(`create table if not exists processor_spec_applied (name text, event_id uuid)`);
  });
  afterAll(async () => {
    await pool.query(`drop table if exists processor_spec_applied`);
    await truncateAll(pool);
    await store.close();
    await pool.end();
  });

  /** Appends n events to a fresh stream; answers them as recorded. */
  const append = async (n: number): Promise<RecordedEvent[]> => {
    const streamId = `card-${randomUUID()}`;
    const metadata = () => ({ eventId: randomUUID(), correlationId: randomUUID(), causationId: null, programToken: randomUUID(), occurredAt: new Date().toISOString() });
    const events = Array.from({ length: n }, (_, i) => ({ type: 'CardMemoChanged', schemaVersion: 1, data: { i }, metadata: metadata() }));
    await store.append(streamId, chainEvents(streamId, null, events), NO_STREAM);
    return store.readStream(streamId);
  };

  /** A follower that records each event it applies (a row each, no key); `failOn` makes it throw after writing, inside its transaction. */
  class Recorder implements LogProcessor<PoolClient> {
    readonly batchSize = 3;
    readonly gatherMs = 0;
    failOn: string | null = null;
    constructor(readonly name: string) {}
    async apply(events: readonly RecordedEvent[], { tx }: BatchTransaction<PoolClient>): Promise<void> {
      for (const event of events) {
        await tx.query(`insert into processor_spec_applied (name, event_id) values ($1, $2)`, [this.name, event.metadata.eventId]);
        if (event.metadata.eventId === this.failOn) throw new Error('follower failed');
      }
    }
  }

  const applied = async (name: string): Promise<string[]> =>
    (await pool.query<{ event_id: string }>(`select event_id::text from processor_spec_applied where name = $1`, [name])).rows.map((row) => row.event_id);
  const processorFor = (recorder: Recorder) => new SubscriptionProcessor(store, pgTransactions(pool), recorder, { logger: quiet, retryMs: 50 });
  const checkpointOf = (processor: SubscriptionProcessor<PoolClient>) => pgTransactions(pool).run(({ sql }) => processor.checkpoint(sql));

  it('moves the checkpoint with the rows, and a failed batch leaves neither', async () => {
    const events = await append(4);
    const recorder = new Recorder(`spec-${randomUUID()}`);
    const processor = processorFor(recorder);
    await processor.process(events.slice(0, 2));
    expect(comparePositions((await checkpointOf(processor)) as GlobalPosition, events[1].position)).toBe(0);

    recorder.failOn = events[3].metadata.eventId;
    await expect(processor.process(events.slice(2))).rejects.toThrow('follower failed');
    expect((await applied(recorder.name)).sort()).toEqual(events.slice(0, 2).map((event) => event.metadata.eventId).sort());
    expect(comparePositions((await checkpointOf(processor)) as GlobalPosition, events[1].position)).toBe(0);
  });

  it('applies only what lies past the checkpoint, so a batch handed over twice is applied once', async () => {
    const events = await append(3);
    const recorder = new Recorder(`spec-${randomUUID()}`);
    const processor = processorFor(recorder);
    await processor.process(events.slice(0, 2));
    await processor.process(events);
    expect((await applied(recorder.name)).sort()).toEqual(events.map((event) => event.metadata.eventId).sort());
  });

  it('follows the log live, and after a failure resumes from its checkpoint without losing or doubling an event', async () => {
    const recorder = new Recorder(`spec-${randomUUID()}`);
    // Start at the head: only what is appended from now on concerns this follower.
    const head = await store.headPosition();
    await pgTransactions(pool).run(({ sql }) =>
      sql.execute(`insert into projector_checkpoints (name, commit_position, prepare_position, updated) values ($1, $2, $3, now())`, [recorder.name, String(head?.commit ?? 0n), String(head?.prepare ?? 0n)]),
    );
    const processor = processorFor(recorder);
    const events = await append(7);
    recorder.failOn = events[4].metadata.eventId;
    processor.start();
    try {
      await eventually('the failing event was tried', async () => (await applied(recorder.name)).length >= 3);
      recorder.failOn = null;
      const ids = events.map((event) => event.metadata.eventId).sort();
      await eventually('every event applied once', async () => JSON.stringify((await applied(recorder.name)).sort()) === JSON.stringify(ids));
      await eventually('the checkpoint at the last event', async () => comparePositions((await checkpointOf(processor)) as GlobalPosition, events[6].position) === 0);
    } finally {
      await processor.stop();
    }
  });

  it('lets two replicas run side by side: each event is applied once', async () => {
    const name = `spec-${randomUUID()}`;
    const head = await store.headPosition();
    await pgTransactions(pool).run(({ sql }) =>
      sql.execute(`insert into projector_checkpoints (name, commit_position, prepare_position, updated) values ($1, $2, $3, now())`, [name, String(head?.commit ?? 0n), String(head?.prepare ?? 0n)]),
    );
    // The table has no key: an event applied twice would stand there twice.
    const one = processorFor(new Recorder(name));
    const two = processorFor(new Recorder(name));
    const events = [...(await append(5)), ...(await append(5))];
    one.start();
    two.start();
    try {
      const ids = events.map((event) => event.metadata.eventId).sort();
      await eventually('every event applied once', async () => JSON.stringify((await applied(name)).sort()) === JSON.stringify(ids));
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
