import type { ScopeRequest } from '@ledger/domain';
import { type CommandOrigin } from './command-origin';

/**
 * Where a rule applies, as Lithic's create and update name it (program_level, account_tokens,
 * card_tokens and the exclusions); the domain decides what the fields form (auth-rule-scope.ts).
 */
export type AuthRuleScopeFields = ScopeRequest;

export class CreateAuthRuleCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly rule: {
      readonly name: string | null;
      readonly type: string;
      /** The request's JSON as sent: the domain checks it against the rule's type. */
      readonly parameters: unknown;
      readonly eventStream?: string;
      readonly scope: AuthRuleScopeFields;
    },
  ) {}
}

export class UpdateAuthRuleCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly authRuleToken: string,
    readonly changes: {
      readonly name?: string | null;
      readonly state?: string;
      readonly scope: AuthRuleScopeFields;
    },
  ) {}
}

/** New draft parameters, or null to discard the draft. */
export class DraftAuthRuleCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly authRuleToken: string,
    readonly parameters: unknown,
  ) {}
}

export class PromoteAuthRuleCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly authRuleToken: string,
  ) {}
}

export class DeleteAuthRuleCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly authRuleToken: string,
  ) {}
}
