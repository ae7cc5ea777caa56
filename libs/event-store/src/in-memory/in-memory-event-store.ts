import {
  ANY_VERSION,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  comparePositions,
  type AppendResult,
  type AtomicAppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeToAllOptions,
  type Subscription,
} from '../event-store.port';
import { InMemorySubscription } from './in-memory-subscription';

export interface InMemoryEventStoreOptions {
  /** The store's clock, read once per write for `recordedAt`. Default: the wall clock. */
  readonly now?: () => Date;
}

/** Reported for the position of an empty append on a stream that has no events, as PostgreSQL does. */
const START_OF_LOG: GlobalPosition = { commit: 0n, prepare: 0n };

/** What PostgreSQL's uuid type accepts in the forms JSON carries; the events table keys event ids by it. */
const UUID = /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

/**
 * An event as the store keeps it: data and metadata as JSON text, so every read hands out fresh
 * objects (a reader that mutates what it read changes nothing stored) and what cannot survive the
 * PostgreSQL adapter's jsonb columns (undefined members, Dates, class instances) does not survive here.
 */
interface StoredEvent {
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: string;
  readonly metadata: string;
  readonly position: GlobalPosition;
  readonly recordedAt: string;
}

/** One stream's part of a write once checked: where it starts and what it will add. */
interface PlannedWrite {
  readonly append: StreamAppend;
  /** The stream's last version before the write; -1 for no stream. */
  readonly versionBefore: number;
  readonly events: readonly SerialisedEvent[];
}

/** An event ready to be stored, with its id as the unique key compares it. */
type SerialisedEvent = Omit<StoredEvent, 'streamVersion' | 'position' | 'recordedAt'> & { readonly eventId: string };

/**
 * The event store in memory, for specs that run command handlers without a database. It behaves as
 * the PostgreSQL adapter does wherever a caller can tell: the same expectations and refusals, an
 * atomic multi-stream write, a global log ordered by (commit, prepare) where every write is one
 * commit (its events share it, as the rows of one PostgreSQL transaction share its transaction id)
 * and prepares rise by one per event, one `recordedAt` per write (PostgreSQL's now() is the
 * transaction's start), the same constraints on event ids and values, and catch-up subscriptions.
 * A write is checked and recorded within one synchronous step, so concurrent callers are serialised
 * exactly as the PostgreSQL adapter's row locks and unique keys serialise them.
 */
export class InMemoryEventStore implements EventStore {
  private readonly log: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  /** Normalised event ids: PostgreSQL keys them unique as uuids, whatever their spelling. */
  private readonly eventIds = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions = new Set<InMemorySubscription>();
  private readonly now: () => Date;
  private lastCommit = 0n;
  private lastPrepare = 0n;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const [planned] = this.plan([{ streamId, events, expected }]);
    // An empty append reports the stream's last event, or the start of the log for no stream.
    const [last = this.lastOf(streamId)] = this.record([planned]);
    return { nextExpectedVersion: planned.versionBefore + events.length, position: last ? { ...last.position } : START_OF_LOG };
  }

  /**
   * Every expectation is checked before anything is recorded, and the first refused one, in the order
   * given, names its stream; then every batch goes into one commit, streams in the order given.
   */
  async appendAtomically(appends: readonly StreamAppend[]): Promise<AtomicAppendResult[]> {
    if (appends.length === 0) return [];
    if (new Set(appends.map((append) => append.streamId)).size !== appends.length) throw new RangeError('appendAtomically: each stream may appear once per call');
    const planned = this.plan(appends);
    const recorded = this.record(planned);
    return planned.map((write, i) => {
      const last = recorded[i];
      return last ? { nextExpectedVersion: last.streamVersion, position: { ...last.position } } : { nextExpectedVersion: write.versionBefore, position: null };
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const stream = this.streams.get(streamId) ?? [];
    const from = Math.max(options.fromVersion ?? 0, 0);
    const to = options.maxCount === undefined ? undefined : from + Math.max(options.maxCount, 0);
    return stream.slice(from, to).map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.readAfter(options.after ?? null, options.maxCount);
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    const subscription = new InMemorySubscription(
      {
        readAfter: (position, limit) => this.readAfter(position, limit),
        listen: (wake) => {
          this.listeners.add(wake);
          return () => this.listeners.delete(wake);
        },
      },
      options,
      (finished) => this.subscriptions.delete(finished),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<GlobalPosition | null> {
    const head = this.log[this.log.length - 1];
    return head ? { ...head.position } : null;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
  }

  /**
   * Checks every part of a write against the streams as they are now and throws the first refusal, in
   * the PostgreSQL adapter's order: values are serialised in the caller's call, expectations are
   * checked before any row is inserted, and the table's constraints refuse rows as they go in.
   */
  private plan(appends: readonly StreamAppend[]): PlannedWrite[] {
    const batches = appends.map(({ streamId, events, expected }) => {
      validExpectation(expected);
      return events.map((event) => serialised(streamId, event));
    });
    const planned = appends.map((append, i) => {
      const versionBefore = this.versionOf(append.streamId);
      if (!accepts(append.expected, versionBefore)) {
        throw new WrongExpectedVersionError(append.streamId, append.expected, versionBefore < 0 ? null : versionBefore);
      }
      return { append, versionBefore, events: batches[i] };
    });
    const ids = new Set<string>();
    for (const { streamId, eventId } of batches.flat()) {
      if (typeof eventId !== 'string' || !UUID.test(eventId)) throw new Error(`Stream ${streamId}: invalid input syntax for type uuid: "${String(eventId)}" (the event id)`);
      const id = uuidKey(eventId);
      if (this.eventIds.has(id) || ids.has(id)) {
        throw new Error(`duplicate key value violates unique constraint "events_event_id_unique": event id ${eventId} is already recorded`);
      }
      ids.add(id);
    }
    return planned;
  }

  /** Records checked parts as one commit; answers each part's last recorded event, if it had any. */
  private record(planned: readonly PlannedWrite[]): (StoredEvent | undefined)[] {
    if (planned.every((write) => write.events.length === 0)) return planned.map(() => undefined);
    this.lastCommit += 1n;
    const commit = this.lastCommit;
    const recordedAt = this.now().toISOString();
    const lasts = planned.map((write) => {
      let last: StoredEvent | undefined;
      write.events.forEach((event, n) => {
        this.lastPrepare += 1n;
        const { eventId, ...stored } = event;
        last = { ...stored, streamVersion: write.versionBefore + n + 1, position: { commit, prepare: this.lastPrepare }, recordedAt };
        this.eventIds.add(uuidKey(eventId));
        this.log.push(last);
        const stream = this.streams.get(event.streamId);
        if (stream) stream.push(last);
        else this.streams.set(event.streamId, [last]);
      });
      return last;
    });
    for (const wake of this.listeners) wake();
    return lasts;
  }

  private readAfter(position: GlobalPosition | null, limit: number): RecordedEvent[] {
    const from = position === null ? 0 : this.indexAfter(position);
    return this.log.slice(from, from + limit).map(toRecordedEvent);
  }

  /** Index of the first event strictly after the position (binary search: the log is in position order). */
  private indexAfter(position: GlobalPosition): number {
    let low = 0;
    let high = this.log.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (comparePositions(this.log[middle].position, position) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private versionOf(streamId: string): number {
    return this.lastOf(streamId)?.streamVersion ?? -1;
  }

  private lastOf(streamId: string): StoredEvent | undefined {
    const stream = this.streams.get(streamId);
    return stream?.[stream.length - 1];
  }
}

/** The expectations the PostgreSQL adapter takes: the named ones, or an integer from -1 up. */
function validExpectation(expected: ExpectedVersion): void {
  if (expected === NO_STREAM || expected === STREAM_EXISTS || expected === ANY_VERSION) return;
  if (!Number.isInteger(expected) || expected < -1) {
    throw new RangeError(`Expected version must be an integer >= -1 or a named case, got ${expected}`);
  }
}

/** Whether a stream at `version` (-1: no stream) meets the expectation; -1 expected means "no stream". */
function accepts(expected: ExpectedVersion, version: number): boolean {
  switch (expected) {
    case ANY_VERSION:
      return true;
    case NO_STREAM:
      return version === -1;
    case STREAM_EXISTS:
      return version >= 0;
    default:
      return version === expected;
  }
}

/**
 * The event as the append statement takes it, or the error serialising or its columns would raise: a
 * type and schema version, data and metadata that are JSON (jsonb refuses the NUL character).
 */
function serialised(streamId: string, event: NewEvent): SerialisedEvent {
  if (typeof event.type !== 'string') throw new Error(`Stream ${streamId}: an event needs a type`);
  if (!Number.isInteger(event.schemaVersion)) throw new Error(`Stream ${streamId}: an event's schema version must be an integer, got ${event.schemaVersion}`);
  const data = JSON.stringify(event.data);
  const metadata = JSON.stringify(event.metadata);
  if (data === undefined || metadata === undefined) throw new Error(`Stream ${streamId}: an event's data and metadata must be JSON values`);
  if (data.includes('\\u0000') || metadata.includes('\\u0000')) throw new Error(`Stream ${streamId}: unsupported Unicode escape sequence \\u0000 (jsonb cannot hold it)`);
  return { streamId, type: event.type, schemaVersion: event.schemaVersion, data, metadata, eventId: event.metadata.eventId };
}

/** One spelling per uuid, as PostgreSQL's unique key compares them. */
function uuidKey(eventId: string): string {
  return eventId.replace(/[{}-]/g, '').toLowerCase();
}

function toRecordedEvent(event: StoredEvent): RecordedEvent {
  return {
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: JSON.parse(event.data) as unknown,
    metadata: JSON.parse(event.metadata) as EventMetadata,
    position: { ...event.position },
    recordedAt: event.recordedAt,
  };
}
