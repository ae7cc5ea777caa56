import { evaluateAuthRules, type AuthRuleResult, type RuleToRun } from '../auth-rules/auth-rule-evaluation';
import { ruleCardOf } from '../auth-rules/rule-authorization';
import type { VelocityUsage } from '../auth-rules/velocity-limit';
import type { AuthorizeSpend } from './card-authorization';
import type { CardActivity } from './card-activity';
import { posFactsOf } from './authorization-pos';
import type { IssuedCard } from './card-state';

/** The program's Auth Rules as an authorization's check: the rule versions that run on this card, and the account's creation (ACCOUNT_AGE). */
export interface AuthRulesCheck {
  readonly rules: readonly RuleToRun[];
  readonly accountCreated: string | null;
  /** The card's history as its stream stood when the card was read (card-activity.ts). */
  readonly activity: CardActivity;
  /** What each ACCOUNT-scoped velocity limit version that runs has counted (velocityUsageKey), from its own stream. */
  readonly accountUsage?: ReadonlyMap<string, VelocityUsage>;
}

/**
 * Every rule's result for this authorization, over the card as it stood before it. The POS facts are
 * the request's (authorization-pos.ts: UNKNOWN entry mode, no wallet, no cash when not given); a PIN
 * counts as entered when one was presented.
 */
export function authRuleResultsFor({ facts, checks }: AuthorizeSpend, card: IssuedCard, now: Date): AuthRuleResult[] {
  const check = checks.authRules;
  if (!check || check.rules.length === 0) return [];
  const { panEntryMode, walletType, cashAmount } = posFactsOf(facts.pos);
  const authorization = {
    amount: facts.amount,
    cashAmount,
    merchant: facts.merchant,
    merchantCurrency: facts.merchantCurrency,
    panEntryMode,
    pinEntered: checks.presentedPinHash !== null,
    walletType: facts.tokenInfo?.walletType ?? walletType,
  };
  return evaluateAuthRules(check.rules, { authorization, card: ruleCardOf(card, check.accountCreated, check.activity), now }, check.accountUsage ?? new Map());
}
