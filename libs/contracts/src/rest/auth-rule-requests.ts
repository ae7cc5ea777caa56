import { ArrayMaxSize, IsArray, IsString, Matches, MaxLength } from 'class-validator';
import { AUTH_RULE_EVENT_STREAM, AUTH_RULE_TYPES } from '@ledger/domain';
import { TokenField } from './token-field';
import { UUID_V4 } from './uuid-v4';
import { CursorPageParams } from './validation';
import { FlagField, OneOfField, valueField, type FieldOptions } from './value-fields';

/**
 * Lithic's Auth Rules v2 requests (`client.authRules.v2`). The edge checks each field's JSON kind; a
 * rule's parameters are one object whose meaning depends on the rule's type, so the domain reads them
 * (auth-rule-definition.ts) and names the field at fault.
 */

export const MAX_AUTH_RULE_NAME = 256;
/** More tokens than a program could mean in one rule is a mistake, not a scope. */
export const MAX_AUTH_RULE_TOKENS = 1000;

function TokenListField(options: FieldOptions = {}): PropertyDecorator {
  return (target, key) =>
    valueField({ type: [String], format: 'uuid' }, { ...options, optional: true }, [
      IsArray({ message: `${String(key)} must be a list of tokens` }),
      ArrayMaxSize(MAX_AUTH_RULE_TOKENS),
      Matches(UUID_V4, { each: true, message: `${String(key)} must hold only version 4 UUIDs` }),
    ])(target, key);
}

function NameField(): PropertyDecorator {
  return valueField({ type: 'string', nullable: true, maxLength: MAX_AUTH_RULE_NAME }, { optional: true, description: 'null clears the name' }, [IsString(), MaxLength(MAX_AUTH_RULE_NAME)]);
}

function ParametersField(options: FieldOptions & { nullable?: boolean }): PropertyDecorator {
  return valueField({ type: 'object', additionalProperties: true, ...(options.nullable ? { nullable: true } : {}) }, options, []);
}

class AuthRuleScopeRequest {
  @FlagField({ optional: true, description: 'Whether the rule applies to every card of the program' })
  program_level?: boolean;

  @TokenListField({ description: 'Accounts the rule applies to (an account here is the program itself)' })
  account_tokens?: string[];

  @TokenListField({ description: 'Cards the rule applies to' })
  card_tokens?: string[];

  @TokenListField({ description: 'Cards a program-level rule leaves out' })
  excluded_card_tokens?: string[];

  @TokenListField({ description: 'Accounts a program-level rule leaves out' })
  excluded_account_tokens?: string[];

  @TokenListField({ description: 'Refused unless empty: there are no business accounts here' })
  business_account_tokens?: string[];

  @TokenListField({ description: 'Refused unless empty: there are no business accounts here' })
  excluded_business_account_tokens?: string[];
}

/** POST /v2/auth_rules: the parameters become the rule's draft, version 1, run in shadow until promoted. */
export class CreateAuthRuleRequest extends AuthRuleScopeRequest {
  @OneOfField(AUTH_RULE_TYPES)
  type!: string;

  @ParametersField({ description: "The rule's parameters, as Lithic's for its type" })
  parameters!: Record<string, unknown>;

  @NameField()
  name?: string | null;

  @OneOfField([AUTH_RULE_EVENT_STREAM], { optional: true })
  event_stream?: string;
}

/** PATCH /v2/auth_rules/{auth_rule_token}: only the fields given change; given associations replace the existing ones. */
export class UpdateAuthRuleRequest extends AuthRuleScopeRequest {
  @NameField()
  name?: string | null;

  @OneOfField(['INACTIVE'], { optional: true, description: 'Only INACTIVE: promote a draft to activate a rule' })
  state?: string;
}

/** POST /v2/auth_rules/{auth_rule_token}/draft: new parameters, or null (or none) to discard the draft. */
export class DraftAuthRuleRequest {
  @ParametersField({ optional: true, nullable: true, description: "The draft's parameters; null discards the draft" })
  parameters?: Record<string, unknown> | null;
}

export class AuthRuleTokenParam {
  @TokenField()
  auth_rule_token!: string;
}

export const AUTH_RULE_LIST_SCOPES = ['PROGRAM', 'ACCOUNT', 'BUSINESS_ACCOUNT', 'CARD', 'ANY'] as const;

/** GET /v2/auth_rules: Lithic's filters beside its cursor. */
export class ListAuthRulesParams extends CursorPageParams {
  @TokenField({ optional: true, description: 'Only rules bound to this card (named by it, or program-level and not excluding it)' })
  card_token?: string;

  @TokenField({ optional: true, description: 'Only rules bound to this account' })
  account_token?: string;

  @OneOfField(AUTH_RULE_LIST_SCOPES, { optional: true })
  scope?: string;

  @OneOfField([AUTH_RULE_EVENT_STREAM], { optional: true })
  event_stream?: string;
}
