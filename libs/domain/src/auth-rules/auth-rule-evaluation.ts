import type { DeclineReason, Merchant } from '../transactions/transaction-values';
import type { ExistingAuthRule } from './auth-rule';
import type { AuthRuleCondition, AuthRuleDefinition, AuthRuleParameters, AuthRuleType, MerchantLockMerchant } from './auth-rule-parameters';
import { appliesTo, type ScopedCard } from './auth-rule-scope';
import { conditionHolds } from './condition-check';
import { attributeValue, type RuleSituation } from './rule-authorization';
import { cardVelocityUsage, exceedsVelocityLimit, type VelocityUsage } from './velocity-limit';

/**
 * The Auth Rules' answer to one authorization. Each rule that applies to the card runs: its current
 * version in ACTIVE mode (enforced), its draft in SHADOW mode (recorded, never enforced). A rule that
 * is INACTIVE runs neither. The results are in a fixed order (the rule's creation, then its token,
 * current before draft), and the first ACTIVE result that is not an approval is the decline.
 */

export type AuthRuleMode = 'ACTIVE' | 'SHADOW';
export type AuthRuleDecision = 'APPROVED' | 'DECLINED' | 'CHALLENGED';

/** Lithic's detailed results an Auth Rule gives (transactions' `detailed_results`, `rule_results[].result`). */
export const AUTH_RULE_DETAILED_RESULTS = ['APPROVED', 'AUTH_RULE', 'CARD_SPEND_LIMIT_EXCEEDED', 'CARDHOLDER_CHALLENGED'] as const;
export type AuthRuleDetailedResult = (typeof AUTH_RULE_DETAILED_RESULTS)[number];

export interface RuleToRun {
  readonly authRuleToken: string;
  readonly name: string | null;
  readonly version: number;
  readonly mode: AuthRuleMode;
  readonly definition: AuthRuleDefinition;
}

export interface AuthRuleResult {
  readonly authRuleToken: string;
  readonly name: string | null;
  readonly version: number;
  readonly mode: AuthRuleMode;
  readonly decision: AuthRuleDecision;
  /** The result the authorization gets (or would get, in SHADOW) from this rule; null when it approves. */
  readonly result: DeclineReason | null;
  readonly detailedResult: AuthRuleDetailedResult;
  readonly explanation: string | null;
}

/** The rules that run on an authorization on this card, in evaluation order. */
export function rulesToRun(rules: readonly ExistingAuthRule[], card: ScopedCard): RuleToRun[] {
  return [...rules]
    .filter((rule) => rule.state === 'ACTIVE' && appliesTo(rule.scope, card))
    .sort((a, b) => (a.created === b.created ? compare(a.authRuleToken, b.authRuleToken) : compare(a.created, b.created)))
    .flatMap((rule) => {
      const run: RuleToRun[] = [];
      if (rule.current) run.push(ruleVersion(rule, rule.current.version, rule.current.parameters, 'ACTIVE'));
      if (rule.draft) run.push(ruleVersion(rule, rule.draft.version, rule.draft.parameters, 'SHADOW'));
      return run;
    });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function ruleVersion(rule: ExistingAuthRule, version: number, parameters: AuthRuleParameters, mode: AuthRuleMode): RuleToRun {
  return { authRuleToken: rule.authRuleToken, name: rule.name, version, mode, definition: definitionOf(rule.ruleType, parameters) };
}

/** The aggregate only ever records parameters checked for the rule's own type (auth-rule-definition.ts). */
export function definitionOf(type: AuthRuleType, parameters: AuthRuleParameters): AuthRuleDefinition {
  return { type, parameters } as AuthRuleDefinition;
}

/** Key of an ACCOUNT-scoped velocity limit's usage: a version's own period and filters decide what it counts. */
export const velocityUsageKey = (authRuleToken: string, version: number): string => `${authRuleToken}@${version}`;

/**
 * Every rule's result. `accountUsage` holds what each ACCOUNT-scoped velocity limit has counted so far
 * (velocityUsageKey): the card's own history cannot answer for the program's other cards.
 */
export function evaluateAuthRules(rules: readonly RuleToRun[], situation: RuleSituation, accountUsage: ReadonlyMap<string, VelocityUsage>): AuthRuleResult[] {
  return rules.map((rule) => resultOf(rule, verdict(rule, situation, accountUsage)));
}

/** The first ACTIVE result that does not approve: what declines the authorization. */
export function authRuleDecline(results: readonly AuthRuleResult[]): AuthRuleResult | null {
  return results.find((result) => result.mode === 'ACTIVE' && result.decision !== 'APPROVED') ?? null;
}

interface Verdict {
  readonly decision: AuthRuleDecision;
  readonly result: DeclineReason | null;
  readonly detailedResult: AuthRuleDetailedResult;
  readonly explanation: string | null;
}

const APPROVE: Verdict = { decision: 'APPROVED', result: null, detailedResult: 'APPROVED', explanation: null };

/**
 * Each rule type declines with the spec's result nearest its meaning (docs/decisions.md, Auth rules):
 * a conditional rule disallows the merchant or the transaction on the program (MERCHANT_BLACKLIST), a
 * merchant lock is a card used elsewhere than allowed (UNAUTHORIZED_MERCHANT), a velocity limit is a
 * user-set spend limit (USER_TRANSACTION_LIMIT).
 */
function verdict(rule: RuleToRun, situation: RuleSituation, accountUsage: ReadonlyMap<string, VelocityUsage>): Verdict {
  const { definition } = rule;
  switch (definition.type) {
    case 'CONDITIONAL_BLOCK':
      return allHold(definition.parameters.conditions, situation) ? { decision: 'DECLINED', result: 'MERCHANT_BLACKLIST', detailedResult: 'AUTH_RULE', explanation: 'conditions met: DECLINE' } : APPROVE;
    case 'CONDITIONAL_ACTION': {
      if (!allHold(definition.parameters.conditions, situation)) return APPROVE;
      return definition.parameters.action === 'DECLINE'
        ? { decision: 'DECLINED', result: 'MERCHANT_BLACKLIST', detailedResult: 'AUTH_RULE', explanation: 'conditions met: DECLINE' }
        : { decision: 'CHALLENGED', result: 'MERCHANT_BLACKLIST', detailedResult: 'CARDHOLDER_CHALLENGED', explanation: 'conditions met: CHALLENGE (no cardholder to challenge here)' };
    }
    case 'MERCHANT_LOCK':
      return definition.parameters.merchants.some((merchant) => lockAllows(merchant, situation.authorization.merchant))
        ? APPROVE
        : { decision: 'DECLINED', result: 'UNAUTHORIZED_MERCHANT', detailedResult: 'AUTH_RULE', explanation: 'merchant is not one the rule allows' };
    case 'VELOCITY_LIMIT': {
      const { parameters } = definition;
      const { authorization, card, now } = situation;
      const usage = parameters.scope === 'CARD' ? cardVelocityUsage(parameters, card.activity, now) : accountUsage.get(velocityUsageKey(rule.authRuleToken, rule.version));
      if (usage === undefined) throw new Error(`no usage given for the ACCOUNT velocity limit ${rule.authRuleToken} version ${rule.version}`);
      const facts = { mcc: authorization.merchant.mcc, country: authorization.merchant.country, panEntryMode: authorization.panEntryMode };
      return exceedsVelocityLimit(parameters, usage, authorization.amount, facts)
        ? { decision: 'DECLINED', result: 'USER_TRANSACTION_LIMIT', detailedResult: 'CARD_SPEND_LIMIT_EXCEEDED', explanation: 'velocity limit exceeded' }
        : APPROVE;
    }
  }
}

function allHold(conditions: readonly AuthRuleCondition[], situation: RuleSituation): boolean {
  return conditions.every((condition) => conditionHolds(condition, attributeValue(condition.attribute, situation)));
}

/** A lock entry allows a merchant when every field it gives matches: the acceptor id exactly, the descriptor exactly. */
function lockAllows(lock: MerchantLockMerchant, merchant: Merchant): boolean {
  if (lock.merchant_id !== undefined && lock.merchant_id !== merchant.acceptorId) return false;
  if (lock.descriptor !== undefined && lock.descriptor !== merchant.descriptor) return false;
  return lock.merchant_id !== undefined || lock.descriptor !== undefined;
}

function resultOf(rule: RuleToRun, verdict: Verdict): AuthRuleResult {
  return { authRuleToken: rule.authRuleToken, name: rule.name, version: rule.version, mode: rule.mode, ...verdict };
}
