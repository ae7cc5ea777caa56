import { Decider, foldEvents } from '@ledger/domain';

/**
 * Given/when/then for deciders: given past events, when a command is decided, then these events are
 * produced (or this error is thrown). Reads like the rule it checks.
 */
export function deciderSpecification<Command, Event, State, Context>(decider: Decider<Command, Event, State, Context>, context: Context) {
  return {
    given(events: readonly Event[]) {
      return {
        when(command: Command) {
          const decide = () => decider.decide(command, foldEvents(decider, events), context);
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
