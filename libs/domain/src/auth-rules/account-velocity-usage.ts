import { assertNever, type Decider } from '../core/decider';
import type { ExistingAuthRule } from './auth-rule';
import type { VelocityLimitParameters } from './auth-rule-parameters';
import { appliesTo, type ScopedCard } from './auth-rule-scope';
import { passesFilters, type VelocityFacts, type VelocityUsage } from './velocity-limit';
import { velocityPeriodStart } from './velocity-period';

/**
 * What an ACCOUNT-scoped velocity limit has counted: one stream per rule version,
 * `auth-rule-usage-<rule token>-<version>`, since a version's own period and filters decide what it
 * counts. Every approval the version counts is appended to it in the authorization's own atomic
 * write, with the version the decision was taken on: two authorizations of different cards decided
 * on the same count conflict there, and the loser is decided again on the count with the winner's
 * approval in it, just as two authorizations of one card conflict on the card's stream. Only a
 * program with such a limit reads or writes these streams.
 *
 * An approval is counted at the amount it was authorized for, once: a later void, clearing or
 * advice on one card's transaction does not write to every account counter that counted it (the
 * card-scoped limit reads the card's own stream, which records them).
 */

export const ACCOUNT_VELOCITY_USAGE_STREAM_CATEGORY = 'auth-rule-usage';
export const accountVelocityUsageStreamId = (authRuleToken: string, version: number): string => `${ACCOUNT_VELOCITY_USAGE_STREAM_CATEGORY}-${authRuleToken}-${version}`;

export interface AuthRuleUsageCounted {
  readonly type: 'AuthRuleUsageCounted';
  readonly data: {
    readonly authRuleToken: string;
    readonly version: number;
    readonly transactionToken: string;
    readonly cardToken: string;
    readonly amount: number;
    /** When the approval was decided (ISO 8601, UTC). */
    readonly at: string;
  };
}

export type AccountVelocityUsageEvent = AuthRuleUsageCounted;

export interface CountedApproval {
  readonly at: number;
  readonly amount: number;
}

/** The approvals counted within the longest period a limit can look back (a YEAR, 366 days), oldest first. */
export interface AccountVelocityUsage {
  readonly counted: readonly CountedApproval[];
}

const COUNTED_KEPT_MS = 366 * 86_400_000;

export function evolveAccountVelocityUsage(state: AccountVelocityUsage, event: AccountVelocityUsageEvent): AccountVelocityUsage {
  switch (event.type) {
    case 'AuthRuleUsageCounted': {
      const at = Date.parse(event.data.at);
      return { counted: [...state.counted.filter((kept) => kept.at > at - COUNTED_KEPT_MS), { at, amount: event.data.amount }] };
    }
    default:
      return assertNever(event.type);
  }
}

/** What the limit has counted in its period at `now`. */
export function accountUsageAt(parameters: VelocityLimitParameters, state: AccountVelocityUsage, now: Date): VelocityUsage {
  const { from, inclusive } = velocityPeriodStart(parameters.period, now);
  const counted = state.counted.filter((approval) => (inclusive ? approval.at >= from : approval.at > from));
  return { count: counted.length, amount: counted.reduce((sum, approval) => sum + approval.amount, 0) };
}

/** An approval to count: the version counts it when it passes the version's filters. */
export interface CountApproval {
  readonly type: 'CountApproval';
  readonly authRuleToken: string;
  readonly version: number;
  readonly parameters: VelocityLimitParameters;
  readonly transactionToken: string;
  readonly cardToken: string;
  readonly amount: number;
  readonly facts: VelocityFacts;
}

export function decideAccountVelocityUsage(command: CountApproval, _state: AccountVelocityUsage, { now }: { now: Date }): AccountVelocityUsageEvent[] {
  if (!passesFilters(command.parameters.filters, command.facts)) return [];
  const { authRuleToken, version, transactionToken, cardToken, amount } = command;
  return [{ type: 'AuthRuleUsageCounted', data: { authRuleToken, version, transactionToken, cardToken, amount, at: now.toISOString() } }];
}

export const accountVelocityUsageDecider: Decider<CountApproval, AccountVelocityUsageEvent, AccountVelocityUsage> = {
  initialState: () => ({ counted: [] }),
  decide: decideAccountVelocityUsage,
  evolve: evolveAccountVelocityUsage,
};

/** An ACCOUNT-scoped velocity limit version that runs on this card (its current version, its draft). */
export interface AccountVelocityLimit {
  readonly authRuleToken: string;
  readonly version: number;
  readonly parameters: VelocityLimitParameters;
}

export function accountVelocityLimits(rules: readonly ExistingAuthRule[], card: ScopedCard): AccountVelocityLimit[] {
  return rules
    .filter((rule) => rule.ruleType === 'VELOCITY_LIMIT' && rule.state === 'ACTIVE' && appliesTo(rule.scope, card))
    .flatMap((rule) => [rule.current, rule.draft].flatMap((version) => (version === null ? [] : [{ authRuleToken: rule.authRuleToken, version: version.version, parameters: version.parameters as VelocityLimitParameters }])))
    .filter((limit) => limit.parameters.scope === 'ACCOUNT');
}
