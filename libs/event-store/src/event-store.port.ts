/**
 * The event-store port. Aggregate services append to streams with an expected version; projectors
 * and publishers read the global log in order from a checkpoint. Two adapters implement it:
 * PostgreSQL (embedded default, always tested) and EventStoreDB (production).
 */

/** Where an event sits in the global log. Ordered by (commit, prepare), as EventStoreDB orders it. */
export interface GlobalPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

/** Named expectations for an append; a number means "the stream's last event has this version". */
export const NO_STREAM = 'no_stream' as const;
export const STREAM_EXISTS = 'stream_exists' as const;
export const ANY_VERSION = 'any' as const;
export type ExpectedVersion = number | typeof NO_STREAM | typeof STREAM_EXISTS | typeof ANY_VERSION;

export interface EventMetadata {
  /** Stable id, used by every consumer to de-duplicate. */
  readonly eventId: string;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly programToken: string;
  /**
   * Business time, UTC ISO 8601: the program's clock when the event was decided (a sandbox test clock
   * may have moved it ahead of the wall clock). Set by the command pipeline, never on replay.
   */
  readonly occurredAt: string;
  /**
   * Wall time, UTC ISO 8601, when the command pipeline wrote the event. Events written before the
   * test clock existed lack it (their business time was the wall time).
   */
  readonly writtenAt?: string;
  readonly [extra: string]: unknown;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly schemaVersion: number;
  readonly data: Data;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  readonly streamId: string;
  /** 0 for the first event of a stream. */
  readonly streamVersion: number;
  readonly position: GlobalPosition;
  /** UTC ISO 8601, when the store recorded it. */
  readonly recordedAt: string;
}

export interface AppendResult {
  /** Version of the last appended event: pass it as the expected version of the next append. */
  readonly nextExpectedVersion: number;
  /** Global position of the last appended event. */
  readonly position: GlobalPosition;
}

/** One stream's part of an atomic append; an empty batch only checks the expectation. */
export interface StreamAppend {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedVersion;
}

export interface AtomicAppendResult {
  readonly nextExpectedVersion: number;
  /** Global position of the stream's last appended event; null when its batch was empty. */
  readonly position: GlobalPosition | null;
}

export interface ReadStreamOptions {
  readonly fromVersion?: number;
  readonly maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position; null or absent for the start of the log. */
  readonly after?: GlobalPosition | null;
  readonly maxCount: number;
}

export interface SubscribeToAllOptions {
  /** Exclusive checkpoint to resume after; null for the start of the log. */
  readonly after: GlobalPosition | null;
  /** Called with batches in log order; the next batch waits until it resolves. */
  readonly handle: (events: readonly RecordedEvent[]) => Promise<void>;
  readonly batchSize?: number;
  /**
   * Once live, how long to let commits gather after a wake-up before reading them, so that a busy
   * log arrives in a few larger batches instead of one small batch per commit. For subscribers that
   * nobody waits on (ledger tree, Kafka publisher); the read models, which writes
   * wait for, leave it at 0. Honoured by the PostgreSQL adapter, which reads on notification;
   * EventStoreDB pushes events to its subscribers as they come.
   */
  readonly gatherMs?: number;
  /** Called once if the subscription stops on an error (from the store or from handle). */
  readonly onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops after the batch in hand; resolves when stopped. */
  stop(): Promise<void>;
  /** Resolves when the subscription has caught up to the head of the log at least once. */
  readonly caughtUp: Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  /**
   * Several streams as one write: every expectation holds and every batch is recorded, in one commit,
   * or nothing is (a WrongExpectedVersionError names the stream that refused). Results in the order
   * given; an empty batch reports its stream's version and no position. Every use case that changes
   * two streams (the card and its transaction) writes them this way, so no store may lack it.
   */
  appendAtomically(appends: readonly StreamAppend[]): Promise<AtomicAppendResult[]>;
  /** Events of one stream in version order; an empty list when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up subscription over the whole log that turns live once it reaches the head. */
  subscribeToAll(options: SubscribeToAllOptions): Subscription;
  /** Position of the newest committed event, or null for an empty log. */
  headPosition(): Promise<GlobalPosition | null>;
  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  static readonly code = 'wrong_expected_version';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | null,
  ) {
    super(`Stream ${streamId}: expected version ${String(expected)}, actual ${actual === null ? 'no stream' : actual}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** Text form for checkpoints, logs and the auditors' API: "<commit>/<prepare>". */
export function formatPosition(position: GlobalPosition): string {
  return `${position.commit}/${position.prepare}`;
}

export function parsePosition(text: string): GlobalPosition {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new Error(`Not a global position: ${text}`);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}
