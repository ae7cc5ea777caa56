import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { Decider } from './decider';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { CountingStore } from '../test/counting-store';
import { commandHandler, EventCodec, EventOrigin, loadState, PipelineEnvironment } from './command-pipeline';
import { verifyChains } from './hash-chain';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { StreamFoldCache } from './stream-fold-cache';

// A tiny aggregate: a counter that may never pass its cap, the shape of a spend limit.
type Add = { readonly type: 'Add'; readonly amount: number } | { readonly type: 'Touch' };
type Added = { readonly type: 'Added'; readonly data: { readonly amount: number } };
type Tally = { readonly total: number; readonly refused: number };
const CAP = 10;
const tally: Decider<Add, Added, Tally> = {
  initialState: () => ({ total: 0, refused: 0 }),
  decide: (command, state) => (command.type === 'Add' && state.total + command.amount <= CAP ? [{ type: 'Added', data: { amount: command.amount } }] : []),
  evolve: (state, event) => ({ ...state, total: state.total + event.data.amount }),
};
const codec: EventCodec<Added> = {
  encode: (event, metadata) => ({ type: event.type, schemaVersion: 1, data: event.data, metadata }),
  decode: (recorded) => ({ type: 'Added', data: recorded.data as Added['data'] }),
};
const origin: EventOrigin = { programToken: 'program', correlationId: 'correlation', causationId: null };

describe('the command pipeline with remembered folds', () => {
  let pool: Pool;
  let store: PostgresEventStore;
  const environment = (counting: CountingStore, folds = new StreamFoldCache()): PipelineEnvironment => ({
    store: counting.asStore(),
    codec: codec as EventCodec<unknown>,
    now: () => new Date(),
    newId: randomUUID,
    folds,
  });
  const add = (env: PipelineEnvironment, streamId: string, amount: number) => commandHandler(env, tally, streamId).handle({ type: 'Add', amount }, origin);

  beforeAll(async () => {
    pool = new Pool({ connectionString: await workerDatabaseUrl() });
    store = new PostgresEventStore(pool);
    await store.migrate();
  });
  afterEach(() => truncateAll(pool));
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  it('reads only the events after the remembered version', async () => {
    const counting = new CountingStore(store);
    const env = environment(counting);
    const streamId = `tally-${randomUUID()}`;
    for (let i = 0; i < 5; i++) await add(env, streamId, 1);
    // Five commands, each one read; only the first found... nothing, and later reads start past the end.
    expect(counting.reads).toBe(5);
    expect(counting.eventsRead).toBe(0);
    expect(await commandHandler(env, tally, streamId).state()).toEqual({ total: 5, refused: 0 });
  });

  it('catches a remembered fold up with what another process appended, and never passes the cap', async () => {
    const streamId = `tally-${randomUUID()}`;
    const here = environment(new CountingStore(store));
    const elsewhere = environment(new CountingStore(store));
    await add(here, streamId, 4);
    await add(elsewhere, streamId, 5); // `here` still remembers a total of 4
    const third = await add(here, streamId, 4); // decided on what `elsewhere` appended, not on the remembered 4
    expect(third.events).toEqual([]);
    expect(third.state.total).toBe(9);
    expect((await store.readStream(streamId)).map((event) => (event.data as { amount: number }).amount)).toEqual([4, 5]);
  });

  it('many writers with their own memories stay under the cap together', async () => {
    const streamId = `tally-${randomUUID()}`;
    const writers = Array.from({ length: 6 }, () => environment(new CountingStore(store)));
    await Promise.all(writers.flatMap((env) => [add(env, streamId, 1), add(env, streamId, 1), add(env, streamId, 1)]));
    expect(await loadState(store, tally, codec, streamId)).toEqual({ total: CAP, refused: 0 });
    expect((await verifyChains(store)).firstBreak).toBeNull();
  });

  it('answers "nothing to do" only from what the stream really holds', async () => {
    const streamId = `tally-${randomUUID()}`;
    const counting = new CountingStore(store);
    const env = environment(counting);
    await add(env, streamId, 2);
    const readsBefore = counting.reads;
    const touched = await commandHandler(env, tally, streamId).handle({ type: 'Touch' }, origin);
    expect(touched.events).toEqual([]);
    expect(counting.reads).toBe(readsBefore + 1);
    expect(touched.version).toBe(0);
    expect(touched.position).toEqual((await store.readStream(streamId))[0].position);
  });

  describe('time', () => {
    /** A decider that records the time its decision was given, to see which clock reached it. */
    const stamp: Decider<{ readonly type: 'Stamp' }, { readonly type: 'Stamped'; readonly data: { readonly at: string } }, null> = {
      initialState: () => null,
      decide: (_command, _state, { now }) => [{ type: 'Stamped', data: { at: now.toISOString() } }],
      evolve: (state) => state,
    };
    const stampCodec: EventCodec<{ readonly type: 'Stamped'; readonly data: { readonly at: string } }> = {
      encode: (event, metadata) => ({ type: event.type, schemaVersion: 1, data: event.data, metadata }),
      decode: (recorded) => ({ type: 'Stamped', data: recorded.data as { at: string } }),
    };
    const wall = new Date('2026-11-22T10:15:30.000Z');
    const business = new Date('2027-03-01T00:00:00.000Z');

    it("decides on the program's clock and records both times: occurredAt business, writtenAt wall", async () => {
      const asked: string[] = [];
      const env: PipelineEnvironment = {
        ...environment(new CountingStore(store)),
        codec: stampCodec as EventCodec<unknown>,
        now: () => wall,
        clock: { now: async (programToken) => (asked.push(programToken), business) },
      };
      const streamId = `stamp-${randomUUID()}`;
      await commandHandler(env, stamp, streamId).handle({ type: 'Stamp' }, origin);
      const [event] = await store.readStream(streamId);
      expect(asked).toEqual(['program']);
      expect(event.data).toEqual({ at: business.toISOString() });
      expect(event.metadata).toMatchObject({ occurredAt: business.toISOString(), writtenAt: wall.toISOString() });
      expect((await verifyChains(store)).firstBreak).toBeNull();
    });

    it('runs on the wall clock without a program clock', async () => {
      const env: PipelineEnvironment = { ...environment(new CountingStore(store)), codec: stampCodec as EventCodec<unknown>, now: () => wall };
      const streamId = `stamp-${randomUUID()}`;
      await commandHandler(env, stamp, streamId).handle({ type: 'Stamp' }, origin);
      expect((await store.readStream(streamId))[0].metadata).toMatchObject({ occurredAt: wall.toISOString(), writtenAt: wall.toISOString() });
    });
  });

  it('forgets the least recently used folds beyond its capacity', () => {
    const folds = new StreamFoldCache(2);
    const fold = (version: number) => ({ state: version, version, head: null });
    folds.set('a', tally, fold(1));
    folds.set('b', tally, fold(1));
    folds.get('a', tally);
    folds.set('c', tally, fold(1));
    expect([folds.get('a', tally), folds.get('b', tally), folds.get('c', tally)].map((entry) => entry?.version)).toEqual([1, undefined, 1]);
    folds.set('a', tally, fold(0)); // an older fold never replaces a newer one
    expect(folds.get('a', tally)?.version).toBe(1);
    expect(folds.get('a', {})).toBeUndefined(); // another decider's fold of the stream is another fold
  });
});
