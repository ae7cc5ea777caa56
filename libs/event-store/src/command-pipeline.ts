import type { Decider, DecisionContext } from '@ledger/domain';
import { EventMetadata, EventStore, GlobalPosition, NewEvent, NO_STREAM, RecordedEvent, WrongExpectedVersionError } from './event-store.port';
import { chainEvents } from './hash-chain';

/** Who asked, carried into every event's metadata. */
export interface CommandOrigin {
  readonly programToken: string;
  readonly correlationId: string;
  readonly causationId: string | null;
}

export interface EventCodec<Event> {
  encode(event: Event, metadata: EventMetadata): NewEvent;
  decode(recorded: RecordedEvent): Event;
}

export interface PipelineEnvironment {
  readonly store: EventStore;
  readonly now: () => Date;
  readonly newId: () => string;
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

/** Enough for dozens of writers racing on one stream; each loss waits a little longer, at random. */
const MAX_ATTEMPTS = 200;
const backoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));

/**
 * The one command pipeline every aggregate goes through: read the stream, fold it, decide, append
 * with the version that was read. A concurrent append makes the expected version stale; then the whole
 * decision is taken again on the fresh state, which is what keeps spend limits from being overspent.
 */
export async function handleCommand<Command, Event, State>(
  env: PipelineEnvironment,
  decider: Decider<Command, Event, State, DecisionContext>,
  codec: EventCodec<Event>,
  streamId: string,
  command: Command,
  origin: CommandOrigin,
): Promise<CommandOutcome<Event, State>> {
  for (let attempt = 1; ; attempt++) {
    const recorded = await env.store.readStream(streamId);
    const state = recorded.map((event) => codec.decode(event)).reduce(decider.evolve, decider.initialState());
    const now = env.now();
    const events = decider.decide(command, state, { now });
    const last = recorded.length === 0 ? undefined : recorded[recorded.length - 1];
    if (events.length === 0) return { events, state, version: last?.streamVersion ?? -1, position: last?.position };
    const expected = recorded.length === 0 ? NO_STREAM : recorded[recorded.length - 1].streamVersion;
    const metadata = (): EventMetadata => ({ eventId: env.newId(), ...origin, occurredAt: now.toISOString() });
    try {
      const sealed = chainEvents(streamId, recorded[recorded.length - 1] ?? null, events.map((event) => codec.encode(event, metadata())));
      const result = await env.store.append(streamId, sealed, expected);
      return { events, state: events.reduce(decider.evolve, state), position: result.position, version: result.nextExpectedVersion };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= MAX_ATTEMPTS) throw error;
      await backoff(attempt);
    }
  }
}

/** Reads and folds one stream: the current state of an aggregate, for a decision that spans two. */
export async function loadState<Event, State>(
  store: EventStore,
  decider: Pick<Decider<never, Event, State, never>, 'initialState' | 'evolve'>,
  codec: Pick<EventCodec<Event>, 'decode'>,
  streamId: string,
  /** Fold only up to this version: the state as it was right after that event. */
  upToVersion?: number,
): Promise<State> {
  const recorded = await store.readStream(streamId, upToVersion === undefined ? undefined : { maxCount: upToVersion + 1 });
  return recorded.map((event) => codec.decode(event)).reduce(decider.evolve, decider.initialState());
}
