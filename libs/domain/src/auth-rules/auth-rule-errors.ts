import { Conflict, InvalidInput, NotFound } from '../core/domain-error';

export class AuthRuleNotFound extends NotFound {
  static override readonly code = 'auth_rule_not_found';
  constructor(readonly authRuleToken: string) {
    super(`Auth rule ${authRuleToken} not found`, 'auth_rule_token');
  }
}

export class AuthRuleAlreadyExists extends Conflict {
  static override readonly code = 'auth_rule_already_exists';
  constructor(readonly authRuleToken: string) {
    super(`Auth rule ${authRuleToken} already exists`);
  }
}

/** The rule's type or parameters say something this service cannot evaluate, or say it wrongly. */
export class AuthRuleParametersInvalid extends InvalidInput {
  static override readonly code = 'auth_rule_parameters_invalid';
  constructor(why: string, field = 'parameters') {
    super(why, field);
  }
}

/** Where the rule applies: exactly one of program_level, account_tokens, card_tokens; exclusions only program-wide. */
export class AuthRuleScopeInvalid extends InvalidInput {
  static override readonly code = 'auth_rule_scope_invalid';
  constructor(why: string, field: string) {
    super(why, field);
  }
}

/** Promote needs a draft to promote. */
export class AuthRuleHasNoDraft extends Conflict {
  static override readonly code = 'auth_rule_has_no_draft';
  constructor(readonly authRuleToken: string) {
    super(`Auth rule ${authRuleToken} has no draft version to promote`);
  }
}

/** Only deactivation is an update: a rule becomes ACTIVE again by promoting a draft, as in Lithic. */
export class AuthRuleStateNotAllowed extends InvalidInput {
  static override readonly code = 'auth_rule_state_not_allowed';
  constructor(state: string) {
    super(`state may only be set to INACTIVE (promote a draft to activate a rule); got ${state}`, 'state');
  }
}

/** A backtest of another rule or another program is reported exactly like a missing one. */
export class AuthRuleBacktestNotFound extends NotFound {
  static override readonly code = 'auth_rule_backtest_not_found';
  constructor(readonly backtestToken: string) {
    super(`Auth rule backtest ${backtestToken} not found`, 'auth_rule_backtest_token');
  }
}

/** start and end must be times, start before end. */
export class AuthRuleBacktestWindowInvalid extends InvalidInput {
  static override readonly code = 'auth_rule_backtest_window_invalid';
  constructor(why: string, field: 'start' | 'end') {
    super(why, field);
  }
}

/** A version whose decision needs more than each card's own history (an ACCOUNT velocity limit's program-wide count). */
export class AuthRuleBacktestNotSupported extends InvalidInput {
  static override readonly code = 'auth_rule_backtest_not_supported';
  constructor(why: string) {
    super(why, 'auth_rule_token');
  }
}
