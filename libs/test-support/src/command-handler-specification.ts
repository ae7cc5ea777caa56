/*
 * The event store, the codec and the pipeline environment as the specification uses them, by shape:
 * test-support depends on no lib (the event store's and the domain's own specs use it, and an import
 * back would be a cycle). The event store's types have these members and fit as they are.
 */

/** An event as it is appended: the store's NewEvent. */
interface SpecifiedNewEvent {
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: SpecifiedMetadata;
}

interface SpecifiedMetadata {
  readonly eventId: string;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly programToken: string;
  readonly occurredAt: string;
  readonly writtenAt?: string;
  readonly [extra: string]: unknown;
}

/** An event as the store answers it: the store's RecordedEvent. */
interface SpecifiedRecordedEvent extends SpecifiedNewEvent {
  readonly streamId: string;
  readonly streamVersion: number;
  /** The events of one write share its commit. */
  readonly position: { readonly commit: unknown };
}

interface SpecifiedStore {
  append(streamId: string, events: readonly SpecifiedNewEvent[], expected: 'no_stream'): Promise<unknown>;
  readAll(options: { readonly after?: unknown; readonly maxCount: number }): Promise<SpecifiedRecordedEvent[]>;
  headPosition(): Promise<unknown>;
  close(): Promise<void>;
}

interface SpecifiedCodec<Event> {
  encode(event: Event, metadata: SpecifiedMetadata): SpecifiedNewEvent;
  decode(recorded: SpecifiedRecordedEvent): Event;
}

/** What the specification needs of a pipeline environment; the handler gets the whole of it. */
export interface SpecifiedEnvironment<Event> {
  readonly store: SpecifiedStore;
  readonly codec: SpecifiedCodec<Event>;
}

/** The wall clock and the ids every scenario's environment is built on. */
export interface FixedClockAndIds {
  readonly now: () => Date;
  /** Handler ids, in order: `id(1)`, `id(2)`, ... of the specification. */
  readonly newId: () => string;
}

export interface CommandHandlerSetup<Event, Environment extends SpecifiedEnvironment<Event>, Handler> {
  /**
   * The pipeline environment for one scenario, built on the fixed clock and ids given: a fresh store
   * each time, so scenarios share nothing.
   */
  readonly environment: (fixed: FixedClockAndIds) => Environment;
  /** Seals a stream's given events as the pipeline seals what it appends (the hash chain): `chainEvents(streamId, null, events)`. */
  readonly seal: (streamId: string, events: readonly SpecifiedNewEvent[]) => readonly SpecifiedNewEvent[];
  /** The handler under test, constructed on the scenario's environment. */
  readonly handler: (environment: Environment) => Handler;
  /** The wall clock of every scenario, frozen. Default 2025-03-14T09:26:53.589Z. */
  readonly now?: Date;
}

/** A stream's events, by stream id; the streams in the order they are seeded or first written. */
export type EventsByStream<Event> = Readonly<Record<string, readonly Event[]>>;

/**
 * The events of one stream, for an expectation whose stream id is only known by its form (a card
 * number's registry stream is named by the number's hash): `streamId` may be an asymmetric matcher.
 */
export interface StreamEvents<Event> {
  readonly streamId: unknown;
  readonly events: readonly Event[];
}

/** What a scenario that passed leaves for further checks. */
export interface ScenarioOutcome<Result, Environment> {
  readonly result: Result;
  /** The events the command appended, in log order, as the store recorded them. */
  readonly recorded: readonly SpecifiedRecordedEvent[];
  /**
   * The streams each write of the command touched, one entry per commit in log order: `[[card,
   * transaction]]` for one atomic write over both, `[[registry], [card]]` for two writes in turn.
   */
  readonly writes: readonly (readonly string[])[];
  readonly environment: Environment;
}

type ErrorClass = abstract new (...args: never[]) => Error;

const DEFAULT_NOW = new Date('2025-03-14T09:26:53.589Z');

/**
 * Given/when/then for command handlers on a real event store: given events already in streams, when
 * the handler executes a command, then exactly these new events were appended to these streams (type
 * and data, in order; no other stream written), or this typed error was thrown and nothing was
 * appended. Each scenario runs on an environment of its own with a frozen wall clock and ids that
 * count up from `id(1)`, so a handler's tokens and timestamps can be written into the expectation.
 *
 *     const card = commandHandlerSpecification({ environment, seal, handler: (env) => new UpdateCardHandler(env, vault) });
 *     await card.given({ [cardStreamId(token)]: [created] })
 *       .when((handler) => handler.execute(command))
 *       .then({ [cardStreamId(token)]: [{ type: 'CardPaused', data: { ... } }] });
 *
 * A handler that writes several streams in one atomic write is specified the same way, one entry per
 * stream; `writes` in the outcome tells which streams went into one commit.
 */
export function commandHandlerSpecification<Event, Environment extends SpecifiedEnvironment<Event>, Handler>(setup: CommandHandlerSetup<Event, Environment, Handler>) {
  const now = setup.now ?? DEFAULT_NOW;
  const given = (streams: EventsByStream<Event>) => ({
    when<Result>(execute: (handler: Handler, environment: Environment) => Promise<Result>) {
      return new Scenario(setup, now, streams, execute);
    },
  });
  return {
    given,
    /** A scenario on an empty store. */
    when<Result>(execute: (handler: Handler, environment: Environment) => Promise<Result>) {
      return given({}).when(execute);
    },
    /** The nth id (from 1) the scenario's environment hands out. */
    id: scenarioId,
    /** The scenario's wall clock. */
    now: new Date(now),
  };
}

/** Ids with a uuid's form, since the PostgreSQL event store keys events by uuid and the in-memory one checks it. */
function scenarioId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** Ids of the given events' metadata: apart from the handler's, so how much was given never shifts `id(n)`. */
function givenEventId(n: number): string {
  return `99999999-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

class Scenario<Event, Environment extends SpecifiedEnvironment<Event>, Handler, Result> {
  constructor(
    private readonly setup: CommandHandlerSetup<Event, Environment, Handler>,
    private readonly now: Date,
    private readonly given: EventsByStream<Event>,
    private readonly execute: (handler: Handler, environment: Environment) => Promise<Result>,
  ) {}

  /**
   * Exactly these events were appended: by stream id (streams compared as a set), or as a list of
   * streams in the order of their first appended event (stream ids may be matchers).
   */
  then(expected: EventsByStream<Event> | readonly StreamEvents<Event>[], ...awaited: unknown[]): Promise<ScenarioOutcome<Result, Environment>> {
    // Named `then` for how the scenario reads, which makes it a thenable: `await scenario` calls it
    // with the awaiting promise's resolve and reject, and would otherwise wait forever.
    if (typeof expected === 'function') {
      const reject = awaited[0] as (error: Error) => void;
      reject(new Error('a scenario is not awaited by itself: end it with .then(expected events) or .thenThrows(ErrorClass)'));
      return new Promise(() => undefined);
    }
    return this.expectAppended(expected);
  }

  private async expectAppended(expected: EventsByStream<Event> | readonly StreamEvents<Event>[]): Promise<ScenarioOutcome<Result, Environment>> {
    const run = await this.run();
    if (!run.ok) throw new Error(`expected the command to append events, but it threw ${described(run.error)}`, { cause: run.error });
    const appended = byStream(run.recorded, run.environment.codec);
    if (Array.isArray(expected)) expect(appended).toEqual(expected);
    else expect(Object.fromEntries(appended.map(({ streamId, events }) => [streamId, events]))).toEqual(expected);
    return { result: run.result, recorded: run.recorded, writes: writesOf(run.recorded), environment: run.environment };
  }

  /** The command was refused with this error (and these fields, when given), and nothing was appended. */
  async thenThrows<Refusal extends ErrorClass>(type: Refusal, fields?: Partial<InstanceType<Refusal>>): Promise<InstanceType<Refusal>> {
    const run = await this.run();
    if (run.ok) throw new Error(`expected the command to throw ${type.name}, but it answered ${JSON.stringify(run.result)}`);
    expect(run.error).toBeInstanceOf(type);
    if (fields) expect(run.error).toMatchObject(fields);
    expect(byStream(run.recorded, run.environment.codec)).toEqual([]);
    return run.error as InstanceType<Refusal>;
  }

  private async run(): Promise<
    { ok: true; result: Result; recorded: SpecifiedRecordedEvent[]; environment: Environment } | { ok: false; error: unknown; recorded: SpecifiedRecordedEvent[]; environment: Environment }
  > {
    let nextId = 0;
    const environment = this.setup.environment({ now: () => new Date(this.now), newId: () => scenarioId((nextId += 1)) });
    try {
      await this.seed(environment);
      const head = await environment.store.headPosition();
      const handler = this.setup.handler(environment);
      const outcome = await this.execute(handler, environment).then(
        (result) => ({ ok: true as const, result }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const recorded = await readAllAfter(environment.store, head);
      return { ...outcome, recorded, environment };
    } finally {
      await environment.store.close();
    }
  }

  /** Each given stream appended as new, sealed as the pipeline seals, with the scenario's time and its own ids. */
  private async seed(environment: Environment): Promise<void> {
    let n = 0;
    for (const [streamId, events] of Object.entries(this.given)) {
      const encoded = events.map((event) =>
        environment.codec.encode(event, {
          eventId: givenEventId((n += 1)),
          correlationId: givenEventId(n),
          causationId: null,
          programToken: programTokenOf(event),
          occurredAt: this.now.toISOString(),
          writtenAt: this.now.toISOString(),
        }),
      );
      await environment.store.append(streamId, this.setup.seal(streamId, encoded), 'no_stream');
    }
  }
}

/** Every event of the ledger names its program in its data; metadata carries it for consumers. */
function programTokenOf(event: unknown): string {
  const data = (event as { data?: { programToken?: unknown } }).data;
  return typeof data?.programToken === 'string' ? data.programToken : 'unknown-program';
}

async function readAllAfter(store: SpecifiedStore, head: unknown): Promise<SpecifiedRecordedEvent[]> {
  const recorded: SpecifiedRecordedEvent[] = [];
  let after = head;
  for (;;) {
    const page = await store.readAll({ after, maxCount: 1000 });
    if (page.length === 0) return recorded;
    recorded.push(...page);
    after = page[page.length - 1].position;
  }
}

/** Stream ids per commit, in log order; the events of one commit are contiguous in the log. */
function writesOf(recorded: readonly SpecifiedRecordedEvent[]): string[][] {
  const writes: { commit: unknown; streams: string[] }[] = [];
  for (const event of recorded) {
    const last = writes[writes.length - 1];
    if (last && last.commit === event.position.commit) {
      if (!last.streams.includes(event.streamId)) last.streams.push(event.streamId);
    } else {
      writes.push({ commit: event.position.commit, streams: [event.streamId] });
    }
  }
  return writes.map((write) => write.streams);
}

/** Decoded events grouped by stream, streams in the order of their first event in the log. */
function byStream<Event>(recorded: readonly SpecifiedRecordedEvent[], codec: SpecifiedCodec<Event>): StreamEvents<Event>[] {
  const streams = new Map<string, Event[]>();
  for (const event of recorded) {
    const events = streams.get(event.streamId) ?? [];
    events.push(codec.decode(event));
    streams.set(event.streamId, events);
  }
  return [...streams].map(([streamId, events]) => ({ streamId, events }));
}

/** The class's name first: an error class that does not set `name` still says what it is. */
function described(error: unknown): string {
  return error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
}
