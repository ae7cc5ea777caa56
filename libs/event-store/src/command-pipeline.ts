import { EventMetadata, EventStore, GlobalPosition, NewEvent, NO_STREAM, RecordedEvent, WrongExpectedVersionError } from './event-store.port';
import type { Decider, DecisionContext } from './decider';
import type { FaultPoints } from './fault-points';
import { chainEvents, chainHeadOf } from './hash-chain';
import { StreamFold, StreamFoldCache } from './stream-fold-cache';
import { StreamQueue } from './stream-queue';
import { LostRaces } from './lost-races';

/** Who asked: the command's origin, carried into every event's metadata. */
export type EventOrigin = Pick<EventMetadata, 'programToken' | 'correlationId' | 'causationId'>;

export interface EventCodec<Event> {
  encode(event: Event, metadata: EventMetadata): NewEvent;
  decode(recorded: RecordedEvent): Event;
}

/**
 * Business time: each program's own clock, which every decision reads. A sandbox test clock can move
 * it ahead of the wall clock; without one (or for a program that never moved it) it is the wall clock.
 */
export interface ProgramClock {
  now(programToken: string): Promise<Date>;
}

export interface PipelineEnvironment {
  readonly store: EventStore;
  /** How every stream's events are written and read: one codec for the whole log. */
  readonly codec: EventCodec<unknown>;
  /** Wall time: when events are written (metadata `writtenAt`), never what a rule compares against. */
  readonly now: () => Date;
  /** Business time for decisions (metadata `occurredAt`); absent: the wall clock. */
  readonly clock?: ProgramClock;
  readonly newId: () => string;
  /** Folds kept between commands, so a long stream is read from where it was left. */
  readonly folds?: StreamFoldCache;
  /** Commands on one stream queue in this process instead of colliding (stream-queue.ts). */
  readonly queue?: StreamQueue;
  /** Test-only failures around the append (fault-points.ts); absent in production. */
  readonly faults?: FaultPoints;
}

export interface CommandOutcome<Event, State> {
  readonly events: readonly Event[];
  readonly state: State;
  /**
   * Position of the stream's last event after the command: the one appended, or when nothing was
   * appended the last one read (so a caller can still wait for the read models to show it).
   */
  readonly position?: GlobalPosition;
  /** Stream version of the last event, appended or read. */
  readonly version: number;
}


type Folder<Event, State> = Pick<Decider<never, Event, State, never>, 'initialState' | 'evolve'>;

/** The fold of a stream with no events: what a decision on a stream known to be new starts from. */
export const emptyFold = <State>(decider: { initialState: () => State }): StreamFold<State> => ({ state: decider.initialState(), version: -1, head: null });

/** Commands on one stream of one aggregate, through the one pipeline (commandHandler). */
export interface StreamCommands<Command, Event, State> {
  /**
   * Decides the command on the stream's current state and appends what was decided with the version
   * it was decided on; a concurrent append makes that version stale and the decision is taken again.
   * Metadata (ids, origin, business and wall time) and the hash chain are the pipeline's.
   */
  handle(command: Command, origin: EventOrigin): Promise<CommandOutcome<Event, State>>;
  /** The stream's state now, or right after the event of `upToVersion`. */
  state(upToVersion?: number): Promise<State>;
  /** The stream's fold with its version; `trustKnown` as in foldOf. */
  fold(options?: { trustKnown?: boolean }): Promise<StreamFold<State>>;
}

/**
 * The one command API every aggregate goes through: read the stream, fold it, decide, append with the
 * version that was read. It owns the codec, the clocks, the ids, the metadata, the hash chain and the
 * retries, so a handler only says which decider, which stream and which command.
 */
export function commandHandler<Command, Event, State>(
  env: PipelineEnvironment,
  decider: Decider<Command, Event, State, DecisionContext>,
  streamId: string,
): StreamCommands<Command, Event, State> {
  const codec = env.codec as EventCodec<Event>;
  return {
    handle: (command, origin) => {
      const decideAndAppend = () => decideUntilRecorded(env, decider, codec, streamId, command, origin);
      return env.queue ? env.queue.run(streamId, decideAndAppend) : decideAndAppend();
    },
    state: (upToVersion) => loadState(env, decider, codec, streamId, upToVersion),
    fold: (options) => foldOf(env, decider, codec, streamId, options),
  };
}

async function decideUntilRecorded<Command, Event, State>(
  env: PipelineEnvironment,
  decider: Decider<Command, Event, State, DecisionContext>,
  codec: EventCodec<Event>,
  streamId: string,
  command: Command,
  origin: EventOrigin,
): Promise<CommandOutcome<Event, State>> {
  const races = new LostRaces();
  for (;;) {
    const fold = await foldStream(env, decider, codec, streamId);
    const now = await businessTime(env, origin.programToken);
    const events = decider.decide(command, fold.state, { now });
    if (events.length === 0) return { events, state: fold.state, version: fold.version, position: fold.head?.position };
    const writtenAt = env.now().toISOString();
    const metadata = (): EventMetadata => ({ eventId: env.newId(), ...origin, occurredAt: now.toISOString(), writtenAt });
    try {
      const chained = chainEvents(streamId, fold.head, events.map((event) => codec.encode(event, metadata())));
      env.faults?.reached('append-sent');
      const result = await env.store.append(streamId, chained, fold.version < 0 ? NO_STREAM : fold.version);
      env.faults?.reached('append-committed');
      const state = events.reduce(decider.evolve, fold.state);
      const last = chained[chained.length - 1];
      env.folds?.set(streamId, decider, {
        state,
        version: result.nextExpectedVersion,
        head: { streamVersion: result.nextExpectedVersion, hash: String(last.metadata.hash), position: result.position },
      });
      return { events, state, position: result.position, version: result.nextExpectedVersion };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || error.streamId !== streamId) throw error;
      await races.after(error, { assumedFold: false });
    }
  }
}

/** The program's clock as the environment tells it; the wall clock where it has none. */
export function businessTime(env: Pick<PipelineEnvironment, 'now' | 'clock'>, programToken: string): Promise<Date> {
  return env.clock ? env.clock.now(programToken) : Promise.resolve(env.now());
}

/** The stream's current fold: the cached one caught up with the events after it, or a full read. */
async function foldStream<Event, State>(env: PipelineEnvironment, decider: Folder<Event, State>, codec: Pick<EventCodec<Event>, 'decode'>, streamId: string): Promise<StreamFold<State>> {
  const cached = env.folds?.get<State>(streamId, decider);
  const recorded = await env.store.readStream(streamId, cached ? { fromVersion: cached.version + 1 } : undefined);
  const from = cached ?? emptyFold(decider);
  if (recorded.length === 0) return from;
  const last = recorded[recorded.length - 1];
  const fold: StreamFold<State> = {
    state: recorded.map((event) => codec.decode(event)).reduce(decider.evolve, from.state),
    version: last.streamVersion,
    head: chainHeadOf(last),
  };
  env.folds?.set(streamId, decider, fold);
  return fold;
}

/**
 * One stream's fold with its version. `trustKnown`: the fold this process keeps is taken as it is,
 * without a read; only for a decision whose write checks that version (the pipeline's own stream,
 * or a guard), so a stale fold is refused rather than decided on.
 */
export async function foldOf<Event, State>(
  env: PipelineEnvironment,
  decider: Folder<Event, State>,
  codec: Pick<EventCodec<Event>, 'decode'>,
  streamId: string,
  { trustKnown = false }: { trustKnown?: boolean } = {},
): Promise<StreamFold<State>> {
  const known = trustKnown ? env.folds?.get<State>(streamId, decider) : undefined;
  return known ?? foldStream(env, decider, codec, streamId);
}

/**
 * Reads and folds one stream: the current state of an aggregate. Handlers ask commandHandler(...).state();
 * this form also reads a bare store with a codec given (audits, tests).
 */
export async function loadState<Event, State>(
  source: EventStore | PipelineEnvironment,
  decider: Folder<Event, State>,
  codec: Pick<EventCodec<Event>, 'decode'>,
  streamId: string,
  /** Fold only up to this version: the state as it was right after that event. */
  upToVersion?: number,
): Promise<State> {
  if ('store' in source && upToVersion === undefined) return (await foldStream(source, decider, codec, streamId)).state;
  const store = 'store' in source ? source.store : source;
  const recorded = await store.readStream(streamId, upToVersion === undefined ? undefined : { maxCount: upToVersion + 1 });
  return recorded.map((event) => codec.decode(event)).reduce(decider.evolve, decider.initialState());
}
