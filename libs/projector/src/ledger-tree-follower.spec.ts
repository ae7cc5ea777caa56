import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Pool } from 'pg';
import { chainEvents, NO_STREAM, PostgresEventStore } from '@ledger/event-store';
import { consistencyProof, consistencyQuery, inclusionProof, inclusionQuery, rootQuery, treeRoot } from '@ledger/ledger-proof';
import { migrateReadModel } from '@ledger/read-model';
import { LedgerTreeTables, LOWEST_KEPT_LEVEL, readLedgerLeaves } from '@ledger/runtime';
import { eventually, truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { LedgerTreeFollower } from './ledger-tree-follower';

// The kept tree against the full recomputation from the events (readLedgerLeaves, what `admin verify`
// does), on this worker's PostgreSQL: while following, after a restart, and rebuilt from the log.
let pool: Pool;
let store: PostgresEventStore;
let tables: LedgerTreeTables;
const quiet = { log: () => undefined, error: () => undefined };

beforeAll(async () => {
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 6, idleTimeoutMillis: 0 });
  store = new PostgresEventStore(pool, { pollIntervalMs: 200 });
  await store.migrate();
  await migrateReadModel(pool);
});
beforeEach(() => truncateAll(pool));
afterAll(async () => {
  await truncateAll(pool);
  await store.close();
  await pool.end();
});

/** `count` new streams of 1 to 3 events each, appended one stream per commit; returns how many events. */
async function appendStreams(count: number): Promise<number> {
  let events = 0;
  for (let s = 0; s < count; s++) {
    const streamId = `card-${randomUUID()}`;
    const length = 1 + (s % 3);
    const batch = Array.from({ length }, (_, v) => ({
      type: v === 0 ? 'CardCreated' : 'CardUpdated',
      schemaVersion: 1,
      data: { cardToken: streamId.slice(5), memo: `v${v}`, panHash: v === 0 ? 'a secret field, committed by its hash' : null },
      metadata: { eventId: randomUUID(), correlationId: randomUUID(), causationId: null, programToken: randomUUID(), occurredAt: new Date().toISOString() },
    }));
    await store.append(streamId, chainEvents(streamId, null, batch), NO_STREAM);
    events += length;
  }
  return events;
}

/** Until the kept tree's last leaf is the log's last event (a count read beside a running follower could be short: readers see commits below the oldest open transaction only). */
const followed = () =>
  eventually(
    'the kept tree at the head of the log',
    async () => {
      const [head, last] = [await tables.head(), await store.headPosition()];
      return head.position !== null && last !== null && head.position.commit === last.commit && head.position.prepare === last.prepare;
    },
    20_000,
  );

async function logSize(): Promise<number> {
  return (await readLedgerLeaves(store)).leaves.length;
}

/** The kept tree answers every root, inclusion and consistency question as the recomputation from the events does. */
async function expectSameAsRecomputed(samples: number): Promise<void> {
  const { leaves, lastPosition } = await readLedgerLeaves(store);
  const head = await tables.head();
  expect(head.size).toBe(leaves.length);
  expect(head.position && `${head.position.commit}/${head.position.prepare}`).toBe(lastPosition);
  const hex = (hashes: Buffer[]) => hashes.map((hash) => hash.toString('hex'));
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: leaves.length }), fc.integer({ min: 0, max: leaves.length }), async (size, other) => {
      const root = rootQuery(size);
      expect(root.answer(await tables.nodes(root.needs)).equals(treeRoot(leaves, size))).toBe(true);
      const leaf = other % size;
      const path = inclusionQuery(leaf, size);
      expect(hex(path.answer(await tables.nodes(path.needs)))).toEqual(hex(inclusionProof(leaves, leaf, size)));
      const first = Math.min(other, size);
      const consistency = consistencyQuery(first, size);
      expect(hex(consistency.answer(await tables.nodes(consistency.needs)).proof)).toEqual(hex(consistencyProof(leaves, first, size)));
    }),
    { numRuns: samples },
  );
}

describe('LedgerTreeFollower', () => {
  beforeEach(() => {
    tables = new LedgerTreeTables(pool);
  });

  it('follows new events as they commit, batch after batch, and equals the recomputation from the events', async () => {
    await appendStreams(20);
    // Small batches: the tree crosses many batch edges (and sizes past 9, where text order and number order part).
    const follower = new LedgerTreeFollower(store, pool, tables, { batchSize: 7, logger: quiet });
    follower.start();
    try {
      await followed();
      await appendStreams(15);
      await followed();
      await expectSameAsRecomputed(40);
      // Only subtrees of 2^LOWEST_KEPT_LEVEL leaves and up are kept; the ones below are hashed from their leaves when asked for.
      const kept = await pool.query<{ lowest: number | null; count: string }>('select min(level) as lowest, count(*)::text as count from ledger_tree_nodes');
      expect(kept.rows[0].lowest).toBe(LOWEST_KEPT_LEVEL);
      expect(Number(kept.rows[0].count)).toBeLessThan((await logSize()) / 8);
    } finally {
      await follower.stop();
    }
  });

  it('resumes after a restart from its last leaf, and rebuilds the same tree from the log once its tables are emptied', async () => {
    await appendStreams(12);
    const first = new LedgerTreeFollower(store, pool, tables, { batchSize: 5, logger: quiet });
    first.start();
    await followed();
    await first.stop();
    await appendStreams(9);
    const resumed = new LedgerTreeFollower(store, pool, tables, { batchSize: 5, logger: quiet });
    resumed.start();
    try {
      await followed();
      await expectSameAsRecomputed(25);
    } finally {
      await resumed.stop();
    }
    const kept = rootQuery(await logSize());
    const before = kept.answer(await tables.nodes(kept.needs));
    await pool.query('truncate ledger_tree_leaves, ledger_tree_nodes');
    const rebuilt = new LedgerTreeFollower(store, pool, tables, { logger: quiet });
    rebuilt.start();
    try {
      await followed();
      expect(kept.answer(await tables.nodes(kept.needs)).equals(before)).toBe(true);
    } finally {
      await rebuilt.stop();
    }
  });

  it('keeps one tree when two followers run at once (a standby projector), each batch written once', async () => {
    await appendStreams(10);
    const followers = [0, 1].map(() => new LedgerTreeFollower(store, pool, new LedgerTreeTables(pool), { batchSize: 4, logger: quiet }));
    for (const follower of followers) follower.start();
    try {
      await appendStreams(10);
      await followed();
      await expectSameAsRecomputed(20);
    } finally {
      for (const follower of followers) await follower.stop();
    }
  });
});
