import { assertNever, Decider, DecisionContext } from '../core/decider';
import { authRuleDefinition } from './auth-rule-definition';
import {
  AuthRuleAlreadyExists,
  AuthRuleHasNoDraft,
  AuthRuleNotFound,
  AuthRuleParametersInvalid,
  AuthRuleStateNotAllowed,
} from './auth-rule-errors';
import { AUTH_RULE_EVENT_STREAM, AuthRuleParameters, AuthRuleType } from './auth-rule-parameters';
import { AuthRuleScope, changedScope, ScopeRequest, scopeOf } from './auth-rule-scope';

/**
 * An Auth Rule (Lithic's Auth Rules v2) as a decider on its own stream, `auth-rule-<token>`. A rule is
 * created with a draft version, which runs in shadow (it records what it would have done and declines
 * nothing); promoting the draft makes it the current version, which is enforced while the rule is
 * ACTIVE. Every new set of parameters is a new version number, so a result always names the exact
 * parameters that produced it.
 */

export const AUTH_RULE_STREAM_CATEGORY = 'auth-rule';
export const authRuleStreamId = (authRuleToken: string): string => `${AUTH_RULE_STREAM_CATEGORY}-${authRuleToken}`;

export type AuthRuleState = 'ACTIVE' | 'INACTIVE';

// ---------------------------------------------------------------- commands

export interface CreateAuthRule {
  readonly type: 'CreateAuthRule';
  readonly authRuleToken: string;
  readonly programToken: string;
  readonly name: string | null;
  readonly ruleType: string;
  /** As the API received them: the decider checks them (auth-rule-definition.ts). */
  readonly parameters: unknown;
  readonly scope: ScopeRequest;
  readonly eventStream?: string;
}

/** Lithic's draft: new parameters become the draft; null parameters discard the draft. */
export interface DraftAuthRule {
  readonly type: 'DraftAuthRule';
  readonly authRuleToken: string;
  readonly programToken: string;
  readonly parameters: unknown;
}

export interface PromoteAuthRule {
  readonly type: 'PromoteAuthRule';
  readonly authRuleToken: string;
  readonly programToken: string;
}

export interface UpdateAuthRule {
  readonly type: 'UpdateAuthRule';
  readonly authRuleToken: string;
  readonly programToken: string;
  /** undefined leaves the name; null clears it. */
  readonly name?: string | null;
  readonly state?: string;
  readonly scope: ScopeRequest;
}

export interface DeleteAuthRule {
  readonly type: 'DeleteAuthRule';
  readonly authRuleToken: string;
  readonly programToken: string;
}

export type AuthRuleCommand = CreateAuthRule | DraftAuthRule | PromoteAuthRule | UpdateAuthRule | DeleteAuthRule;

// ---------------------------------------------------------------- events

export interface AuthRuleCreated {
  readonly type: 'AuthRuleCreated';
  readonly data: {
    readonly authRuleToken: string;
    readonly programToken: string;
    readonly name: string | null;
    readonly ruleType: AuthRuleType;
    readonly scope: AuthRuleScope;
    /** The first draft, version 1. */
    readonly parameters: AuthRuleParameters;
    readonly created: string;
  };
}

export interface AuthRuleDrafted {
  readonly type: 'AuthRuleDrafted';
  readonly data: { readonly authRuleToken: string; readonly version: number; readonly parameters: AuthRuleParameters; readonly at: string };
}

export interface AuthRuleDraftDiscarded {
  readonly type: 'AuthRuleDraftDiscarded';
  readonly data: { readonly authRuleToken: string; readonly version: number; readonly at: string };
}

/** The draft becomes the current version, and the rule ACTIVE. */
export interface AuthRulePromoted {
  readonly type: 'AuthRulePromoted';
  readonly data: { readonly authRuleToken: string; readonly version: number; readonly at: string };
}

export interface AuthRuleRenamed {
  readonly type: 'AuthRuleRenamed';
  readonly data: { readonly authRuleToken: string; readonly name: string | null };
}

export interface AuthRuleScopeChanged {
  readonly type: 'AuthRuleScopeChanged';
  readonly data: { readonly authRuleToken: string; readonly scope: AuthRuleScope };
}

export interface AuthRuleDeactivated {
  readonly type: 'AuthRuleDeactivated';
  readonly data: { readonly authRuleToken: string; readonly at: string };
}

export interface AuthRuleDeleted {
  readonly type: 'AuthRuleDeleted';
  readonly data: { readonly authRuleToken: string; readonly at: string };
}

export type AuthRuleEvent =
  | AuthRuleCreated
  | AuthRuleDrafted
  | AuthRuleDraftDiscarded
  | AuthRulePromoted
  | AuthRuleRenamed
  | AuthRuleScopeChanged
  | AuthRuleDeactivated
  | AuthRuleDeleted;
export type AuthRuleEventType = AuthRuleEvent['type'];

// ---------------------------------------------------------------- state

export interface AuthRuleVersion {
  readonly version: number;
  readonly parameters: AuthRuleParameters;
  readonly created: string;
}

export interface ExistingAuthRule {
  readonly status: 'existing';
  readonly authRuleToken: string;
  readonly programToken: string;
  readonly name: string | null;
  readonly ruleType: AuthRuleType;
  readonly scope: AuthRuleScope;
  readonly state: AuthRuleState;
  readonly current: AuthRuleVersion | null;
  readonly draft: AuthRuleVersion | null;
  /** Every version ever drafted, oldest first: what listVersions shows. A rule's versions are few (one per user edit). */
  readonly versions: readonly AuthRuleVersion[];
  readonly created: string;
}

export type AuthRule = { readonly status: 'absent' } | { readonly status: 'deleted'; readonly authRuleToken: string } | ExistingAuthRule;

// ---------------------------------------------------------------- evolve

export function evolveAuthRule(rule: AuthRule, event: AuthRuleEvent): AuthRule {
  if (event.type === 'AuthRuleCreated') {
    const { authRuleToken, programToken, name, ruleType, scope, parameters, created } = event.data;
    const first: AuthRuleVersion = { version: 1, parameters, created };
    return { status: 'existing', authRuleToken, programToken, name, ruleType, scope, state: 'ACTIVE', current: null, draft: first, versions: [first], created };
  }
  if (rule.status !== 'existing') return rule;
  switch (event.type) {
    case 'AuthRuleDrafted': {
      const draft: AuthRuleVersion = { version: event.data.version, parameters: event.data.parameters, created: event.data.at };
      return { ...rule, draft, versions: [...rule.versions, draft] };
    }
    case 'AuthRuleDraftDiscarded':
      return { ...rule, draft: null };
    case 'AuthRulePromoted':
      return rule.draft === null ? rule : { ...rule, current: rule.draft, draft: null, state: 'ACTIVE' };
    case 'AuthRuleRenamed':
      return { ...rule, name: event.data.name };
    case 'AuthRuleScopeChanged':
      return { ...rule, scope: event.data.scope };
    case 'AuthRuleDeactivated':
      return { ...rule, state: 'INACTIVE' };
    case 'AuthRuleDeleted':
      return { status: 'deleted', authRuleToken: rule.authRuleToken };
    default:
      return assertNever(event);
  }
}

/** The highest version number the rule has used: a new draft takes the next. */
export function latestVersion(rule: ExistingAuthRule): number {
  return rule.versions.reduce((highest, version) => Math.max(highest, version.version), 0);
}

/** Lithic's version states: the current version is ACTIVE (INACTIVE with the rule), the draft SHADOW, the rest INACTIVE. Newest first. */
export function versionStates(rule: ExistingAuthRule): { version: AuthRuleVersion; state: 'ACTIVE' | 'SHADOW' | 'INACTIVE' }[] {
  return [...rule.versions]
    .sort((a, b) => b.version - a.version)
    .map((version) => {
      if (rule.state === 'ACTIVE' && version.version === rule.current?.version) return { version, state: 'ACTIVE' as const };
      if (rule.state === 'ACTIVE' && version.version === rule.draft?.version) return { version, state: 'SHADOW' as const };
      return { version, state: 'INACTIVE' as const };
    });
}

// ---------------------------------------------------------------- decide

function decideCreate(command: CreateAuthRule, rule: AuthRule, { now }: DecisionContext): AuthRuleEvent[] {
  if (rule.status !== 'absent') throw new AuthRuleAlreadyExists(command.authRuleToken);
  if (command.eventStream !== undefined && command.eventStream !== AUTH_RULE_EVENT_STREAM) {
    throw new AuthRuleParametersInvalid(`event_stream must be ${AUTH_RULE_EVENT_STREAM}: rules run on authorizations only here`, 'event_stream');
  }
  const definition = authRuleDefinition(command.ruleType, command.parameters);
  const scope = scopeOf(command.scope, command.programToken);
  return [
    {
      type: 'AuthRuleCreated',
      data: {
        authRuleToken: command.authRuleToken,
        programToken: command.programToken,
        name: command.name,
        ruleType: definition.type,
        scope,
        parameters: definition.parameters,
        created: now.toISOString(),
      },
    },
  ];
}

function decideDraft(command: DraftAuthRule, rule: AuthRule, { now }: DecisionContext): AuthRuleEvent[] {
  const existing = ownedRule(rule, command.authRuleToken, command.programToken);
  const at = now.toISOString();
  if (command.parameters === null || command.parameters === undefined) {
    return existing.draft === null ? [] : [{ type: 'AuthRuleDraftDiscarded', data: { authRuleToken: existing.authRuleToken, version: existing.draft.version, at } }];
  }
  // Draft parameters are read as the rule's own type: a velocity limit's draft is a velocity limit.
  const definition = authRuleDefinition(existing.ruleType, command.parameters);
  return [{ type: 'AuthRuleDrafted', data: { authRuleToken: existing.authRuleToken, version: latestVersion(existing) + 1, parameters: definition.parameters, at } }];
}

function decidePromote(command: PromoteAuthRule, rule: AuthRule, { now }: DecisionContext): AuthRuleEvent[] {
  const existing = ownedRule(rule, command.authRuleToken, command.programToken);
  if (existing.draft === null) throw new AuthRuleHasNoDraft(existing.authRuleToken);
  return [{ type: 'AuthRulePromoted', data: { authRuleToken: existing.authRuleToken, version: existing.draft.version, at: now.toISOString() } }];
}

function decideUpdate(command: UpdateAuthRule, rule: AuthRule, { now }: DecisionContext): AuthRuleEvent[] {
  const existing = ownedRule(rule, command.authRuleToken, command.programToken);
  if (command.state !== undefined && command.state !== 'INACTIVE') throw new AuthRuleStateNotAllowed(command.state);
  const authRuleToken = existing.authRuleToken;
  const events: AuthRuleEvent[] = [];
  if (command.name !== undefined && command.name !== existing.name) events.push({ type: 'AuthRuleRenamed', data: { authRuleToken, name: command.name } });
  const scope = changedScope(existing.scope, command.scope, existing.programToken);
  if (scope !== null && JSON.stringify(scope) !== JSON.stringify(existing.scope)) events.push({ type: 'AuthRuleScopeChanged', data: { authRuleToken, scope } });
  if (command.state === 'INACTIVE' && existing.state === 'ACTIVE') events.push({ type: 'AuthRuleDeactivated', data: { authRuleToken, at: now.toISOString() } });
  return events;
}

function decideDelete(command: DeleteAuthRule, rule: AuthRule, { now }: DecisionContext): AuthRuleEvent[] {
  const existing = ownedRule(rule, command.authRuleToken, command.programToken);
  return [{ type: 'AuthRuleDeleted', data: { authRuleToken: existing.authRuleToken, at: now.toISOString() } }];
}

/** A rule of another program, or a deleted one, is reported exactly like a missing one. */
export function ownedRule(rule: AuthRule, authRuleToken: string, programToken: string): ExistingAuthRule {
  if (rule.status !== 'existing' || rule.programToken !== programToken) throw new AuthRuleNotFound(authRuleToken);
  return rule;
}

export function decideAuthRule(command: AuthRuleCommand, rule: AuthRule, context: DecisionContext): AuthRuleEvent[] {
  switch (command.type) {
    case 'CreateAuthRule':
      return decideCreate(command, rule, context);
    case 'DraftAuthRule':
      return decideDraft(command, rule, context);
    case 'PromoteAuthRule':
      return decidePromote(command, rule, context);
    case 'UpdateAuthRule':
      return decideUpdate(command, rule, context);
    case 'DeleteAuthRule':
      return decideDelete(command, rule, context);
    default:
      return assertNever(command);
  }
}

export const authRuleDecider: Decider<AuthRuleCommand, AuthRuleEvent, AuthRule> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideAuthRule,
  evolve: evolveAuthRule,
};
