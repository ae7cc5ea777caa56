/**
 * An aggregate as a pure decider: `decide` turns a command and the current state into new events (or
 * throws a typed DomainError), `evolve` folds one event into the state. Time and ids come in through
 * the context, so replaying events never reads a clock.
 */
export interface Decider<Command, Event, State, Context = DecisionContext> {
  readonly initialState: () => State;
  readonly decide: (command: Command, state: State, context: Context) => Event[];
  readonly evolve: (state: State, event: Event) => State;
}

export interface DecisionContext {
  /** The moment the command is decided, UTC. */
  readonly now: Date;
}

export function foldEvents<Event, State>(decider: Pick<Decider<never, Event, State, never>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}

/** Exhaustiveness check for switches over unions: a new member that is not handled fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
