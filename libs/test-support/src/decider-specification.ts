/**
 * The decider as the specification uses it, by shape: test-support depends on no lib, so the domain's
 * own specs can use it without a dependency cycle (domain -> test-support -> domain).
 */
interface SpecifiedDecider<Command, Event, State, Context> {
  readonly initialState: () => State;
  readonly decide: (command: Command, state: State, context: Context) => Event[];
  readonly evolve: (state: State, event: Event) => State;
}

/**
 * Given/when/then for deciders: given past events, when a command is decided, then these events are
 * produced (or this error is thrown). Reads like the rule it checks.
 */
export function deciderSpecification<Command, Event, State, Context>(decider: SpecifiedDecider<Command, Event, State, Context>, context: Context) {
  return {
    given(events: readonly Event[]) {
      return {
        when(command: Command) {
          const decide = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()), context);
          return {
            then(expected: readonly Event[]) {
              expect(decide()).toEqual(expected);
            },
            thenThrows(errorType: new (...args: never[]) => Error, message?: string | RegExp) {
              expect(decide).toThrow(errorType);
              if (message !== undefined) expect(decide).toThrow(message);
            },
          };
        },
      };
    },
  };
}
