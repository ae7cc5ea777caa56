import { Client, Pool } from 'pg';
import { eventually, workerDatabaseUrl } from '@ledger/test-support';
import { NO_STREAM, WrongExpectedVersionError, type AtomicAppendResult, type StreamAppend } from '../event-store.port';
import { takeBatch, type AppendGroup } from './group-commit';
import { PostgresEventStore } from './postgres-event-store';
import { textOf, type SqlText } from './prepared-sql';

const event = (note = 'n') => ({
  type: 'Grouped',
  schemaVersion: 1,
  data: { note },
  metadata: { eventId: crypto.randomUUID(), correlationId: 'c', causationId: null, programToken: 'p', occurredAt: new Date().toISOString() },
});
const stream = (category = 'group') => `${category}-${crypto.randomUUID()}`;
/** An authorization's shape: the card's decision, the transaction it opens, the program's check. */
const decision = (card: string, program: string, programVersion: number): StreamAppend[] => [
  { streamId: card, events: [event('decision')], expected: NO_STREAM },
  { streamId: stream('transaction'), events: [event('opening')], expected: NO_STREAM },
  { streamId: program, events: [], expected: programVersion },
];

describe('GroupCommit on PostgreSQL (PostgresEventStore.appendAtomically)', () => {
  let url: string;
  let pool: Pool;
  let store: PostgresEventStore;
  let statements: string[];
  /** Makes the n-th batch statement (1-based) fail as a whole with the error returned. */
  let failStatement: (n: number) => Error | undefined;
  /** Holds the n-th batch statement back until the promise returned resolves. */
  let holdStatement: (n: number) => Promise<void> | undefined;

  beforeAll(async () => {
    url = await workerDatabaseUrl();
    pool = new Pool({ connectionString: url, max: 8 });
    store = new PostgresEventStore(pool);
    await store.migrate();
  });
  beforeEach(() => {
    statements = [];
    failStatement = () => undefined;
    holdStatement = () => undefined;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    jest.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
      const text = textOf(args[0] as SqlText);
      if (text.includes('as grp(value, g)')) {
        statements.push(text);
        const failure = failStatement(statements.length);
        if (failure) return Promise.reject(failure);
        const held = holdStatement(statements.length);
        if (held) return held.then(() => query(...args));
      }
      return query(...args);
    }) as never);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    jest.useRealTimers();
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  /** The stream's last event's position, as a reader sees it. */
  const lastPosition = async (streamId: string) => (await store.readStream(streamId)).at(-1)?.position;

  it('sends a lone append at once, without waiting on any timer', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const card = stream('card');
    const appended = store.appendAtomically([{ streamId: card, events: [event()], expected: NO_STREAM }]);
    // Sent in the call itself: no timer, not even a turn of the event loop, stands before the statement.
    expect(statements).toHaveLength(1);
    const [result] = await appended;
    jest.useRealTimers();
    expect(result).toEqual({ nextExpectedVersion: 0, position: await lastPosition(card) });
  });

  it('sends the appends that arrive while one is in flight together: one statement, one transaction, each its own positions', async () => {
    const program = stream('program');
    await store.append(program, [event()], NO_STREAM);
    const first = store.appendAtomically(decision(stream('card'), program, 0));
    const queued = Array.from({ length: 8 }, () => decision(stream('card'), program, 0));
    const results = await Promise.all(queued.map((appends) => store.appendAtomically(appends)));
    await first;

    expect(statements).toHaveLength(2);
    const commits = new Set(results.flatMap((result) => result.flatMap((row) => (row.position ? [row.position.commit] : []))));
    expect(commits.size).toBe(1);
    expect(commits.has((await first)[0].position!.commit)).toBe(false);
    for (const [i, appends] of queued.entries()) {
      const [card, opening, check] = results[i];
      expect(card).toEqual({ nextExpectedVersion: 0, position: await lastPosition(appends[0].streamId) });
      expect(opening).toEqual({ nextExpectedVersion: 0, position: await lastPosition(appends[1].streamId) });
      expect(check).toEqual({ nextExpectedVersion: 0, position: null });
    }
  });

  it('fails a group whose expectation is refused alone, with the error it gets alone, and stores the others of its statement', async () => {
    const [program, stale] = [stream('program'), stream('card')];
    await store.append(program, [event(), event()], NO_STREAM);
    await store.append(stale, [event()], NO_STREAM);
    const first = store.appendAtomically(decision(stream('card'), program, 1));
    const good = [decision(stream('card'), program, 1), decision(stream('card'), program, 1)];
    const refusedCard = store.appendAtomically([{ streamId: stale, events: [event()], expected: 3 }, ...decision(stream('card'), program, 1).slice(1)]);
    const refusedCheck = store.appendAtomically(decision(stream('card'), program, 0));
    const stored = await Promise.all(good.map((appends) => store.appendAtomically(appends)));
    await first;

    await expect(refusedCard).rejects.toEqual(new WrongExpectedVersionError(stale, 3, 0));
    await expect(refusedCard).rejects.toMatchObject({ streamId: stale, expected: 3, actual: 0 });
    await expect(refusedCheck).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: program, expected: 0, actual: 1 });
    expect(statements).toHaveLength(2);
    expect(await store.readStream(stale)).toHaveLength(1);
    for (const [i, appends] of good.entries()) {
      expect(stored[i][0].position).toEqual(await lastPosition(appends[0].streamId));
      expect(await store.readStream(appends[1].streamId)).toHaveLength(1);
    }
  });

  it('never puts a group beside one that writes a stream it writes or checks: it goes next, decided on what the other wrote', async () => {
    const shared = stream('card');
    const first = store.appendAtomically([{ streamId: stream('card'), events: [event()], expected: NO_STREAM }]);
    const opens = store.appendAtomically([{ streamId: shared, events: [event('a')], expected: NO_STREAM }]);
    const checksAfter = store.appendAtomically([{ streamId: shared, events: [], expected: 0 }]);
    const follows = store.appendAtomically([{ streamId: shared, events: [event('b')], expected: 0 }]);
    const alsoFollows = store.appendAtomically([{ streamId: shared, events: [event('c')], expected: 0 }]);
    await first;

    // Read once all four are answered: each write's own event, whatever has been written since.
    const [opened, followed] = await Promise.all([opens, checksAfter, follows, alsoFollows.catch(() => undefined)]).then(() => store.readStream(shared));
    expect(await opens).toEqual([{ nextExpectedVersion: 0, position: opened.position }]);
    expect(await checksAfter).toEqual([{ nextExpectedVersion: 0, position: null }]);
    expect(await follows).toEqual([{ nextExpectedVersion: 1, position: followed.position }]);
    await expect(alsoFollows).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: shared, expected: 0, actual: 1 });
    expect((await store.readStream(shared)).map((e) => (e.data as { note: string }).note)).toEqual(['a', 'b']);
    // Each of the four in a statement of its own, in the order they came.
    expect(statements).toHaveLength(5);
  });

  it('falls back to one statement per group when a concurrent writer takes a version: each caller gets its own answer', async () => {
    const winner = new Client({ connectionString: url });
    await winner.connect();
    const [contested, bystanders] = [stream('card'), [stream('card'), stream('card')]];
    try {
      await winner.query('begin');
      await store.appendWith(winner, contested, [event('winner')], NO_STREAM);
      const first = store.appendAtomically([{ streamId: stream('card'), events: [event()], expected: NO_STREAM }]);
      const loser = store.appendAtomically([{ streamId: contested, events: [event('loser')], expected: NO_STREAM }]);
      const others = bystanders.map((streamId) => store.appendAtomically([{ streamId, events: [event()], expected: NO_STREAM }]));
      void loser.catch(() => undefined);
      await first;
      // The batch statement waits on the winner's uncommitted version before the winner commits.
      await eventually('the batch to wait for the winner', async () => {
        const { rows } = await winner.query(`select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`);
        return rows.length > 0;
      });
      await winner.query('commit');

      await expect(loser).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: contested, expected: NO_STREAM, actual: 0 });
      const stored: AtomicAppendResult[][] = await Promise.all(others);
      for (const [i, streamId] of bystanders.entries()) expect(stored[i]).toEqual([{ nextExpectedVersion: 0, position: await lastPosition(streamId) }]);
      expect((await store.readStream(contested)).map((e) => (e.data as { note: string }).note)).toEqual(['winner']);
      // The first alone, the batch of three, then each of the three on its own.
      expect(statements).toHaveLength(5);
    } finally {
      await winner.end();
    }
  });

  it('falls back to one statement per group when its statement deadlocks with another process\'s writes', async () => {
    const other = new Client({ connectionString: url });
    await other.connect();
    const [x, y] = [stream('card'), stream('card')];
    try {
      // The other process leaves deadlock detection to the batch's backend, so the batch is the one aborted.
      await other.query(`set deadlock_timeout = '30s'`);
      // Once the batch is aborted, the other process's waiting insert on x and the fallback's own
      // statement for x would race for it: the fallbacks (statements 3 and 4) go once the other has x.
      let otherHoldsX!: () => void;
      const otherHasX = new Promise<void>((resolve) => (otherHoldsX = resolve));
      holdStatement = (n) => (n > 2 ? otherHasX : undefined);
      await other.query('begin');
      await store.appendWith(other, y, [event('other')], NO_STREAM);
      const first = store.appendAtomically([{ streamId: stream('card'), events: [event()], expected: NO_STREAM }]);
      const onX = store.appendAtomically([{ streamId: x, events: [event('batch')], expected: NO_STREAM }]);
      const onY = store.appendAtomically([{ streamId: y, events: [event('batch')], expected: NO_STREAM }]);
      void onX.catch(() => undefined);
      void onY.catch(() => undefined);
      await first;
      await eventually('the batch to wait for the other process on y', async () => {
        const { rows } = await other.query(`select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`);
        return rows.length > 0;
      });
      // The other process now waits on the batch's x: a cycle, which the batch's backend breaks.
      await store.appendWith(other, x, [event('other')], NO_STREAM);
      otherHoldsX();
      await other.query('commit');

      await expect(onX).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: x, actual: 0 });
      await expect(onY).rejects.toMatchObject({ name: 'WrongExpectedVersionError', streamId: y, actual: 0 });
      expect(statements).toHaveLength(4);
    } finally {
      await other.end();
    }
  });

  it('a group the database cannot take fails alone; its statement\'s other groups are stored', async () => {
    const first = store.appendAtomically([{ streamId: stream('card'), events: [event()], expected: NO_STREAM }]);
    // Beyond PostgreSQL's int: the statement fails on the cast (22003), which is this group's doing alone.
    const malformed = store.appendAtomically([{ streamId: stream('card'), events: [event()], expected: 2 ** 40 }]);
    const fine = stream('card');
    const stored = store.appendAtomically([{ streamId: fine, events: [event()], expected: NO_STREAM }]);
    await first;
    await expect(malformed).rejects.toMatchObject({ code: '22003' });
    expect(await stored).toEqual([{ nextExpectedVersion: 0, position: await lastPosition(fine) }]);
  });

  it('a failure of the statement itself reaches every caller of that statement, and only them', async () => {
    const first = store.appendAtomically([{ streamId: stream('card'), events: [event()], expected: NO_STREAM }]);
    const lost = new Error('Connection terminated unexpectedly');
    failStatement = (n) => (n === 2 ? lost : undefined);
    const batch = [stream('card'), stream('card')].map((streamId) => store.appendAtomically([{ streamId, events: [event()], expected: NO_STREAM }]));
    await first;
    for (const appended of batch) await expect(appended).rejects.toBe(lost);
    // Not sent again on its own: a statement lost with its connection may have committed.
    expect(statements).toHaveLength(2);
    const after = stream('card');
    expect(await store.appendAtomically([{ streamId: after, events: [event()], expected: NO_STREAM }])).toEqual([{ nextExpectedVersion: 0, position: await lastPosition(after) }]);
  });
});

describe('takeBatch', () => {
  const group = (...appends: [string, number][]): { group: AppendGroup } => ({
    group: { appends: appends.map(([streamId, events]) => ({ streamId, events: Array.from({ length: events }, () => event()), expected: NO_STREAM })), json: '[]' },
  });

  it('takes groups oldest first up to the limit, shares checked streams, and leaves a group that would write or check a written stream in its place', () => {
    const waiting = [group(['card-1', 1], ['program', 0]), group(['card-2', 1], ['program', 0]), group(['card-1', 1]), group(['program', 1]), group(['card-3', 1], ['card-1', 0]), group(['card-4', 1])];
    const [a, b, c, d, e, f] = waiting;
    expect(takeBatch(waiting, 10)).toEqual([a, b, f]);
    expect(waiting).toEqual([c, d, e]);
    expect(takeBatch(waiting, 10)).toEqual([c, d]);
    expect(takeBatch(waiting, 10)).toEqual([e]);
    const many = Array.from({ length: 5 }, (_, i) => group([`card-${i}`, 1]));
    expect(takeBatch(many, 2)).toHaveLength(2);
    expect(many).toHaveLength(3);
  });
});
