import { assertNever, Decider } from '../core/decider';

/**
 * The rules a program has, in the order they were created: one stream per program,
 * `auth-rules-<program token>`, written in the same atomic write as a rule's creation and deletion.
 * It is how the rules of a program are found without a read model: listing them, and gathering the
 * ones an authorization on the program's cards must run, both read it and then each rule's stream,
 * so both see every rule the moment its write succeeds.
 */

export const PROGRAM_AUTH_RULES_STREAM_CATEGORY = 'auth-rules';
export const programAuthRulesStreamId = (programToken: string): string => `${PROGRAM_AUTH_RULES_STREAM_CATEGORY}-${programToken}`;

export type ProgramAuthRulesCommand =
  | { readonly type: 'ListAuthRule'; readonly programToken: string; readonly authRuleToken: string }
  | { readonly type: 'UnlistAuthRule'; readonly programToken: string; readonly authRuleToken: string };

export interface AuthRuleListed {
  readonly type: 'AuthRuleListed';
  readonly data: { readonly programToken: string; readonly authRuleToken: string };
}

export interface AuthRuleUnlisted {
  readonly type: 'AuthRuleUnlisted';
  readonly data: { readonly programToken: string; readonly authRuleToken: string };
}

export type ProgramAuthRulesEvent = AuthRuleListed | AuthRuleUnlisted;

/** The tokens of the program's rules, oldest first. */
export interface ProgramAuthRules {
  readonly authRuleTokens: readonly string[];
}

export function evolveProgramAuthRules(state: ProgramAuthRules, event: ProgramAuthRulesEvent): ProgramAuthRules {
  switch (event.type) {
    case 'AuthRuleListed':
      return state.authRuleTokens.includes(event.data.authRuleToken) ? state : { authRuleTokens: [...state.authRuleTokens, event.data.authRuleToken] };
    case 'AuthRuleUnlisted':
      return { authRuleTokens: state.authRuleTokens.filter((token) => token !== event.data.authRuleToken) };
    default:
      return assertNever(event);
  }
}

/** Listing twice, or unlisting what is not listed, records nothing. */
export function decideProgramAuthRules(command: ProgramAuthRulesCommand, state: ProgramAuthRules): ProgramAuthRulesEvent[] {
  const listed = state.authRuleTokens.includes(command.authRuleToken);
  const data = { programToken: command.programToken, authRuleToken: command.authRuleToken };
  switch (command.type) {
    case 'ListAuthRule':
      return listed ? [] : [{ type: 'AuthRuleListed', data }];
    case 'UnlistAuthRule':
      return listed ? [{ type: 'AuthRuleUnlisted', data }] : [];
    default:
      return assertNever(command);
  }
}

export const programAuthRulesDecider: Decider<ProgramAuthRulesCommand, ProgramAuthRulesEvent, ProgramAuthRules> = {
  initialState: () => ({ authRuleTokens: [] }),
  decide: decideProgramAuthRules,
  evolve: evolveProgramAuthRules,
};
