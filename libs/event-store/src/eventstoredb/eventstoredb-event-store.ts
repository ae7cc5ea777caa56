import {
  ANY,
  AppendConsistencyViolationError,
  BACKWARDS,
  END,
  KurrentDBClient,
  NO_STREAM as KURRENT_NO_STREAM,
  START,
  STREAM_EXISTS as KURRENT_STREAM_EXISTS,
  STREAM_STATE,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendStreamState,
  type ConsistencyCheck,
  type EventData,
  type JSONType,
  type Position,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
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
import { BatchedSubscription } from '../support/batched-subscription';

/** Key under which the event's schema version travels inside the EventStoreDB metadata JSON. */
const SCHEMA_VERSION_KEY = '$schemaVersion';
/** Well-known keys EventStoreDB's $by_correlation_id projection and UI understand. */
const CORRELATION_KEY = '$correlationId';
const CAUSATION_KEY = '$causationId';
/** The event's own metadata, whole, as JSON text (toEventData). */
const LEDGER_METADATA_KEY = '$ledgerMetadata';
const STORE_KEYS = new Set([SCHEMA_VERSION_KEY, CORRELATION_KEY, CAUSATION_KEY, LEDGER_METADATA_KEY]);

const START_OF_LOG: GlobalPosition = { commit: 0n, prepare: 0n };

/** The subset of a recorded EventStoreDB event this adapter reads (stream reads and $all reads). */
interface EsdbRecord {
  readonly streamId: string;
  readonly id: string;
  readonly revision: bigint;
  readonly type: string;
  readonly created: Date;
  readonly data: unknown;
  readonly metadata: unknown;
  readonly position?: Position;
}

/**
 * The production adapter over EventStoreDB's successor KurrentDB (its gRPC client), from server 26.1
 * on: every write is one atomic multi-stream `appendRecords` with consistency checks, which older
 * servers lack. The server owns the global order, so positions come straight from it; system events
 * ($-prefixed types or streams) are hidden.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();

  /** Takes a connection string ("kurrentdb://host:2113?tls=false") or a client the caller configured. */
  constructor(connection: string | KurrentDBClient) {
    this.client = typeof connection === 'string' ? KurrentDBClient.connectionString(connection) : connection;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const [result] = await this.appendAtomically([{ streamId, events, expected }]);
    return { nextExpectedVersion: result.nextExpectedVersion, position: result.position ?? (await this.lastEvent(streamId))?.position ?? START_OF_LOG };
  }

  /**
   * One `appendRecords` call (KurrentDB 26.1 and later): every stream's events as records, and every
   * stream's expected version as a consistency check, so a batch with no events is a check alone.
   * The server commits all of it or none, and reports one position for the whole write.
   */
  async appendAtomically(appends: readonly StreamAppend[]): Promise<AtomicAppendResult[]> {
    const checks: ConsistencyCheck[] = appends
      .filter((append) => append.expected !== ANY_VERSION)
      .map((append) => ({ type: STREAM_STATE, streamName: append.streamId, expectedState: toExpectedRevision(append.expected) }));
    const records = appends.flatMap((append) => append.events.map((event) => ({ streamName: append.streamId, record: toEventData(event) })));
    try {
      if (records.length === 0) return await Promise.all(appends.map((append) => this.checkedState(append)));
      const written = await this.client.appendRecords(records, checks);
      const position: GlobalPosition = { commit: written.position, prepare: written.position };
      const revisions = new Map(written.responses.map((response) => [response.streamName, Number(response.revision)]));
      return appends.map((append) => ({
        nextExpectedVersion: revisions.get(append.streamId) ?? versionChecked(append.expected),
        position: append.events.length > 0 ? position : null,
      }));
    } catch (error) {
      if (error instanceof AppendConsistencyViolationError && error.violations.length > 0) {
        const [violation] = error.violations;
        const refused = appends.find((append) => append.streamId === violation.streamName);
        const actual = violation.actualState === KURRENT_NO_STREAM ? null : Number(violation.actualState);
        throw new WrongExpectedVersionError(violation.streamName, refused?.expected ?? ANY_VERSION, actual);
      }
      if (error instanceof KurrentWrongExpectedVersionError) {
        const refused = appends.find((append) => append.streamId === error.streamName);
        const actual = error.actualState === KURRENT_NO_STREAM ? null : Number(error.actualState);
        throw new WrongExpectedVersionError(error.streamName, refused?.expected ?? ANY_VERSION, actual);
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxCount === 0) return [];
    const read = this.client.readStream(streamId, {
      fromRevision: BigInt(options.fromVersion ?? 0),
      maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        const event = fromResolved(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const collected: RecordedEvent[] = [];
    let after = options.after ?? null;
    // System events are skipped client-side, so one page may not fill the request.
    const pageSize = options.maxCount + 1;
    while (collected.length < options.maxCount) {
      const read = this.client.readAll({ fromPosition: after ?? START, maxCount: pageSize });
      let seen = 0;
      let last: Position | null = null;
      for await (const resolved of read) {
        seen += 1;
        const record = resolved.event;
        if (!record) continue;
        last = record.position;
        // Reading $all from a position includes the event at that position; ours is exclusive.
        if (after && comparePositions(record.position, after) <= 0) continue;
        if (isSystemRecord(record)) continue;
        collected.push(toRecordedEvent(record, record.position));
        if (collected.length === options.maxCount) break;
      }
      await read.return?.();
      if (seen < pageSize || last === null) break;
      after = last;
    }
    return collected;
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    const subscription = new EventStoreDbSubscription(
      this.client,
      () => this.headPosition(),
      options,
      (finished) => this.subscriptions.delete(finished),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<GlobalPosition | null> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS });
    try {
      for await (const resolved of read) {
        const record = resolved.event;
        if (record && !isSystemRecord(record)) return record.position;
      }
      return null;
    } finally {
      await read.return?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }

  /** A write with no events changes nothing, but its expectations are still checked, as on PostgreSQL. */
  private async checkedState({ streamId, expected }: StreamAppend): Promise<AtomicAppendResult> {
    const last = await this.lastEvent(streamId);
    const actual = last ? last.streamVersion : null;
    if (!expectationHolds(expected, actual)) throw new WrongExpectedVersionError(streamId, expected, actual);
    return { nextExpectedVersion: actual ?? -1, position: null };
  }

  private async lastEvent(streamId: string): Promise<RecordedEvent | null> {
    const read = this.client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 });
    try {
      for await (const resolved of read) {
        const event = fromResolved(resolved);
        if (event) return event;
      }
      return null;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
  }
}

/**
 * Batches events from the client's catch-up subscription. The gRPC stream is paused while a full
 * batch waits, so a slow handler holds the server back instead of filling memory.
 */
class EventStoreDbSubscription extends BatchedSubscription {
  private readonly queue: RecordedEvent[] = [];
  private stream: AllStreamSubscription | null = null;
  private failure: { readonly error: unknown } | null = null;
  private serverCaughtUp = false;

  constructor(
    private readonly client: KurrentDBClient,
    private readonly headPosition: () => Promise<GlobalPosition | null>,
    options: SubscribeToAllOptions,
    onFinished: (subscription: EventStoreDbSubscription) => void,
  ) {
    super(options);
    this.start(() => onFinished(this));
  }

  protected async consume(): Promise<void> {
    // The head is taken before subscribing, so everything up to it is in the subscription's range.
    const head = await this.headPosition();
    if (this.stopping) return;
    this.stream = this.open();
    await this.follow(head);
  }

  protected async release(): Promise<void> {
    await this.stream?.unsubscribe().catch(() => undefined);
  }

  private open(): AllStreamSubscription {
    const after = this.options.after;
    const stream = this.client.subscribeToAll({
      fromPosition: after ?? START,
      filter: excludeSystemEvents(),
    });
    stream.on('data', (resolved: AllStreamResolvedEvent) => {
      const record = resolved.event;
      if (!record || isSystemRecord(record)) return;
      if (after && comparePositions(record.position, after) <= 0) return;
      this.queue.push(toRecordedEvent(record, record.position));
      if (this.queue.length >= this.batchSize) stream.pause();
      this.wake.notify();
    });
    // Servers from 23.10 say when the subscription turns live; older ones rely on the head position.
    stream.on('caughtUp', () => {
      this.serverCaughtUp = true;
      this.wake.notify();
    });
    stream.on('error', (error: Error) => this.fail(error));
    stream.on('end', () => this.fail(new Error('EventStoreDB ended the $all subscription')));
    return stream;
  }

  private fail(error: unknown): void {
    if (this.stopping || this.failure) return;
    this.failure = { error };
    this.wake.notify();
  }

  private async follow(head: GlobalPosition | null): Promise<void> {
    const after = this.options.after;
    if (head === null || (after !== null && comparePositions(after, head) >= 0)) this.caughtUpSignal.resolve();
    while (!this.stopping) {
      this.wake.clear();
      if (this.failure) throw this.failure.error;
      if (this.queue.length === 0) {
        // The signal can overtake events still buffered in the stream: trust it only when all is handled.
        if (this.serverCaughtUp && (this.stream?.readableLength ?? 0) === 0) this.caughtUpSignal.resolve();
        await this.wake.wait();
        continue;
      }
      const batch = this.queue.splice(0, this.batchSize);
      if (this.stream?.isPaused() && this.queue.length < this.batchSize) this.stream.resume();
      await this.options.handle(batch);
      const last = batch[batch.length - 1].position;
      if (head !== null && comparePositions(last, head) >= 0) this.caughtUpSignal.resolve();
    }
  }
}

function toExpectedRevision(expected: ExpectedVersion): AppendStreamState {
  switch (expected) {
    case NO_STREAM:
      return KURRENT_NO_STREAM;
    case STREAM_EXISTS:
      return KURRENT_STREAM_EXISTS;
    case ANY_VERSION:
      return ANY;
    default:
      if (!Number.isInteger(expected) || expected < -1) {
        throw new RangeError(`Expected version must be an integer >= -1 or a named case, got ${expected}`);
      }
      return expected === -1 ? KURRENT_NO_STREAM : BigInt(expected);
  }
}

/** The version a write's expectation names, for a stream it checked without writing to it. */
function versionChecked(expected: ExpectedVersion): number {
  return typeof expected === 'number' ? expected : -1;
}

function expectationHolds(expected: ExpectedVersion, actual: number | null): boolean {
  switch (expected) {
    case ANY_VERSION:
      return true;
    case NO_STREAM:
      return actual === null;
    case STREAM_EXISTS:
      return actual !== null;
    default:
      return expected === -1 ? actual === null : actual === expected;
  }
}

/**
 * KurrentDB's multi-stream writes take metadata as string properties only, so the event's own
 * metadata travels whole as one JSON property, beside the well-known keys KurrentDB's projections
 * and UI understand.
 */
function toEventData(event: NewEvent): EventData {
  return jsonEvent({
    id: event.metadata.eventId,
    type: event.type,
    data: event.data as JSONType,
    metadata: {
      [LEDGER_METADATA_KEY]: JSON.stringify(event.metadata),
      [SCHEMA_VERSION_KEY]: String(event.schemaVersion),
      [CORRELATION_KEY]: event.metadata.correlationId,
      ...(event.metadata.causationId === null ? {} : { [CAUSATION_KEY]: event.metadata.causationId }),
    },
  });
}

/** Stream reads on servers before 22.6 report this (ulong max) or nothing instead of the $all position. */
const UNKNOWN_POSITION = 2n ** 64n - 1n;

function fromResolved(resolved: ResolvedEvent): RecordedEvent | null {
  const record = resolved.event;
  if (!record || isSystemRecord(record)) return null;
  const position = record.position && record.position.commit !== UNKNOWN_POSITION ? record.position : undefined;
  if (!position) {
    throw new Error(`EventStoreDB gave no global position for event ${record.id} of ${record.streamId}; it needs a server from 22.6 on`);
  }
  return toRecordedEvent(record, position);
}

function isSystemRecord(record: { readonly type: string; readonly streamId: string }): boolean {
  return record.type.startsWith('$') || record.streamId.startsWith('$');
}

function toRecordedEvent(record: EsdbRecord, position: GlobalPosition): RecordedEvent {
  const stored = isRecord(record.metadata) ? record.metadata : {};
  const ledgerMetadata = stored[LEDGER_METADATA_KEY];
  // Events written before metadata travelled as one property carry its keys at the top level.
  const metadata: Record<string, unknown> = typeof ledgerMetadata === 'string' ? JSON.parse(ledgerMetadata) : { eventId: record.id };
  if (typeof ledgerMetadata !== 'string') for (const [key, value] of Object.entries(stored)) if (!STORE_KEYS.has(key)) metadata[key] = value;
  const schemaVersion = Number(stored[SCHEMA_VERSION_KEY]);
  return {
    streamId: record.streamId,
    streamVersion: Number(record.revision),
    type: record.type,
    schemaVersion: Number.isInteger(schemaVersion) && schemaVersion > 0 ? schemaVersion : 1,
    data: record.data,
    // Events this service wrote carry the full shape; foreign ones keep what they have plus their id.
    metadata: metadata as EventMetadata,
    position: { commit: position.commit, prepare: position.prepare },
    recordedAt: record.created.toISOString(),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
