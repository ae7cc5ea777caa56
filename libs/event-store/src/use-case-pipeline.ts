import { comparePositions, EventMetadata, GlobalPosition, NO_STREAM, WrongExpectedVersionError } from './event-store.port';
import type { Decider } from './decider';
import { chainEvents } from './hash-chain';
import { EventCodec, EventOrigin, foldOf, PipelineEnvironment } from './command-pipeline';
import { LostRaces } from './lost-races';
import type { StreamFold } from './stream-fold-cache';

type Folder<Event, State> = Pick<Decider<never, Event, State, never>, 'initialState' | 'evolve'>;

/** One stream's part of a use case's decision: the fold it was decided on and what was decided. */
export interface StreamDecision<Event = unknown, State = unknown> {
  readonly streamId: string;
  readonly folder: Folder<Event, State>;
  readonly fold: StreamFold<State>;
  /** Empty: the stream is only checked to be still at the fold's version when the others are written. */
  readonly events: readonly Event[];
  /** Written once and never decided on again (a new registry entry): its fold is not kept in the cache. */
  readonly writeOnce?: boolean;
  /**
   * A stream opened under a token the caller chose (a new transaction): should it exist after all,
   * the write is refused and that refusal is the answer, not a reason to decide again.
   */
  readonly mustBeNew?: boolean;
}

/** What a use case decided across its streams, and the answer it gives once that is recorded. */
export interface UseCaseDecision<Result> {
  readonly streams: readonly StreamDecision<any, any>[];
  /** Business time the decision was taken at: every event's `occurredAt`. */
  readonly now: Date;
  readonly result: Result;
}

export interface UseCaseOutcome<Result> {
  readonly result: Result;
  /** The write's last event; when nothing was written, the newest event the decision was taken on. */
  readonly position: GlobalPosition | null;
  /** Each decided stream's version after the write. */
  readonly versions: ReadonlyMap<string, number>;
}

/** How a use case reads the streams it decides on, within one attempt. */
export interface StreamReader {
  /**
   * The stream's fold. On a first attempt, the fold this process keeps is taken as it is (the write
   * checks its version, so a stale one is refused and the next attempt reads); later attempts read.
   */
  fold<Event, State>(folder: Folder<Event, State>, streamId: string): Promise<StreamFold<State>>;
  /** Whether this attempt may decide on folds that were not read (the first one). */
  readonly trustsKnownFolds: boolean;
}

/**
 * Runs a use case that decides several streams at once (an authorization, a void, a return: the
 * card and its transaction) and records every stream's events in one atomic write, each stream
 * guarded by the version it was decided on. Either all of it stands or none: a conflict on any
 * stream decides the whole use case again on what the streams now hold. `queueKey` is the stream
 * whose commands this process runs one at a time (the card: every use case on a card's spend
 * touches it), so that in one process they queue instead of colliding.
 */
export function decideAcrossStreams<Result>(
  env: PipelineEnvironment,
  origin: EventOrigin,
  queueKey: string,
  decide: (reader: StreamReader) => Promise<UseCaseDecision<Result>>,
): Promise<UseCaseOutcome<Result>> {
  const run = () => decideUntilRecorded(env, origin, decide);
  return env.queue ? env.queue.run(queueKey, run) : run();
}

async function decideUntilRecorded<Result>(
  env: PipelineEnvironment,
  origin: EventOrigin,
  decide: (reader: StreamReader) => Promise<UseCaseDecision<Result>>,
): Promise<UseCaseOutcome<Result>> {
  const races = new LostRaces();
  for (let attempt = 1; ; attempt++) {
    const trusting = attempt === 1 && env.folds !== undefined;
    let decision: UseCaseDecision<Result>;
    try {
      decision = await decide(readerFor(env, trusting));
    } catch (error) {
      // A refusal is only an answer when it was decided on what the streams really hold.
      if (trusting && isRefusal(error)) continue;
      throw error;
    }
    const written = decision.streams.filter((stream) => stream.events.length > 0);
    if (written.length === 0) {
      if (trusting) continue;
      return { result: decision.result, position: newestReadPosition(decision.streams), versions: versionsOf(decision.streams) };
    }
    try {
      return await record(env, origin, decision);
    } catch (error) {
      const conflicted = error instanceof WrongExpectedVersionError && decision.streams.some((stream) => stream.streamId === error.streamId && !stream.mustBeNew);
      if (!conflicted) throw error;
      await races.after(error, { assumedFold: trusting });
    }
  }
}

/**
 * The domain's typed errors carry a `kind` (domain-error.ts); the event store depends on no domain, so
 * it knows them by that shape. Anything else (a fault, a lost connection) is not decided again.
 */
function isRefusal(error: unknown): boolean {
  return error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string';
}

function readerFor(env: PipelineEnvironment, trusting: boolean): StreamReader {
  return {
    trustsKnownFolds: trusting,
    fold: (folder, streamId) => foldOf(env, folder, env.codec as EventCodec<never>, streamId, { trustKnown: trusting }),
  };
}

/** The decision's streams as one atomic write, then the process's folds brought to what was written. */
async function record<Result>(env: PipelineEnvironment, origin: EventOrigin, decision: UseCaseDecision<Result>): Promise<UseCaseOutcome<Result>> {
  const writtenAt = env.now().toISOString();
  const occurredAt = decision.now.toISOString();
  const metadata = (): EventMetadata => ({ eventId: env.newId(), ...origin, occurredAt, writtenAt });
  const appends = decision.streams.map((stream) => ({
    streamId: stream.streamId,
    events: stream.events.length === 0 ? [] : chainEvents(stream.streamId, stream.fold.head, stream.events.map((event) => env.codec.encode(event, metadata()))),
    expected: stream.fold.version < 0 ? NO_STREAM : stream.fold.version,
  }));
  env.faults?.reached('append-sent');
  const results = await env.store.appendAtomically(appends);
  env.faults?.reached('append-committed');
  let position: GlobalPosition | null = null;
  const versions = new Map<string, number>();
  decision.streams.forEach((stream, index) => {
    const { nextExpectedVersion, position: streamPosition } = results[index];
    versions.set(stream.streamId, nextExpectedVersion);
    if (!streamPosition) return;
    if (!position || comparePositions(streamPosition, position) > 0) position = streamPosition;
    const chained = appends[index].events;
    if (!stream.writeOnce) env.folds?.set(stream.streamId, stream.folder, {
      state: stream.events.reduce(stream.folder.evolve, stream.fold.state),
      version: nextExpectedVersion,
      head: { streamVersion: nextExpectedVersion, hash: String(chained[chained.length - 1].metadata.hash), position: streamPosition },
    });
  });
  return { result: decision.result, position, versions };
}

function newestReadPosition(streams: readonly StreamDecision[]): GlobalPosition | null {
  let newest: GlobalPosition | null = null;
  for (const { fold } of streams) {
    const position = fold.head?.position;
    if (position && (!newest || comparePositions(position, newest) > 0)) newest = position;
  }
  return newest;
}

function versionsOf(streams: readonly StreamDecision[]): ReadonlyMap<string, number> {
  return new Map(streams.map((stream) => [stream.streamId, stream.fold.version]));
}
