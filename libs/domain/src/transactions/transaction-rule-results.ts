import type { AuthRuleDetailedResult, AuthRuleResult } from '../auth-rules/auth-rule-evaluation';
import type { TransactionEventEntry } from './transaction';
import { ACCOUNT_LIMIT_DETAILED_RESULTS, type AccountLimitDetailedResult } from '../programs/program-spend-limits';
import { DETAILED_RESULTS, type DetailedResult } from './transaction-event-facts';

/**
 * What a transaction's event shows of the Auth Rules that ran on its authorization, as Lithic shows
 * it: `rule_results` are the enforced (ACTIVE) rules that refused it (shadow results are the rules'
 * own record, not the transaction's); `detailed_results` is the deciding rule's detailed result when a
 * rule's refusal is what the event's result says, else the result's own; the card's
 * `auth_rule_tokens` are the enforced rules that ran. An event no rule ran on shows none of it.
 */
export function refusingRuleResults(entry: TransactionEventEntry): AuthRuleResult[] {
  return (entry.ruleResults ?? []).filter((result) => result.mode === 'ACTIVE' && result.decision !== 'APPROVED');
}

export function detailedResultOf(entry: TransactionEventEntry): DetailedResult | AuthRuleDetailedResult | AccountLimitDetailedResult {
  // Lithic's account limits share the spec's results with its platform limits; the decline says which.
  if (entry.accountLimit !== undefined) return ACCOUNT_LIMIT_DETAILED_RESULTS[entry.accountLimit];
  const deciding = refusingRuleResults(entry)[0];
  return deciding !== undefined && deciding.result === entry.result ? deciding.detailedResult : DETAILED_RESULTS[entry.result];
}

export function enforcedRuleTokens(entry: TransactionEventEntry | undefined): string[] {
  return (entry?.ruleResults ?? []).filter((result) => result.mode === 'ACTIVE').map((result) => result.authRuleToken);
}
