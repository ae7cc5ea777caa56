import { randomUUID } from 'node:crypto';
import {
  ANY_VERSION,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  comparePositions,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from '../event-store.port';

/**
 * The behaviour every EventStore adapter must show, as one jest suite each adapter's spec runs.
 * Every test writes to fresh random streams and looks only at them, so the suite also runs against a
 * shared store that holds other data (reset may then do nothing).
 */
export interface EventStoreContractHarness {
  readonly store: EventStore;
  /** Empties the store where that is possible; called before each test. */
  reset(): Promise<void>;
  dispose(): Promise<void>;
}

export function describeEventStoreContract(name: string, factory: () => Promise<EventStoreContractHarness>): void {
  describe(`${name}: event-store contract`, () => {
    let harness: EventStoreContractHarness | undefined;
    const cleanups: Array<() => Promise<void>> = [];

    const store = (): EventStore => {
      if (!harness) throw new Error('the contract harness failed to start');
      return harness.store;
    };
    const subscribe = (options: SubscribeToAllOptions): Subscription => {
      const subscription = store().subscribeToAll(options);
      cleanups.push(() => subscription.stop());
      return subscription;
    };

    beforeAll(async () => {
      harness = await factory();
    });
    beforeEach(async () => {
      await harness?.reset();
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    afterAll(async () => {
      await harness?.dispose();
    });

    describe('append and readStream', () => {
      it('round-trips type, data, schema version and metadata, numbering versions from 0', async () => {
        const streamId = newStreamId();
        const first = newEvent('CardCreated', { cardToken: 'card_1', limit: { amount: 5000, currency: 'USD' } });
        const second = newEvent('CardPaused', { reason: null, tags: ['a', 'b'] }, 2, { causationId: first.metadata.eventId, ipAddress: '10.0.0.1' });
        const before = Date.now();

        const result = await store().append(streamId, [first, second], NO_STREAM);
        const read = await store().readStream(streamId);

        expect(result.nextExpectedVersion).toBe(1);
        expect(read.map(summary)).toEqual([
          { streamId, streamVersion: 0, type: 'CardCreated', schemaVersion: 1, data: first.data, metadata: first.metadata },
          { streamId, streamVersion: 1, type: 'CardPaused', schemaVersion: 2, data: second.data, metadata: second.metadata },
        ]);
        expect(read[1].position).toEqual(result.position);
        expect(comparePositions(read[0].position, read[1].position)).toBe(-1);
        for (const event of read) {
          expect(event.recordedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          // Loose bounds: the store's clock may differ a little from ours.
          expect(Math.abs(Date.parse(event.recordedAt) - before)).toBeLessThan(60_000);
          expect(typeof event.position.commit).toBe('bigint');
          expect(typeof event.position.prepare).toBe('bigint');
        }
      });

      it('reads from a version and up to a count', async () => {
        const streamId = newStreamId();
        const events = [1, 2, 3, 4, 5].map((n) => newEvent('Counted', { n }));
        await store().append(streamId, events, NO_STREAM);

        const slice = await store().readStream(streamId, { fromVersion: 2, maxCount: 2 });
        const tail = await store().readStream(streamId, { fromVersion: 3 });

        expect(slice.map((e) => [e.streamVersion, e.data])).toEqual([[2, { n: 3 }], [3, { n: 4 }]]);
        expect(tail.map((e) => e.streamVersion)).toEqual([3, 4]);
      });

      it('reads a stream that does not exist as an empty list', async () => {
        await expect(store().readStream(newStreamId())).resolves.toEqual([]);
      });

      it('keeps the streams apart', async () => {
        const [a, b] = [newStreamId(), newStreamId()];
        await store().append(a, [newEvent('A', { n: 1 })], NO_STREAM);
        await store().append(b, [newEvent('B', { n: 1 }), newEvent('B', { n: 2 })], NO_STREAM);

        expect((await store().readStream(a)).map((e) => e.type)).toEqual(['A']);
        expect((await store().readStream(b)).map((e) => [e.type, e.streamVersion])).toEqual([['B', 0], ['B', 1]]);
      });

      it('an empty append writes nothing, checks the expectation and reports the current state', async () => {
        const streamId = newStreamId();
        const written = await store().append(streamId, [newEvent('A', {}), newEvent('B', {})], NO_STREAM);

        const result = await store().append(streamId, [], 1);

        expect(result).toEqual(written);
        await expect(store().append(streamId, [], NO_STREAM)).rejects.toMatchObject({ actual: 1 });
        expect(await store().readStream(streamId)).toHaveLength(2);
        await expect(store().append(newStreamId(), [], NO_STREAM)).resolves.toMatchObject({ nextExpectedVersion: -1 });
      });
    });

    describe('expected versions', () => {
      // existing: events already in the stream (0: no stream). actual: what a refusal must report.
      const cases: ReadonlyArray<{
        readonly name: string;
        readonly existing: number;
        readonly expected: ExpectedVersion;
        readonly accepted: boolean;
        readonly actual?: number | null;
      }> = [
        { name: 'NO_STREAM on a new stream', existing: 0, expected: NO_STREAM, accepted: true },
        { name: 'NO_STREAM on an existing stream', existing: 2, expected: NO_STREAM, accepted: false, actual: 1 },
        { name: 'STREAM_EXISTS on an existing stream', existing: 1, expected: STREAM_EXISTS, accepted: true },
        { name: 'STREAM_EXISTS on a new stream', existing: 0, expected: STREAM_EXISTS, accepted: false, actual: null },
        { name: 'ANY_VERSION on a new stream', existing: 0, expected: ANY_VERSION, accepted: true },
        { name: 'ANY_VERSION on an existing stream', existing: 3, expected: ANY_VERSION, accepted: true },
        { name: 'the last version', existing: 3, expected: 2, accepted: true },
        { name: 'a stale version', existing: 3, expected: 1, accepted: false, actual: 2 },
        { name: 'a version ahead of the stream', existing: 1, expected: 4, accepted: false, actual: 0 },
        { name: 'a version on a new stream', existing: 0, expected: 0, accepted: false, actual: null },
        { name: '-1, the version before the first event, on a new stream', existing: 0, expected: -1, accepted: true },
        { name: '-1 on an existing stream', existing: 1, expected: -1, accepted: false, actual: 0 },
      ];

      it.each(cases)('$name: accepted=$accepted', async ({ existing, expected, accepted, actual }) => {
        const streamId = newStreamId();
        if (existing > 0) {
          await store().append(streamId, Array.from({ length: existing }, (_, n) => newEvent('Seeded', { n })), NO_STREAM);
        }
        const batch = [newEvent('Tried', { n: 1 }), newEvent('Tried', { n: 2 })];

        const outcome = await store().append(streamId, batch, expected).then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        const stream = await store().readStream(streamId);

        if (accepted) {
          expect(outcome).toMatchObject({ ok: true, result: { nextExpectedVersion: existing + 1 } });
          expect(stream.map((e) => e.type)).toEqual([...Array<string>(existing).fill('Seeded'), 'Tried', 'Tried']);
          expect(stream.map((e) => e.streamVersion)).toEqual(Array.from({ length: existing + 2 }, (_, n) => n));
        } else {
          expect(outcome.ok).toBe(false);
          const error = outcome.ok ? undefined : outcome.error;
          expect(error).toBeInstanceOf(WrongExpectedVersionError);
          expect(error).toMatchObject({ streamId, expected, actual });
          // A refused batch leaves nothing behind.
          expect(stream.map((e) => e.type)).toEqual(Array<string>(existing).fill('Seeded'));
        }
      });
    });

    describe('concurrent appends', () => {
      const ROUNDS = 20;

      it.each([
        { name: 'a version', seed: 1, expected: 0 as ExpectedVersion },
        { name: 'NO_STREAM', seed: 0, expected: NO_STREAM as ExpectedVersion },
      ])(`two appends racing at $name: exactly one wins, ${ROUNDS} times`, async ({ seed, expected }) => {
        for (let round = 0; round < ROUNDS; round += 1) {
          const streamId = newStreamId();
          if (seed > 0) await store().append(streamId, [newEvent('Seeded', {})], NO_STREAM);
          const contenders = [
            [newEvent('Left', { n: 1 }), newEvent('Left', { n: 2 })],
            [newEvent('Right', { n: 1 })],
          ];

          const outcomes = await Promise.allSettled(contenders.map((batch) => store().append(streamId, batch, expected)));

          const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
          expect(winners).toHaveLength(1);
          const winner = contenders[winners[0]];
          const loser = outcomes[1 - winners[0]];
          const lastVersion = seed + winner.length - 1;
          expect(loser.status === 'rejected' ? loser.reason : undefined).toBeInstanceOf(WrongExpectedVersionError);
          expect(loser).toMatchObject({ reason: { actual: lastVersion } });
          const stream = await store().readStream(streamId);
          expect(stream.map((e) => e.metadata.eventId)).toEqual([
            ...(seed > 0 ? [expect.any(String)] : []),
            ...winner.map((e) => e.metadata.eventId),
          ]);
        }
      });

      it('appends racing with ANY_VERSION all land, with consecutive versions', async () => {
        const streamId = newStreamId();
        const batches = Array.from({ length: 8 }, (_, n) => [newEvent('Any', { n, part: 1 }), newEvent('Any', { n, part: 2 })]);

        const results = await Promise.all(batches.map((batch) => store().append(streamId, batch, ANY_VERSION)));

        const stream = await store().readStream(streamId);
        expect(stream.map((e) => e.streamVersion)).toEqual(Array.from({ length: 16 }, (_, n) => n));
        expect(results.map((r) => r.nextExpectedVersion).sort((a, b) => a - b)).toEqual([1, 3, 5, 7, 9, 11, 13, 15]);
        // Each batch stays contiguous in its stream.
        for (let v = 0; v < 16; v += 2) {
          expect(stream[v].data).toMatchObject({ part: 1 });
          expect(stream[v + 1].data).toEqual({ ...(stream[v].data as object), part: 2 });
        }
      });
    });

    describe('appendAtomically', () => {
      it('records every stream in one commit, in the order given, and answers each its version and last position', async () => {
        const [card, opened, checked] = [newStreamId(), newStreamId(), newStreamId()];
        await store().append(card, [newEvent('Seeded', {}), newEvent('Seeded', {})], NO_STREAM);
        await store().append(checked, [newEvent('Seeded', {})], NO_STREAM);

        const results = await store().appendAtomically([
          { streamId: card, events: [newEvent('Decided', { n: 1 })], expected: 1 },
          { streamId: opened, events: [newEvent('Opened', { n: 1 }), newEvent('Opened', { n: 2 })], expected: NO_STREAM },
          { streamId: checked, events: [], expected: 0 },
        ]);

        const decision = (await store().readStream(card, { fromVersion: 2 }))[0];
        const opening = await store().readStream(opened);
        expect(results).toEqual([
          { nextExpectedVersion: 2, position: decision.position },
          { nextExpectedVersion: 1, position: opening[1].position },
          { nextExpectedVersion: 0, position: null },
        ]);
        expect(opening.map((e) => [e.type, e.streamVersion, e.data])).toEqual([['Opened', 0, { n: 1 }], ['Opened', 1, { n: 2 }]]);
        expect(await store().readStream(checked)).toHaveLength(1);
        const written = [decision, ...opening];
        expect(new Set(written.map((e) => e.position.commit)).size).toBe(1);
        expectStrictlyIncreasing(written.map((e) => e.position));
      });

      it('checks each stream against its own expected version, whichever kind it is', async () => {
        const [exact, fresh, existing, any] = [newStreamId(), newStreamId(), newStreamId(), newStreamId()];
        await store().append(exact, [newEvent('Seeded', {}), newEvent('Seeded', {}), newEvent('Seeded', {})], NO_STREAM);
        await store().append(existing, [newEvent('Seeded', {})], NO_STREAM);

        const results = await store().appendAtomically([
          { streamId: exact, events: [newEvent('Tried', {})], expected: 2 },
          { streamId: fresh, events: [newEvent('Tried', {})], expected: NO_STREAM },
          { streamId: existing, events: [newEvent('Tried', {})], expected: STREAM_EXISTS },
          { streamId: any, events: [newEvent('Tried', {})], expected: ANY_VERSION },
        ]);

        expect(results.map((r) => r.nextExpectedVersion)).toEqual([3, 0, 1, 0]);
        for (const [streamId, length] of [[exact, 4], [fresh, 1], [existing, 2], [any, 1]] as const) {
          const stream = await store().readStream(streamId);
          expect(stream.map((e) => e.streamVersion)).toEqual(Array.from({ length }, (_, n) => n));
          expect(stream[length - 1].type).toBe('Tried');
        }
      });

      // refusing: which stream's expectation fails; actual: what it must report.
      it.each([
        { name: 'a stale version on a written stream', refusing: 'card' as const, actual: 0 },
        { name: 'NO_STREAM on a stream that exists', refusing: 'opened' as const, actual: 1 },
        { name: 'a moved version on an empty batch that only checks', refusing: 'checked' as const, actual: 1 },
        { name: 'STREAM_EXISTS on an empty batch for a stream that does not exist', refusing: 'missing' as const, actual: null },
      ])('records nothing on any stream when one refuses ($name), and the error names that stream', async ({ refusing, actual }) => {
        const streams = { card: newStreamId(), opened: newStreamId(), checked: newStreamId(), missing: newStreamId() };
        await store().append(streams.card, [newEvent('Seeded', {})], NO_STREAM);
        await store().append(streams.checked, [newEvent('Seeded', {}), newEvent('Seeded', {})], NO_STREAM);
        if (refusing === 'opened') await store().append(streams.opened, [newEvent('Seeded', {}), newEvent('Seeded', {})], NO_STREAM);
        const before = await Promise.all(Object.values(streams).map((streamId) => store().readStream(streamId)));

        const attempt = store().appendAtomically([
          { streamId: streams.card, events: [newEvent('Decided', {})], expected: refusing === 'card' ? 5 : 0 },
          { streamId: streams.opened, events: [newEvent('Opened', {})], expected: NO_STREAM },
          { streamId: streams.checked, events: [], expected: refusing === 'checked' ? 0 : 1 },
          ...(refusing === 'missing' ? [{ streamId: streams.missing, events: [], expected: STREAM_EXISTS }] : []),
        ]);

        await expect(attempt).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(attempt).rejects.toMatchObject({ streamId: streams[refusing], actual });
        expect(await Promise.all(Object.values(streams).map((streamId) => store().readStream(streamId)))).toEqual(before);
      });

      it('an empty batch records nothing and reports its stream version, -1 for no stream, and no position', async () => {
        const [checked, missing, written] = [newStreamId(), newStreamId(), newStreamId()];
        await store().append(checked, [newEvent('Seeded', {}), newEvent('Seeded', {})], NO_STREAM);
        const head = await store().headPosition();

        const onlyChecks = await store().appendAtomically([
          { streamId: checked, events: [], expected: 1 },
          { streamId: missing, events: [], expected: NO_STREAM },
        ]);
        const headAfterChecks = await store().headPosition();
        const beside = await store().appendAtomically([
          { streamId: written, events: [newEvent('Written', {})], expected: NO_STREAM },
          { streamId: checked, events: [], expected: 1 },
        ]);

        expect(onlyChecks).toEqual([{ nextExpectedVersion: 1, position: null }, { nextExpectedVersion: -1, position: null }]);
        expect(headAfterChecks).toEqual(head);
        expect(beside[1]).toEqual({ nextExpectedVersion: 1, position: null });
        expect(await store().readStream(checked)).toHaveLength(2);
        expect(await store().readStream(missing)).toEqual([]);
      });

      it('of two atomic writes racing for one stream exactly one is recorded, each whole or not at all', async () => {
        for (let round = 0; round < 10; round += 1) {
          const contested = newStreamId();
          const own = [newStreamId(), newStreamId()];
          const outcomes = await Promise.allSettled(
            own.map((streamId, n) =>
              store().appendAtomically([
                { streamId, events: [newEvent('Own', { n })], expected: NO_STREAM },
                { streamId: contested, events: [newEvent('Contested', { n })], expected: NO_STREAM },
              ]),
            ),
          );

          const winners = outcomes.flatMap((o, n) => (o.status === 'fulfilled' ? [n] : []));
          expect(winners).toHaveLength(1);
          const loser = outcomes[1 - winners[0]];
          expect(loser).toMatchObject({ status: 'rejected', reason: { name: 'WrongExpectedVersionError', streamId: contested, actual: 0 } });
          expect((await store().readStream(contested)).map((e) => e.data)).toEqual([{ n: winners[0] }]);
          expect(await store().readStream(own[winners[0]])).toHaveLength(1);
          expect(await store().readStream(own[1 - winners[0]])).toEqual([]);
        }
      });
    });

    describe('the global log', () => {
      it('readAll returns events in log order, strictly after the given position', async () => {
        const start = await store().headPosition();
        const [a, b] = [newStreamId(), newStreamId()];
        const appended = [
          ...(await appendAll(store(), a, [newEvent('A1', {}), newEvent('A2', {})], NO_STREAM)),
          ...(await appendAll(store(), b, [newEvent('B1', {})], NO_STREAM)),
          ...(await appendAll(store(), a, [newEvent('A3', {})], 1)),
        ];

        const all = ofStreams(await store().readAll({ after: start, maxCount: 1000 }), a, b);
        expect(all.map((e) => e.type)).toEqual(['A1', 'A2', 'B1', 'A3']);
        expect(all.map((e) => e.metadata.eventId)).toEqual(appended.map((e) => e.metadata.eventId));
        expectStrictlyIncreasing(all.map((e) => e.position));

        const afterSecond = ofStreams(await store().readAll({ after: all[1].position, maxCount: 1000 }), a, b);
        expect(afterSecond.map((e) => e.type)).toEqual(['B1', 'A3']);
        expect(ofStreams(await store().readAll({ after: all[3].position, maxCount: 1000 }), a, b)).toEqual([]);

        // Page by page gives the same sequence.
        const paged: RecordedEvent[] = [];
        let after = start;
        for (let page = await store().readAll({ after, maxCount: 1 }); page.length > 0; page = await store().readAll({ after, maxCount: 1 })) {
          expect(page).toHaveLength(1);
          paged.push(...page);
          after = page[0].position;
        }
        expect(ofStreams(paged, a, b)).toEqual(all);
      });

      it('readAll and readStream agree on positions', async () => {
        const start = await store().headPosition();
        const streamId = newStreamId();
        await store().append(streamId, [newEvent('X', {}), newEvent('Y', {})], NO_STREAM);

        const fromLog = ofStreams(await store().readAll({ after: start, maxCount: 1000 }), streamId);
        const fromStream = await store().readStream(streamId);

        expect(fromLog).toEqual(fromStream);
      });

      it('headPosition is at or after the newest appended event, and nothing of ours lies beyond it', async () => {
        const streamId = newStreamId();
        const result = await store().append(streamId, [newEvent('Newest', {})], NO_STREAM);

        const head = await store().headPosition();

        expect(head).not.toBeNull();
        expect(comparePositions(head as GlobalPosition, result.position)).toBeGreaterThanOrEqual(0);
        expect(ofStreams(await store().readAll({ after: head, maxCount: 1000 }), streamId)).toEqual([]);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up in batches, then delivers events appended after caughtUp, in order, once', async () => {
        const start = await store().headPosition();
        const streamId = newStreamId();
        const early = Array.from({ length: 5 }, (_, n) => newEvent('Early', { n }));
        await store().append(streamId, early, NO_STREAM);
        const sink = new Sink([streamId]);

        const subscription = subscribe({ after: start, batchSize: 2, handle: sink.handle });
        await subscription.caughtUp;

        // caughtUp means the events that were already there have been handled, not just read.
        expect(sink.types()).toEqual(Array<string>(5).fill('Early'));
        const late = Array.from({ length: 3 }, (_, n) => newEvent('Late', { n }));
        await store().append(streamId, late.slice(0, 1), 4);
        await store().append(streamId, late.slice(1), 5);
        await waitFor(() => sink.events.length >= 8, 'the live events');

        expect(sink.events.map((e) => e.metadata.eventId)).toEqual([...early, ...late].map((e) => e.metadata.eventId));
        expect(sink.events.map((e) => e.streamVersion)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        expect(Math.max(...sink.batchSizes)).toBeLessThanOrEqual(2);
        expect(sink.maxConcurrent).toBe(1);
        expectStrictlyIncreasing(sink.allPositions);
      });

      it('resumes after a checkpoint: nothing missed, nothing repeated', async () => {
        const start = await store().headPosition();
        const streamId = newStreamId();
        const first = [newEvent('First', { n: 1 }), newEvent('First', { n: 2 }), newEvent('First', { n: 3 })];
        await store().append(streamId, first, NO_STREAM);
        const before = new Sink([streamId]);
        const one = subscribe({ after: start, handle: before.handle });
        await one.caughtUp;
        await waitFor(() => before.events.length === 3, 'the first events');
        await one.stop();
        const checkpoint = before.lastPosition();

        const second = [newEvent('Second', { n: 1 }), newEvent('Second', { n: 2 })];
        await store().append(streamId, second.slice(0, 1), 2);
        await store().append(streamId, second.slice(1), 3);
        const after = new Sink([streamId]);
        const two = subscribe({ after: checkpoint, batchSize: 1, handle: after.handle });
        await two.caughtUp;
        await waitFor(() => after.events.length >= 2, 'the events after the checkpoint');
        const third = newEvent('Third', {});
        await store().append(streamId, [third], 4);
        await waitFor(() => after.events.length >= 3, 'the live event after resuming');

        expect(before.events.map((e) => e.metadata.eventId)).toEqual(first.map((e) => e.metadata.eventId));
        expect(after.events.map((e) => e.metadata.eventId)).toEqual([...second, third].map((e) => e.metadata.eventId));
      });

      it('stop() lets the batch in hand finish, then nothing more is handled', async () => {
        const start = await store().headPosition();
        const streamId = newStreamId();
        await store().append(streamId, [newEvent('Held', {})], NO_STREAM);
        let release: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const sink = new Sink([streamId], () => gate);
        const subscription = subscribe({ after: start, handle: sink.handle });
        await waitFor(() => sink.events.length === 1, 'the held event');

        let stopped = false;
        const stopping = subscription.stop().then(() => (stopped = true));
        await delay(100);
        expect(stopped).toBe(false);
        release();
        await stopping;
        await store().append(streamId, [newEvent('AfterStop', {})], 0);
        await delay(300);

        expect(sink.types()).toEqual(['Held']);
        expect(sink.finishedBatches).toBe(sink.batchSizes.length);
      });

      it('a handler error stops the subscription and is reported once through onError', async () => {
        const start = await store().headPosition();
        const streamId = newStreamId();
        const failure = new Error('projection failed');
        const sink = new Sink([streamId], (events) => {
          if (events.some((e) => e.type === 'Poison')) throw failure;
        });
        const errors: unknown[] = [];
        subscribe({ after: start, batchSize: 1, handle: sink.handle, onError: (error) => errors.push(error) });

        await store().append(streamId, [newEvent('Fine', {}), newEvent('Poison', {})], NO_STREAM);
        await waitFor(() => errors.length > 0, 'the error report');
        await store().append(streamId, [newEvent('AfterError', {})], 1);
        await delay(300);

        expect(errors).toEqual([failure]);
        expect(sink.types()).toEqual(['Fine', 'Poison']);
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Records what a subscription hands over, for this test's streams only. */
class Sink {
  readonly events: RecordedEvent[] = [];
  readonly batchSizes: number[] = [];
  readonly allPositions: GlobalPosition[] = [];
  maxConcurrent = 0;
  finishedBatches = 0;
  private running = 0;
  private readonly streams: ReadonlySet<string>;

  constructor(
    streams: readonly string[],
    private readonly react: (events: readonly RecordedEvent[]) => Promise<void> | void = () => undefined,
  ) {
    this.streams = new Set(streams);
  }

  readonly handle = async (events: readonly RecordedEvent[]): Promise<void> => {
    this.running += 1;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
    try {
      this.batchSizes.push(events.length);
      this.allPositions.push(...events.map((e) => e.position));
      const ours = events.filter((e) => this.streams.has(e.streamId));
      this.events.push(...ours);
      if (ours.length > 0) await this.react(ours);
      this.finishedBatches += 1;
    } finally {
      this.running -= 1;
    }
  };

  types(): string[] {
    return this.events.map((e) => e.type);
  }

  /** The checkpoint a projector would store: the last position handed over, whoever's event it was. */
  lastPosition(): GlobalPosition {
    const last = this.allPositions[this.allPositions.length - 1];
    if (!last) throw new Error('nothing was handled');
    return last;
  }
}

export function newStreamId(category = 'contract'): string {
  return `${category}-${randomUUID()}`;
}

export function newEvent(
  type: string,
  data: Record<string, unknown>,
  schemaVersion = 1,
  metadata: Record<string, unknown> = {},
): NewEvent {
  return {
    type,
    schemaVersion,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      programToken: 'prog_contract',
      occurredAt: '2025-01-02T03:04:05.678Z',
      ...metadata,
    },
  };
}

async function appendAll(store: EventStore, streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<NewEvent[]> {
  await store.append(streamId, events, expected);
  return events;
}

function ofStreams(events: readonly RecordedEvent[], ...streamIds: string[]): RecordedEvent[] {
  return events.filter((e) => streamIds.includes(e.streamId));
}

function summary(event: RecordedEvent): Omit<RecordedEvent, 'position' | 'recordedAt'> {
  return {
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
  };
}

export function expectStrictlyIncreasing(positions: readonly GlobalPosition[]): void {
  for (let i = 1; i < positions.length; i += 1) {
    if (comparePositions(positions[i - 1], positions[i]) >= 0) {
      throw new Error(`positions out of order at ${i}: ${show(positions[i - 1])} then ${show(positions[i])}`);
    }
  }
}

function show(position: GlobalPosition): string {
  return `${position.commit}/${position.prepare}`;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(10);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
