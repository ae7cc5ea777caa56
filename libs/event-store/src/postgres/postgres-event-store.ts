import type { Pool, QueryResult, QueryResultRow } from 'pg';
import {
  ANY_VERSION,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  type AppendResult,
  type AtomicAppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type StreamAppend,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from '../event-store.port';
import { CommitAnnouncer } from './commit-announcer';
import { GroupCommit, type AppendGroup, type GroupOutcome } from './group-commit';
import { NotificationListener } from './notification-listener';
import type { SqlText } from './prepared-sql';
import { buildSql, MIGRATION_LOCK_KEY, STREAM_VERSION_CONSTRAINT, type PostgresEventStoreSql } from './postgres-schema';
import { PostgresSubscription, type SubscriptionRead } from './postgres-subscription';
import { RecentEvents } from './recent-events';

export interface PostgresEventStoreOptions {
  /** Schema holding the events table and the append function. Default 'public'. */
  readonly schema?: string;
  /** Longest a live subscription sleeps without a notification. Default 1000 ms. */
  readonly pollIntervalMs?: number;
  /**
   * Events the subscriptions of this instance share from memory (RecentEvents): the stretch of the
   * log the first of them read last. Default 4096; 0 reads every one from PostgreSQL. A kept event
   * costs about 6 KB of heap, most in its strings, and the followers sharing them stay within a batch
   * or two of each other (CATCH_UP_BATCH_SIZE, libs/runtime), so 4096 covers them at a fraction of
   * the peak a bulk catch-up reaches with more, and with the same catch-up time (docs/decisions.md,
   * "Memory"; the figures are in docs/benchmarks.md).
   */
  readonly sharedReadEvents?: number;
}

/** A pool, or a client inside the caller's own transaction. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: SqlText, values?: unknown[]): Promise<QueryResult<R>>;
}

/** Reported for the position of an empty append on a stream that has no events. */
const START_OF_LOG: GlobalPosition = { commit: 0n, prepare: 0n };

const PENDING_RETRY_MS = 10;

/**
 * Most callers' atomic appends in one statement: more decisions than a process has ready at once
 * under a few dozen concurrent requests, so it rarely binds; it keeps one statement's parameter and
 * result to a few hundred kilobytes.
 */
const MAX_GROUPS_PER_STATEMENT = 64;

interface EventRow {
  readonly stream_id: string;
  readonly stream_version: number;
  readonly event_id: string;
  readonly event_type: string;
  readonly schema_version: number;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  readonly recorded_at: string;
  readonly transaction_id: string;
  readonly global_position: string;
}

interface AppendRow {
  readonly appended: boolean;
  /** After success the new last version; after a conflict the actual one; -1 for no stream. */
  readonly stream_version: number;
  readonly transaction_id: string | null;
  readonly global_position: string | null;
}

interface GroupRow {
  /** 1-based index of the row's group in the statement. */
  readonly g: number;
  /** 1-based index of the group's first refused expectation, or null. */
  readonly refused: number | null;
  readonly actual: number | null;
  /** The stream's new last version; null when nothing was inserted into it. */
  readonly stream_version: number | null;
  readonly transaction_id: string | null;
  readonly global_position: string | null;
  readonly version_before: number;
}

interface PositionRow {
  readonly transaction_id: string;
  readonly global_position: string;
}

/**
 * The event store on PostgreSQL: one append-only `events` table, appends through a plpgsql function
 * (one round trip), global order by (transaction id, sequence) read only below the snapshot's xmin.
 * The pool belongs to the caller: close() stops subscriptions and the LISTEN connection, not the pool.
 */
export class PostgresEventStore implements EventStore {
  private readonly sql: PostgresEventStoreSql;
  private readonly pollIntervalMs: number;
  private readonly listener: NotificationListener;
  private readonly announcer: CommitAnnouncer;
  private readonly subscriptions = new Set<PostgresSubscription>();
  private readonly recent: RecentEvents;
  private readonly decisions = new GroupCommit((groups) => this.sendGroups(groups), MAX_GROUPS_PER_STATEMENT);

  constructor(
    private readonly pool: Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    const schema = options.schema ?? 'public';
    // The channel follows from the schema, so every process of one store notifies and listens alike.
    this.sql = buildSql(schema, `${schema}_events`);
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.recent = new RecentEvents(options.sharedReadEvents ?? 4096);
    this.listener = new NotificationListener({
      connection: pool.options,
      channel: this.sql.channel,
      reconnect: { firstMs: Math.min(100, this.pollIntervalMs), longestMs: Math.max(this.pollIntervalMs, 5000) },
    });
    this.announcer = new CommitAnnouncer(
      () => this.pool.query(this.sql.notify, [this.sql.channel, '']),
      () => this.listener.wakeLocal(),
    );
  }

  /** Creates the schema objects if missing; safe to run from several processes starting at once. */
  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    // The lock is held before the transaction begins. A transaction that began and then waited for it
    // checked `create schema if not exists` against the catalog as it was when it began, missed the
    // schema another instance had just created, and failed on the duplicate name (seen once in CI).
    try {
      await client.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      await client.query('begin');
      await client.query(this.sql.migrate);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      await client.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => undefined);
      client.release();
    }
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const result = await this.appendWith(this.pool, streamId, events, expected);
    if (events.length > 0) this.announcer.announce();
    return result;
  }

  /**
   * Tells subscribers (in this process at once, in others by NOTIFY) that events were committed.
   * `append`, `appendMany` and `appendAtomically` call it themselves; a caller of `appendWith` calls
   * it after its own transaction commits, or its subscribers find the events by polling.
   */
  announceCommitted(): void {
    this.announcer.announce();
  }

  /**
   * Bulk path (benchmark seeding, imports): many streams' appends in one statement and one
   * transaction, with the same expectation checks as `append`; all or none are written. One
   * set-based insert instead of a function call per stream: 2.7 times the events per second on the
   * bench machine. A stream may appear once per call. A concurrent append to one of the streams is
   * not retried: the call fails as a whole, with a WrongExpectedVersionError either way.
   */
  async appendMany(appends: readonly { streamId: string; events: readonly NewEvent[]; expected: ExpectedVersion }[]): Promise<void> {
    if (appends.length === 0) return;
    // Its own statement, not the decisions' group commit: a bulk is large and waits for nobody.
    const [outcome] = await this.sendGroups([groupOf(appends, 'appendMany')]);
    if ('error' in outcome) throw outcome.error;
  }

  /**
   * One write over several streams: one statement, run outside any explicit transaction, so one
   * commit for every stream of the write (the authorization path's card decision, its transaction's
   * opening and the program check). Writes from concurrent callers share that statement and commit
   * (GroupCommit): each caller's streams are still all or none, refused or stored on their own.
   */
  async appendAtomically(appends: readonly StreamAppend[]): Promise<AtomicAppendResult[]> {
    if (appends.length === 0) return [];
    return this.decisions.submit(groupOf(appends, 'appendAtomically'));
  }

  /**
   * The groups as one statement. When the database rolls the statement back for what one group may
   * have caused alone (a concurrent writer took a version it meant to write, a malformed event, a
   * deadlock with another process), nothing was committed: each group is then sent on its own and
   * gets what it would have got without the others. Any other failure reaches every group of the
   * statement.
   */
  private async sendGroups(groups: readonly AppendGroup[]): Promise<GroupOutcome[]> {
    try {
      const { rows } = await this.pool.query<GroupRow>(this.sql.appendGroups, [`[${groups.map((group) => group.json).join(',')}]`]);
      const outcomes = outcomesOf(groups, rows);
      // Once per statement, not per caller: callers announcing one after the other would each
      // queue a NOTIFY behind the one on its way, for events that were all in one commit.
      if (rows.some((row) => row.transaction_id !== null)) this.announcer.announce();
      return outcomes;
    } catch (error) {
      if (groups.length === 1) return [{ error: lostBulkRace(error, groups[0].appends) ?? error }];
      if (!worthSendingAlone(error)) throw error;
      return (await Promise.all(groups.map((group) => this.sendGroups([group])))).flat();
    }
  }

  /**
   * Appends through the given client, e.g. inside the caller's transaction: the events become
   * readable when that transaction commits; then call `announceCommitted()`.
   */
  async appendWith(
    db: Queryable,
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
  ): Promise<AppendResult> {
    const [kind, version] = expectation(expected);
    const result = await db.query<AppendRow>(this.sql.append, [streamId, kind, version, serializeBatch(events)]);
    const row = result.rows[0];
    if (!row.appended) {
      throw new WrongExpectedVersionError(streamId, expected, row.stream_version < 0 ? null : row.stream_version);
    }
    return {
      nextExpectedVersion: row.stream_version,
      position:
        row.transaction_id === null || row.global_position === null
          ? START_OF_LOG
          : toPosition({ transaction_id: row.transaction_id, global_position: row.global_position }),
    };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const result = await this.pool.query<EventRow>(this.sql.readStream, [
      streamId,
      options.fromVersion ?? 0,
      options.maxCount ?? null,
    ]);
    return result.rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const after = options.after ?? START_OF_LOG;
    const result = await this.pool.query<EventRow>(this.sql.readAll, [
      after.commit.toString(),
      after.prepare.toString(),
      options.maxCount,
    ]);
    return result.rows.map(toRecordedEvent);
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    const subscription = new PostgresSubscription(
      {
        readAfter: (position, limit) => this.readForSubscription(position, limit),
        listen: (wake) => this.listener.add(wake),
      },
      options,
      { pollIntervalMs: this.pollIntervalMs, pendingRetryMs: Math.min(PENDING_RETRY_MS, this.pollIntervalMs) },
      (finished) => this.subscriptions.delete(finished),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<GlobalPosition | null> {
    const result = await this.pool.query<PositionRow>(this.sql.headPosition);
    return result.rows.length === 0 ? null : toPosition(result.rows[0]);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.announcer.settled();
    await this.listener.shutdown();
  }

  private async readForSubscription(position: GlobalPosition | null, limit: number): Promise<SubscriptionRead> {
    const kept = this.recent.after(position, limit) ?? [];
    if (kept.length === limit) return { events: kept, pending: false };
    const from = kept.length > 0 ? kept[kept.length - 1].position : position;
    const fresh = await this.readAfter(from, limit - kept.length);
    this.recent.add(from, fresh.events);
    return { events: kept.length > 0 ? [...kept, ...fresh.events] : fresh.events, pending: fresh.pending };
  }

  private async readAfter(position: GlobalPosition | null, limit: number): Promise<SubscriptionRead> {
    const after = position ?? START_OF_LOG;
    const result = await this.pool.query<EventRow & { readonly ready: boolean }>(this.sql.readForSubscription, [
      after.commit.toString(),
      after.prepare.toString(),
      limit,
    ]);
    // Rows are ordered by transaction id and `ready` means "below xmin", so the ready ones form a prefix.
    const readyCount = result.rows.findIndex((row) => !row.ready);
    const ready = readyCount === -1 ? result.rows : result.rows.slice(0, readyCount);
    return { events: ready.map(toRecordedEvent), pending: readyCount !== -1 };
  }
}

type ExpectationKind = 'exact' | 'no_stream' | 'stream_exists' | 'any';

function expectation(expected: ExpectedVersion): [ExpectationKind, number | null] {
  switch (expected) {
    case NO_STREAM:
      return ['no_stream', null];
    case STREAM_EXISTS:
      return ['stream_exists', null];
    case ANY_VERSION:
      return ['any', null];
    default:
      if (!Number.isInteger(expected) || expected < -1) {
        throw new RangeError(`Expected version must be an integer >= -1 or a named case, got ${expected}`);
      }
      // -1 is "before the first event", what an empty append on a missing stream reports.
      return expected === -1 ? ['no_stream', null] : ['exact', expected];
  }
}

/**
 * One caller's atomic append as the batch statement takes it. Serialised here, in the caller's own
 * call, so a value JSON cannot hold fails that caller alone and not the statement it would share.
 */
function groupOf(appends: readonly StreamAppend[], caller: string): AppendGroup {
  if (new Set(appends.map((append) => append.streamId)).size !== appends.length) throw new RangeError(`${caller}: each stream may appear once per call`);
  const rows = appends.map(({ streamId, events, expected }) => {
    const [kind, version] = expectation(expected);
    return { stream: streamId, kind, version, events: batchOf(events) };
  });
  return { appends, json: JSON.stringify(rows) };
}

/** Each group's answer from the statement's rows (a row per stream, in input order). */
function outcomesOf(groups: readonly AppendGroup[], rows: readonly GroupRow[]): GroupOutcome[] {
  let next = 0;
  return groups.map((group) => {
    const own = rows.slice(next, (next += group.appends.length));
    const refused = own[0].refused;
    if (refused !== null) {
      const { streamId, expected } = group.appends[refused - 1];
      const actual = own[0].actual;
      return { error: new WrongExpectedVersionError(streamId, expected, actual === null || actual < 0 ? null : actual) };
    }
    return {
      results: own.map((row) => ({
        nextExpectedVersion: row.stream_version ?? row.version_before,
        position: row.transaction_id === null || row.global_position === null ? null : toPosition({ transaction_id: row.transaction_id, global_position: row.global_position }),
      })),
    };
  });
}

/**
 * The statement was rolled back for something one of its groups may have caused alone: a unique or
 * other integrity violation (class 23: a concurrent writer took a version), a value PostgreSQL could
 * not take (class 22), or a deadlock or serialization failure with another process's writes (40P01,
 * 40001; several groups' rows make lock cycles possible that one group's could not). Connection and
 * server failures are not among them: the statement may have committed, and sending it again could
 * write twice.
 */
function worthSendingAlone(error: unknown): boolean {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23') || code === '40P01' || code === '40001');
}

/** A concurrent append took a version of one of the bulk's streams: the conflict, on that stream. */
function lostBulkRace(error: unknown, appends: readonly { streamId: string; expected: ExpectedVersion }[]): WrongExpectedVersionError | null {
  const { code, constraint, detail } = error as { code?: string; constraint?: string; detail?: string };
  if (code !== '23505' || constraint !== STREAM_VERSION_CONSTRAINT) return null;
  // detail: Key (stream_id, stream_version)=(<stream>, <version>) already exists.
  const match = /=\((.*), (\d+)\) already exists/.exec(detail ?? '');
  const lost = appends.find((append) => append.streamId === match?.[1]) ?? appends[0];
  return new WrongExpectedVersionError(lost.streamId, lost.expected, match ? Number(match[2]) : null);
}

/** The JSON shape the append statements unpack: [{ id, type, schemaVersion, data, metadata }]. */
function batchOf(events: readonly NewEvent[]) {
  return events.map((event) => ({
    id: event.metadata.eventId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
  }));
}

function serializeBatch(events: readonly NewEvent[]): string {
  return JSON.stringify(batchOf(events));
}

function toPosition(row: PositionRow): GlobalPosition {
  return { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) };
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    position: toPosition(row),
    recordedAt: row.recorded_at,
  };
}
