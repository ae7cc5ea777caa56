/**
 * What the command pipeline needs of an aggregate: a pure decider. `decide` turns a command and the
 * current state into new events (or throws), `evolve` folds one event into the state, and the time
 * comes in through the context. Declared here rather than imported so that the event store depends
 * on no domain: the domain's deciders have this shape and fit it as they are.
 */
export interface Decider<Command, Event, State, Context = DecisionContext> {
  readonly initialState: () => State;
  readonly decide: (command: Command, state: State, context: Context) => Event[];
  readonly evolve: (state: State, event: Event) => State;
}

/** What the pipeline tells every decision: the moment it is decided (business time, UTC). */
export interface DecisionContext {
  readonly now: Date;
}
