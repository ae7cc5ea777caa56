import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { CountingStore } from '../test/counting-store';
import { emptyFold, EventCodec, EventOrigin, loadState, PipelineEnvironment } from './command-pipeline';
import { NO_STREAM, WrongExpectedVersionError } from './event-store.port';
import { chainEvents, chainHeadOf, verifyChains } from './hash-chain';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { StreamFoldCache } from './stream-fold-cache';
import { decideAcrossStreams, StreamReader } from './use-case-pipeline';

// Two balances that a move takes from one and gives to the other: the shape of a card and its transaction.
type Moved = { readonly type: 'Moved'; readonly data: { readonly amount: number } };
type Balance = { readonly total: number };
const START = 10;
const balance = {
  initialState: (): Balance => ({ total: 0 }),
  evolve: (state: Balance, event: Moved): Balance => ({ total: state.total + event.data.amount }),
};
const codec: EventCodec<Moved> = {
  encode: (event, metadata) => ({ type: event.type, schemaVersion: 1, data: event.data, metadata }),
  decode: (recorded) => ({ type: 'Moved', data: recorded.data as Moved['data'] }),
};
const origin: EventOrigin = { programToken: 'program', correlationId: 'correlation', causationId: null };

/** A domain refusal as the domain's errors look: a `kind`. */
class NotEnough extends Error {
  readonly kind = 'conflict';
}

describe('decideAcrossStreams: one use case, several streams, one atomic write', () => {
  let pool: Pool;
  let store: PostgresEventStore;
  const environment = (counting = new CountingStore(store), folds = new StreamFoldCache()): PipelineEnvironment => ({
    store: counting.asStore(),
    codec: codec as EventCodec<unknown>,
    now: () => new Date(),
    newId: randomUUID,
    folds,
  });

  /** Moves `amount` from one balance to the other; refused when the source would go below 0. */
  const move = (env: PipelineEnvironment, from: string, to: string, amount: number, decided?: (reader: StreamReader) => void) =>
    decideAcrossStreams(env, origin, from, async (reader) => {
      decided?.(reader);
      const [source, target] = await Promise.all([reader.fold(balance, from), reader.fold(balance, to)]);
      if (source.state.total < amount) throw new NotEnough(`${from} holds ${source.state.total}`);
      return {
        now: new Date(),
        result: source.state.total - amount,
        streams: [
          { streamId: from, folder: balance, fold: source, events: [{ type: 'Moved', data: { amount: -amount } }] },
          { streamId: to, folder: balance, fold: target, events: [{ type: 'Moved', data: { amount } }] },
        ],
      };
    });

  /** Another process's append, hash chain and all. */
  const appendChained = async (streamId: string, amount: number) => {
    const existing = await store.readStream(streamId);
    const last = existing[existing.length - 1];
    const event = codec.encode({ type: 'Moved', data: { amount } }, { eventId: randomUUID(), ...origin, occurredAt: new Date().toISOString() });
    await store.append(streamId, chainEvents(streamId, last ? chainHeadOf(last) : null, [event]), last ? last.streamVersion : NO_STREAM);
  };
  const funded = async (env: PipelineEnvironment): Promise<[string, string]> => {
    const from = `balance-${randomUUID()}`;
    const to = `balance-${randomUUID()}`;
    await appendChained(from, START);
    await env.store.readStream(from);
    return [from, to];
  };
  const total = (streamId: string) => loadState(store, balance, codec, streamId).then((state) => state.total);

  beforeAll(async () => {
    pool = new Pool({ connectionString: await workerDatabaseUrl() });
    store = new PostgresEventStore(pool);
    await store.migrate();
    // The chain check reads the whole log: start without what earlier suites of this worker left.
    await truncateAll(pool);
  });
  afterEach(() => truncateAll(pool));
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  it('writes every stream or none: racing writers with their own memories never lose or make a cent', async () => {
    const [from, to] = await funded(environment());
    const writers = Array.from({ length: 6 }, () => environment());
    const outcomes = await Promise.allSettled(writers.flatMap((env) => [move(env, from, to, 1), move(env, from, to, 1), move(env, from, to, 1)]));
    const moved = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(moved).toBe(START);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason)).toEqual(
      Array.from({ length: 18 - START }, () => expect.any(NotEnough)),
    );
    expect([await total(from), await total(to)]).toEqual([0, START]);
    expect((await verifyChains(store)).firstBreak).toBeNull();
  });

  it('answers with the write position and each stream version', async () => {
    const env = environment();
    const [from, to] = await funded(env);
    const outcome = await move(env, from, to, 3);
    const [last] = await store.readStream(to);
    expect(outcome).toEqual({ result: 7, position: last.position, versions: new Map([[from, 1], [to, 0]]) });
  });

  it('decides on kept folds first, and again on read ones when another process moved a stream meanwhile', async () => {
    const counting = new CountingStore(store);
    const here = environment(counting);
    const [from, to] = await funded(here);
    await move(here, from, to, 2);
    await move(environment(), from, to, 2); // `here` still believes `from` holds 8
    const trusted: boolean[] = [];
    const readsBefore = counting.reads;
    await move(here, from, to, 2, (reader) => trusted.push(reader.trustsKnownFolds));
    expect(trusted).toEqual([true, false]);
    expect(counting.reads).toBeGreaterThan(readsBefore);
    expect([await total(from), await total(to)]).toEqual([4, 6]);
  });

  it('decides a refusal again on read folds before giving it: a kept fold may lag behind', async () => {
    const here = environment();
    const [from, to] = await funded(here);
    await move(here, from, to, 2); // `here` now remembers `to` holding 2
    // Another process gives `to` money that `here` does not know of; `here` must not refuse on its memory.
    await appendChained(to, 5);
    const trusted: boolean[] = [];
    await expect(move(here, to, from, 4, (reader) => trusted.push(reader.trustsKnownFolds))).resolves.toMatchObject({ result: 3 });
    expect(trusted).toEqual([true, false]);
  });

  it('refuses the whole write when a stream that must be new exists, and does not decide it again', async () => {
    const env = environment();
    const [from] = await funded(env);
    const taken = `balance-${randomUUID()}`;
    await appendChained(taken, 1);
    let attempts = 0;
    const opening = decideAcrossStreams(env, origin, from, async (reader) => {
      attempts += 1;
      const source = await reader.fold(balance, from);
      return {
        now: new Date(),
        result: null,
        streams: [
          { streamId: from, folder: balance, fold: source, events: [{ type: 'Moved', data: { amount: -1 } }] },
          { streamId: taken, folder: balance, fold: emptyFold(balance), events: [{ type: 'Moved', data: { amount: 1 } }], mustBeNew: true },
        ],
      };
    });
    await expect(opening).rejects.toMatchObject({ constructor: WrongExpectedVersionError, streamId: taken });
    expect(attempts).toBe(1);
    expect([await total(from), await total(taken)]).toEqual([START, 1]);
  });

  it('checks a stream it only read (no events): a change to it refuses the write and the use case is decided again', async () => {
    const env = environment();
    const [from, to] = await funded(env);
    const guard = `balance-${randomUUID()}`;
    await appendChained(guard, 1);
    const seen: number[] = [];
    const guarded = decideAcrossStreams(env, origin, from, async (reader) => {
      const [source, target, checked] = await Promise.all([reader.fold(balance, from), reader.fold(balance, to), reader.fold(balance, guard)]);
      seen.push(checked.state.total);
      // The first decision is taken on the guard as it was; it moves before that decision is written.
      if (seen.length === 1) await appendChained(guard, 1);
      return {
        now: new Date(),
        result: checked.state.total,
        streams: [
          { streamId: from, folder: balance, fold: source, events: [{ type: 'Moved', data: { amount: -1 } }] },
          { streamId: to, folder: balance, fold: target, events: [{ type: 'Moved', data: { amount: 1 } }] },
          { streamId: guard, folder: balance, fold: checked, events: [] },
        ],
      };
    });
    await expect(guarded).resolves.toMatchObject({ result: 2 });
    expect(seen).toEqual([1, 2]);
    expect([await total(from), await total(to), await total(guard)]).toEqual([START - 1, 1, 2]);
  });
});
