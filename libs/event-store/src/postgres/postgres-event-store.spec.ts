import { Client, Pool } from 'pg';
import { eventually, truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import {
  ANY_VERSION,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  comparePositions,
  formatPosition,
  parsePosition,
  type RecordedEvent,
} from '../event-store.port';
import {
  delay,
  describeEventStoreContract,
  expectStrictlyIncreasing,
  newEvent,
  newStreamId,
  waitFor,
} from '../contract/event-store-contract';
import { LISTENER_APPLICATION_NAME } from './notification-listener';
import { PostgresEventStore } from './postgres-event-store';
import { textOf, type SqlText } from './prepared-sql';

describeEventStoreContract('PostgreSQL', async () => {
  const pool = new Pool({ connectionString: await workerDatabaseUrl() });
  const store = new PostgresEventStore(pool);
  await store.migrate();
  return {
    store,
    reset: () => truncateAll(pool),
    dispose: async () => {
      await store.close();
      await pool.end();
    },
  };
});

describe('PostgresEventStore', () => {
  let url: string;
  let pool: Pool;
  let store: PostgresEventStore;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    url = await workerDatabaseUrl();
    pool = new Pool({ connectionString: url, max: 20 });
    store = new PostgresEventStore(pool);
    await store.migrate();
  });
  beforeEach(async () => {
    await truncateAll(pool);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  /** Backends of listener connections whose LISTEN has run: only from then on can a notification reach them. */
  async function listeningBackends(): Promise<number[]> {
    const result = await pool.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and application_name = $1 and state = 'idle' and query ilike 'listen %'`,
      [LISTENER_APPLICATION_NAME],
    );
    return result.rows.map((row) => row.pid);
  }

  /**
   * Subscribes a slowly polling store and waits until its own LISTEN connection is listening, not only
   * until the subscription caught up: the connection opens beside the catch-up, and a notification sent
   * before its LISTEN runs never reaches it (its first wake-up would then hide whether notifications work).
   */
  async function slowPollingSubscriber(): Promise<ReturnType<typeof collect>> {
    const others = new Set(await listeningBackends());
    const slowPolling = new PostgresEventStore(pool, { pollIntervalMs: 60_000 });
    cleanups.push(() => slowPolling.close());
    const live = collect(slowPolling, await store.headPosition());
    await live.subscription.caughtUp;
    await eventually('the subscriber\'s LISTEN', async () => (await listeningBackends()).some((pid) => !others.has(pid)), 3000);
    return live;
  }

  /** A client that holds a transaction open, as a slow command handler would. */
  async function openTransaction(): Promise<Client> {
    const client = new Client({ connectionString: url });
    await client.connect();
    cleanups.push(() => client.end());
    await client.query('begin');
    return client;
  }

  function collect(target: PostgresEventStore, after: Parameters<PostgresEventStore['subscribeToAll']>[0]['after'], batchSize?: number) {
    const events: RecordedEvent[] = [];
    const subscription = target.subscribeToAll({
      after,
      batchSize,
      handle: async (batch) => {
        events.push(...batch);
      },
    });
    cleanups.push(() => subscription.stop());
    return { events, subscription };
  }

  it('reports no head position for an empty log', async () => {
    await expect(store.headPosition()).resolves.toBeNull();
    await expect(store.readAll({ maxCount: 10 })).resolves.toEqual([]);
  });

  it('migrates idempotently, also when several instances start at once, and keeps schemas apart', async () => {
    const schema = 'event_store_migration_test';
    await pool.query(`drop schema if exists ${schema} cascade`);
    cleanups.push(() => pool.query(`drop schema if exists ${schema} cascade`));
    const others = [1, 2, 3].map(() => new PostgresEventStore(pool, { schema }));

    await Promise.all(others.map((other) => other.migrate()));
    await others[0].migrate();
    const streamId = newStreamId();
    await others[1].append(streamId, [newEvent('InOtherSchema', {})], NO_STREAM);

    expect((await others[2].readStream(streamId)).map((e) => e.type)).toEqual(['InOtherSchema']);
    await expect(store.readStream(streamId)).resolves.toEqual([]);
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => new PostgresEventStore(pool, { schema: 'public; drop table events' })).toThrow(/identifier/);
  });

  it('a conflicting append waits for the open winner, then reports the version it wrote', async () => {
    const streamId = newStreamId();
    await store.append(streamId, [newEvent('Seeded', {})], NO_STREAM);
    const winner = await openTransaction();
    await store.appendWith(winner, streamId, [newEvent('Winner', {})], 0);

    let settled = false;
    const loser = store.append(streamId, [newEvent('Loser', { n: 1 }), newEvent('Loser', { n: 2 })], 0);
    void loser.catch(() => undefined).finally(() => (settled = true));
    await delay(150);
    expect(settled).toBe(false);
    await winner.query('commit');

    await expect(loser).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(loser).rejects.toMatchObject({ expected: 0, actual: 1 });
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['Seeded', 'Winner']);
  });

  it('a lost race inside the caller\'s transaction takes back its partial rows and leaves the transaction usable', async () => {
    const streamId = newStreamId();
    const other = newStreamId();
    await store.append(streamId, [newEvent('Seeded', {})], NO_STREAM);
    const winner = await openTransaction();
    await store.appendWith(winner, streamId, [newEvent('Winner', {})], 0);
    const caller = await openTransaction();

    // Versions 1 and 2: 1 collides with the winner once it commits, 2 goes in and must be taken back.
    const losing = store.appendWith(caller, streamId, [newEvent('Loser', { n: 1 }), newEvent('Loser', { n: 2 })], 0);
    void losing.catch(() => undefined);
    await delay(100);
    await winner.query('commit');
    await expect(losing).rejects.toMatchObject({ expected: 0, actual: 1 });

    await store.appendWith(caller, other, [newEvent('AfterConflict', {})], NO_STREAM);
    await caller.query('commit');
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['Seeded', 'Winner']);
    expect((await store.readStream(other)).map((e) => e.type)).toEqual(['AfterConflict']);
  });

  it('ANY_VERSION and STREAM_EXISTS appends that lose the race go in behind the winner', async () => {
    const streamId = newStreamId();
    await store.append(streamId, [newEvent('Seeded', {})], NO_STREAM);
    const winner = await openTransaction();
    await store.appendWith(winner, streamId, [newEvent('Winner', {})], 0);

    const anyAppend = store.append(streamId, [newEvent('Any', {})], ANY_VERSION);
    const existsAppend = store.append(streamId, [newEvent('Exists', {})], STREAM_EXISTS);
    await delay(150);
    await winner.query('commit');
    const landed = await Promise.all([anyAppend, existsAppend]);

    expect(landed.map((r) => r.nextExpectedVersion).sort()).toEqual([2, 3]);
    const stream = await store.readStream(streamId);
    expect(stream.map((e) => e.type).slice(0, 2)).toEqual(['Seeded', 'Winner']);
    expect(stream.map((e) => e.type).slice(2).sort()).toEqual(['Any', 'Exists']);
  });

  it('never delivers a later commit before an earlier-started transaction, and skips neither', async () => {
    const start = await store.headPosition();
    const live = collect(store, start);
    await live.subscription.caughtUp;
    const [streamA, streamB] = [newStreamId('a'), newStreamId('b')];

    const transactionA = await openTransaction();
    const a = await store.appendWith(transactionA, streamA, [newEvent('A', {})], NO_STREAM);
    const b = await store.append(streamB, [newEvent('B', {})], NO_STREAM);

    // A holds the smaller sequence number but B committed first: the trap of a bigserial-only log.
    expect(a.position.prepare).toBeLessThan(b.position.prepare);
    expect(a.position.commit).toBeLessThan(b.position.commit);
    await delay(300);
    expect(live.events).toEqual([]);
    expect(await store.readAll({ after: start, maxCount: 100 })).toEqual([]);
    // The head counts B, so a caller waiting for "the subscriber passed the head" waits for A too.
    expect(await store.headPosition()).toEqual(b.position);

    await transactionA.query('commit');
    await waitFor(() => live.events.length >= 2, 'A and B');

    expect(live.events.map((e) => e.type)).toEqual(['A', 'B']);
    expect(live.events.map((e) => e.position)).toEqual([a.position, b.position]);
    expect((await store.readAll({ after: start, maxCount: 100 })).map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('a rolled-back append leaves no gap that blocks readers', async () => {
    const start = await store.headPosition();
    const aborted = await openTransaction();
    await store.appendWith(aborted, newStreamId(), [newEvent('RolledBack', {})], NO_STREAM);
    const kept = await store.append(newStreamId(), [newEvent('Kept', {})], NO_STREAM);
    await aborted.query('rollback');
    const live = collect(store, start);

    await live.subscription.caughtUp;

    expect(live.events.map((e) => e.type)).toEqual(['Kept']);
    expect(live.events[0].position).toEqual(kept.position);
  });

  it('delivers many concurrent appends exactly once, in (commit, prepare) order', async () => {
    const live = collect(store, await store.headPosition(), 7);
    await live.subscription.caughtUp;
    const streams = Array.from({ length: 30 }, () => newStreamId('burst'));
    const perStream = 6;

    await Promise.all(
      streams.map(async (streamId) => {
        for (let n = 0; n < perStream; n += 2) {
          // Two events per append, so batches of several events interleave with other streams.
          await store.append(streamId, [newEvent('Burst', { n }), newEvent('Burst', { n: n + 1 })], n === 0 ? NO_STREAM : n - 1);
        }
      }),
    );
    const total = streams.length * perStream;
    await waitFor(() => live.events.length >= total, `${total} events`);
    await delay(100);

    expect(live.events).toHaveLength(total);
    expect(new Set(live.events.map((e) => e.metadata.eventId)).size).toBe(total);
    expectStrictlyIncreasing(live.events.map((e) => e.position));
    for (const streamId of streams) {
      const versions = live.events.filter((e) => e.streamId === streamId).map((e) => e.streamVersion);
      expect(versions).toEqual([0, 1, 2, 3, 4, 5]);
    }
    expect(await store.readAll({ maxCount: 1000 })).toEqual(live.events);
  });

  it('resumes from a stored checkpoint after a restart, on a new instance and pool', async () => {
    const streamId = newStreamId();
    const firstPool = new Pool({ connectionString: url });
    const first = new PostgresEventStore(firstPool);
    await first.append(streamId, [newEvent('BeforeRestart', { n: 1 }), newEvent('BeforeRestart', { n: 2 })], NO_STREAM);
    let storedCheckpoint: string | null = null;
    const seenBefore: string[] = [];
    const beforeRestart = first.subscribeToAll({
      after: null,
      handle: async (batch) => {
        seenBefore.push(...batch.map((e) => e.type));
        storedCheckpoint = formatPosition(batch[batch.length - 1].position);
      },
    });
    await beforeRestart.caughtUp;
    await first.close();
    await firstPool.end();

    await store.append(streamId, [newEvent('WhileDown', {})], 1);
    const secondPool = new Pool({ connectionString: url });
    const second = new PostgresEventStore(secondPool);
    cleanups.push(async () => {
      await second.close();
      await secondPool.end();
    });
    expect(storedCheckpoint).not.toBeNull();
    const seenAfter: string[] = [];
    const afterRestart = second.subscribeToAll({
      after: parsePosition(storedCheckpoint ?? ''),
      handle: async (batch) => {
        seenAfter.push(...batch.map((e) => e.type));
      },
    });
    await afterRestart.caughtUp;
    await second.append(streamId, [newEvent('AfterRestart', {})], 2);
    await waitFor(() => seenAfter.length >= 2, 'the events after the restart');

    expect(seenBefore).toEqual(['BeforeRestart', 'BeforeRestart']);
    expect(seenAfter).toEqual(['WhileDown', 'AfterRestart']);
  });

  it('wakes live subscribers by notification, not by polling', async () => {
    const live = await slowPollingSubscriber();
    const started = Date.now();

    await store.append(newStreamId(), [newEvent('Live', {})], NO_STREAM);
    await waitFor(() => live.events.length === 1, 'the notified event', 3000);

    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('notifies after the commit, folding a burst of concurrent appends into a few notifications', async () => {
    const live = await slowPollingSubscriber();
    const listener = new Client({ connectionString: url });
    await listener.connect();
    cleanups.push(() => listener.end());
    let notifications = 0;
    listener.on('notification', () => notifications++);
    await listener.query('listen public_events');

    await Promise.all(Array.from({ length: 50 }, () => store.append(newStreamId(), [newEvent('Burst', {})], NO_STREAM)));

    // Every event reaches the other instance's subscriber, which only notifications wake in time.
    await waitFor(() => live.events.length === 50, 'the whole burst', 3000);
    // This test's own listener is a different connection: PostgreSQL delivers the same notification
    // to it independently, possibly after the subscriber has already acted on it. Wait for it too.
    await waitFor(() => notifications >= 1, 'the test listener to hear a notification', 3000);
    expect(notifications).toBeLessThan(50);
  });

  it('an append inside the caller\'s transaction reaches subscribers once the caller announces its commit', async () => {
    const slowPolling = new PostgresEventStore(pool, { pollIntervalMs: 60_000 });
    cleanups.push(() => slowPolling.close());
    const live = collect(slowPolling, await store.headPosition());
    await live.subscription.caughtUp;
    const caller = await pool.connect();
    try {
      await caller.query('begin');
      await store.appendWith(caller, newStreamId(), [newEvent('InCallersTransaction', {})], NO_STREAM);
      await caller.query('commit');
    } finally {
      caller.release();
    }
    store.announceCommitted();

    await waitFor(() => live.events.length === 1, 'the announced event', 3000);
    expect(live.events[0].type).toBe('InCallersTransaction');
  });

  it('a subscriber that gathers reads a stream of separate commits in a few batches', async () => {
    const batches: number[] = [];
    const gathering = store.subscribeToAll({
      after: await store.headPosition(),
      gatherMs: 300,
      handle: async (batch) => {
        batches.push(batch.length);
      },
    });
    cleanups.push(() => gathering.stop());
    await gathering.caughtUp;

    for (let i = 0; i < 20; i++) await store.append(newStreamId(), [newEvent('OneByOne', { i })], NO_STREAM);

    await waitFor(() => batches.reduce((sum, size) => sum + size, 0) === 20, 'all twenty events', 3000);
    // Twenty commits, one after another, well inside one gathering window.
    expect(batches.length).toBeLessThanOrEqual(3);
  });

  it('a second subscriber on the same instance takes the stretch the first one read from memory', async () => {
    let logReads = 0;
    const counting = new Proxy(pool, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver);
        return (text: SqlText, values?: unknown[]) => {
          if (textOf(text).includes(' as ready')) logReads++;
          return target.query(text, values);
        };
      },
    });
    const shared = new PostgresEventStore(counting);
    cleanups.push(() => shared.close());
    const first = await store.append(newStreamId(), [newEvent('First', {})], NO_STREAM);
    for (let i = 0; i < 30; i++) await store.append(newStreamId(), [newEvent('Shared', { i })], NO_STREAM);

    const leader = collect(shared, first.position, 10);
    await leader.subscription.caughtUp;
    await leader.subscription.stop();
    const readsByLeader = logReads;
    const follower = collect(shared, first.position, 7);
    await follower.subscription.caughtUp;

    expect(leader.events.map((e) => e.data)).toEqual(Array.from({ length: 30 }, (_, i) => ({ i })));
    expect(follower.events).toEqual(leader.events);
    expect(readsByLeader).toBeGreaterThanOrEqual(4);
    // Five batches of 7 from memory; PostgreSQL is asked only past the end of the shared stretch.
    expect(logReads - readsByLeader).toBeLessThanOrEqual(1);
  });

  it('re-opens its LISTEN connection when the server drops it', async () => {
    const listenerPids = async (): Promise<number[]> => {
      const result = await pool.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and application_name = $1`,
        [LISTENER_APPLICATION_NAME],
      );
      return result.rows.map((row) => row.pid);
    };
    // Listeners of other stores may exist; ours is the one that appears when we subscribe.
    const others = new Set(await listenerPids());
    const ours = async (): Promise<number[]> => (await listenerPids()).filter((pid) => !others.has(pid));
    const slowPolling = new PostgresEventStore(pool, { pollIntervalMs: 60_000 });
    cleanups.push(() => slowPolling.close());
    const live = collect(slowPolling, await store.headPosition());
    await live.subscription.caughtUp;
    const [first] = await poll(ours, (pids) => pids.length === 1);
    expect(first).toEqual(expect.any(Number));

    await pool.query('select pg_terminate_backend($1)', [first]);
    const [second] = await poll(ours, (pids) => pids.length === 1 && pids[0] !== first);
    expect(second).toEqual(expect.any(Number));
    expect(second).not.toBe(first);
    // The new connection shows up before its LISTEN has run; a notification before that would be lost.
    await eventually('LISTEN on the new connection', async () => (await listeningBackends()).includes(second), 3000);
    await store.append(newStreamId(), [newEvent('AfterReconnect', {})], NO_STREAM);
    await waitFor(() => live.events.length === 1, 'the event notified on the new connection', 3000);

    expect(live.events.map((e) => e.type)).toEqual(['AfterReconnect']);
  });

  it('maps only its own unique key to WrongExpectedVersionError: a reused event id is a different error', async () => {
    const event = newEvent('Once', {});
    await store.append(newStreamId(), [event], NO_STREAM);

    const reuse = store.append(newStreamId(), [event], NO_STREAM);

    await expect(reuse).rejects.toThrow(/events_event_id_unique/);
    await expect(reuse).rejects.not.toBeInstanceOf(WrongExpectedVersionError);
  });

  it('stores positions that order by commit first', async () => {
    const first = await store.append(newStreamId(), [newEvent('One', {})], NO_STREAM);
    const second = await store.append(newStreamId(), [newEvent('Two', {})], NO_STREAM);

    expect(comparePositions(first.position, second.position)).toBe(-1);
    expect(parsePosition(formatPosition(second.position))).toEqual(second.position);
  });
});

/** Repeats a query until its result passes, for up to three seconds; returns the last result. */
async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await delay(20);
    value = await read();
  }
  return value;
}

describe('PostgresEventStore.appendMany (bulk path)', () => {
  it('appends several streams in one transaction, and none of them when one expectation fails', async () => {
    const { Pool } = await import('pg');
    const { randomUUID } = await import('node:crypto');
    const { workerDatabaseUrl } = await import('@ledger/test-support');
    const pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 2 });
    const store = new PostgresEventStore(pool);
    await store.migrate();
    const event = () => ({ type: 'Bulk', schemaVersion: 1, data: { note: "it's quoted" }, metadata: { eventId: randomUUID(), correlationId: 'c', causationId: null, programToken: 'p', occurredAt: new Date().toISOString() } });
    const [a, b] = [`bulk-${randomUUID()}`, `bulk-${randomUUID()}`];
    try {
      await store.appendMany([
        { streamId: a, events: [event(), event()], expected: 'no_stream' },
        { streamId: b, events: [event()], expected: 'no_stream' },
      ]);
      expect((await store.readStream(a)).map((e) => [e.streamVersion, e.data])).toEqual([[0, { note: "it's quoted" }], [1, { note: "it's quoted" }]]);
      expect(await store.readStream(b)).toHaveLength(1);
      const c = `bulk-${randomUUID()}`;
      await expect(store.appendMany([{ streamId: c, events: [event()], expected: 'no_stream' }, { streamId: a, events: [event()], expected: 0 }])).rejects.toMatchObject({
        name: 'WrongExpectedVersionError',
        streamId: a,
        actual: 1,
      });
      expect(await store.readStream(c)).toEqual([]);
      expect(await store.readStream(a)).toHaveLength(2);
      await store.appendMany([{ streamId: a, events: [event()], expected: 1 }, { streamId: c, events: [event()], expected: 'any' }]);
      expect((await store.readStream(a)).map((e) => e.streamVersion)).toEqual([0, 1, 2]);
      await expect(store.appendMany([{ streamId: c, events: [event()], expected: 0 }, { streamId: c, events: [event()], expected: 1 }])).rejects.toThrow(/once per call/);
    } finally {
      await store.close();
      await pool.end();
    }
  });

  it('fails as a whole, as a version conflict, when a concurrent append takes one of its versions', async () => {
    const { Pool, Client } = await import('pg');
    const { randomUUID } = await import('node:crypto');
    const { workerDatabaseUrl } = await import('@ledger/test-support');
    const url = await workerDatabaseUrl();
    const pool = new Pool({ connectionString: url, max: 2 });
    const store = new PostgresEventStore(pool);
    const winner = new Client({ connectionString: url });
    await winner.connect();
    const event = () => ({ type: 'Bulk', schemaVersion: 1, data: {}, metadata: { eventId: randomUUID(), correlationId: 'c', causationId: null, programToken: 'p', occurredAt: new Date().toISOString() } });
    const [contested, bystander] = [`bulk-${randomUUID()}`, `bulk-${randomUUID()}`];
    try {
      await winner.query('begin');
      await store.appendWith(winner, contested, [event()], 'no_stream');
      const bulk = store.appendMany([
        { streamId: bystander, events: [event()], expected: 'no_stream' },
        { streamId: contested, events: [event()], expected: 'no_stream' },
      ]);
      void bulk.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await winner.query('commit');
      await expect(bulk).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: contested });
      expect(await store.readStream(bystander)).toEqual([]);
      expect(await store.readStream(contested)).toHaveLength(1);
    } finally {
      await winner.end();
      await store.close();
      await pool.end();
    }
  });
});

describe('PostgresEventStore.appendAtomically (one write over several streams)', () => {
  let pool: Pool;
  let store: PostgresEventStore;
  const event = (note = 'n') => ({ type: 'Atomic', schemaVersion: 1, data: { note }, metadata: { eventId: crypto.randomUUID(), correlationId: 'c', causationId: null, programToken: 'p', occurredAt: new Date().toISOString() } });
  const stream = () => `atomic-${crypto.randomUUID()}`;

  beforeAll(async () => {
    pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 4 });
    store = new PostgresEventStore(pool);
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  it('records every stream in one commit, in the order given, and answers each stream its version and last position', async () => {
    const [card, transaction, guarded] = [stream(), stream(), stream()];
    await store.append(card, [event(), event()], NO_STREAM);
    await store.append(guarded, [event()], NO_STREAM);
    const [cardResult, transactionResult, guardResult] = await store.appendAtomically([
      { streamId: card, events: [event('decision')], expected: 1 },
      { streamId: transaction, events: [event('opening'), event('second')], expected: NO_STREAM },
      { streamId: guarded, events: [], expected: 0 },
    ]);
    const [decision] = await store.readStream(card, { fromVersion: 2 });
    const opened = await store.readStream(transaction);
    expect(cardResult).toEqual({ nextExpectedVersion: 2, position: decision.position });
    expect(transactionResult).toEqual({ nextExpectedVersion: 1, position: opened[1].position });
    expect(guardResult).toEqual({ nextExpectedVersion: 0, position: null });
    // One transaction: the same commit, positions in the order of the streams given.
    expect(new Set([decision, ...opened].map((e) => e.position.commit)).size).toBe(1);
    expectStrictlyIncreasing([decision, ...opened].map((e) => e.position));
  });

  it('records nothing when any expectation fails, an empty guard included, and names the stream that refused', async () => {
    for (const refusing of ['written', 'guard'] as const) {
      const [card, transaction, guarded] = [stream(), stream(), stream()];
      await store.append(card, [event()], NO_STREAM);
      await store.append(guarded, [event(), event()], NO_STREAM);
      const attempt = store.appendAtomically([
        { streamId: card, events: [event()], expected: refusing === 'written' ? 5 : 0 },
        { streamId: transaction, events: [event()], expected: NO_STREAM },
        { streamId: guarded, events: [], expected: refusing === 'guard' ? 0 : 1 },
      ]);
      await expect(attempt).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(attempt).rejects.toMatchObject(refusing === 'written' ? { streamId: card, actual: 0 } : { streamId: guarded, actual: 1 });
      expect(await store.readStream(card)).toHaveLength(1);
      expect(await store.readStream(transaction)).toEqual([]);
    }
  });

  it('fails as a whole, as a version conflict, when a concurrent writer takes one of its versions first', async () => {
    const winner = new Client({ connectionString: await workerDatabaseUrl() });
    await winner.connect();
    const [contested, bystander] = [stream(), stream()];
    try {
      await winner.query('begin');
      await store.appendWith(winner, contested, [event()], NO_STREAM);
      const atomic = store.appendAtomically([
        { streamId: bystander, events: [event()], expected: NO_STREAM },
        { streamId: contested, events: [event()], expected: NO_STREAM },
      ]);
      void atomic.catch(() => undefined);
      // The atomic write waits on the winner's row lock before the winner commits.
      await eventually('the atomic write to wait for the winner', async () => {
        const { rows } = await pool.query(`select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`);
        return rows.length > 0;
      });
      await winner.query('commit');
      await expect(atomic).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: contested });
      expect(await store.readStream(bystander)).toEqual([]);
      expect(await store.readStream(contested)).toHaveLength(1);
    } finally {
      await winner.end();
    }
  });
});

describe('PostgresSubscription behind an open transaction that is not an append', () => {
  it('delivers soon after the blocker commits, however many notifications came while it was open (no back-off to the poll interval)', async () => {
    const url = await workerDatabaseUrl();
    const pool = new Pool({ connectionString: url, max: 4 });
    // A minute between polls: were the retry delay to grow towards it, the delivery below would wait a minute.
    const store = new PostgresEventStore(pool, { pollIntervalMs: 60_000 });
    await store.migrate();
    const appender = new PostgresEventStore(pool);
    const blocker = new Client({ connectionString: url });
    await blocker.connect();
    const target = newStreamId('held-back');
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({ after: await store.headPosition(), handle: async (events) => void seen.push(...events) });
    try {
      await subscription.caughtUp;
      await blocker.query('begin');
      await blocker.query('select pg_current_xact_id()');
      // Each append notifies and wakes the subscription, which reads again and finds its events held back.
      // The appends come from another instance (another process): only NOTIFY wakes the subscriber,
      // and each one is awaited until it has been sent and the subscriber has read again.
      const reads = jest.spyOn(store as unknown as { readForSubscription(): unknown }, 'readForSubscription');
      for (let version = 0; version < 20; version++) {
        const before = reads.mock.calls.length;
        await appender.append(target, [newEvent('HeldBack', { version })], version === 0 ? NO_STREAM : version - 1);
        await appender.close();
        await waitFor(() => reads.mock.calls.length > before, 'the subscription to read after the notification');
      }
      await blocker.query('commit');
      await waitFor(() => seen.filter((event) => event.streamId === target).length === 20, 'the held-back events after the blocker commits', 20_000);
    } finally {
      await blocker.end();
      await subscription.stop();
      await store.close();
      await pool.end();
    }
  });
});
