import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { Pool } from 'pg';
import { PostgresEventStore, type EventMetadata } from '@ledger/event-store';
import { ReadModelProjector } from '@ledger/projector';
import { createReadModelClient, migrateReadModel } from '@ledger/read-model';
import { eventually, truncateAll, workerDatabaseUrl } from '@ledger/test-support';

/**
 * What the log derives besides the read models (the events feed's rows, the webhook outbox's
 * messages) is fixed byte for byte. fixture-events.json is a scenario's 178 events: its first 144
 * (every card and transaction event type, two subscriptions, one created mid-way, a pause and a
 * resume) were recorded from a running ledger; the other 34 were recorded by starting a ledger on
 * those 144 and driving it with the SDK as the sandbox program: an auth rule's backtest report, a
 * 3DS authentication created and its challenge answered, a wallet token decided, paused and
 * unpaused, a dispute filed, amended, given an evidence slot, submitted and won (its transaction's
 * credit), a plastic ordered, shipped, activated, renewed and reissued, and a virtual card converted.
 *
 * golden-outputs.json is what the projector derives from them one event at a time. Its rows for the
 * first 144 events are those separate followers reading the read models back derived (commit
 * fe7ed27's events-feed writer and webhook-outbox feeder), the plainest way, and did not change when
 * the file was regenerated for the other 34. Regenerate it with
 * `RECORD_DERIVED_OUTPUTS=1 npx jest apps/server/test/derived-outputs/derived-outputs.spec.ts`: the
 * batch-of-1 case writes the file, the other batch sizes compare with it; review the diff. The
 * projector derives both in its own batches, from the rows it has just computed (and, for a dispute's
 * and a token's bodies, their streams folded up to the event), and must give the same bytes however
 * the log is cut into batches.
 */
interface FixtureEvent {
  readonly stream_id: string;
  readonly stream_version: number;
  readonly event_type: string;
  readonly schema_version: number;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

const fixture = JSON.parse(readFileSync(path.join(__dirname, 'fixture-events.json'), 'utf8')) as FixtureEvent[];
const GOLDEN = path.join(__dirname, 'golden-outputs.json');
let golden = JSON.parse(readFileSync(GOLDEN, 'utf8'));
/** Regenerating: the batch-of-1 case writes what it derived as the golden file (see above). */
const RECORD = process.env.RECORD_DERIVED_OUTPUTS === '1';

let pool: Pool;
beforeAll(async () => {
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 4 });
  await migrateReadModel(pool);
});
afterAll(async () => {
  await truncateAll(pool);
  await pool.end();
});

it.each([1, 7, 1000])('the projector derives the recorded feed rows and outbox messages in batches of %i', async (batchSize) => {
  await truncateAll(pool);
  const store = new PostgresEventStore(pool);
  await store.migrate();
  const readModel = createReadModelClient(pool);
  try {
    for (const event of fixture) {
      const expected = event.stream_version === 0 ? -1 : event.stream_version - 1;
      await store.append(event.stream_id, [{ type: event.event_type, schemaVersion: event.schema_version, data: event.data, metadata: event.metadata }], expected);
    }
    // The log shows a commit once no older transaction of the cluster is still open (another suite's,
    // in another database, may be): wait until every event appended here is readable.
    const events = await eventually('every appended event to be readable in the log', async () => {
      const read = await store.readAll({ after: null, maxCount: 100_000 });
      return read.length === fixture.length ? read : null;
    });
    const projector = new ReadModelProjector(store, readModel, { pool, webhookOutbox: { retrySchedule: [0] } });
    for (let start = 0; start < events.length; start += batchSize) await projector.project(events.slice(start, start + batchSize));

    const derived = await derivedOutputs(pool);
    if (RECORD && batchSize === 1) {
      writeFileSync(GOLDEN, JSON.stringify(derived, null, 1) + '\n');
      golden = derived;
    }
    expect(derived.feed).toHaveLength(golden.feed.length);
    expect(derived.outbox).toHaveLength(golden.outbox.length);
    // Row by row, so a difference names the event; the payloads as the exact strings stored.
    derived.feed.forEach((row: unknown, i: number) => expect(row).toEqual(golden.feed[i]));
    derived.outbox.forEach((row: unknown, i: number) => expect(row).toEqual(golden.outbox[i]));
  } finally {
    await store.close();
    await readModel.$disconnect();
  }
});

/** Both tables as the golden file holds them: the columns that do not depend on when they were written, in a stable order. */
async function derivedOutputs(pool: Pool) {
  const feed = await pool.query(`select token, program_token, event_type, created, payload from feed_events order by commit_position, prepare_position`);
  const outbox = await pool.query(`select id, event_id, subscription_token, program_token, event_type, body from webhook_messages order by event_id, subscription_token`);
  return JSON.parse(JSON.stringify({ feed: feed.rows, outbox: outbox.rows }));
}
