import type { AuthRuleResult } from '../auth-rules/auth-rule-evaluation';
import type { TransactionEventEntry } from './transaction';
import { detailedResultOf, enforcedRuleTokens, refusingRuleResults } from './transaction-rule-results';

const result = (authRuleToken: string, overrides: Partial<AuthRuleResult> = {}): AuthRuleResult => ({
  authRuleToken,
  name: null,
  version: 1,
  mode: 'ACTIVE',
  decision: 'DECLINED',
  result: 'MERCHANT_BLACKLIST',
  detailedResult: 'AUTH_RULE',
  explanation: 'conditions met: DECLINE',
  ...overrides,
});
const approval = (authRuleToken: string, mode: 'ACTIVE' | 'SHADOW' = 'ACTIVE') => result(authRuleToken, { mode, decision: 'APPROVED', result: null, detailedResult: 'APPROVED', explanation: null });
const entry = (overrides: Partial<TransactionEventEntry>): TransactionEventEntry => ({ token: 'ev', type: 'AUTHORIZATION', amount: 500, result: 'MERCHANT_BLACKLIST', created: '2026-11-22T10:15:30.000Z', ...overrides });

describe("a transaction event's auth rule facts", () => {
  it('shows none for an event no rule ran on, and the result\'s own detailed result', () => {
    expect(refusingRuleResults(entry({}))).toEqual([]);
    expect(enforcedRuleTokens(entry({}))).toEqual([]);
    expect(detailedResultOf(entry({}))).toBe('MERCHANT_NOT_PERMITTED');
  });

  it('shows the enforced rules that refused it, and the deciding one\'s detailed result', () => {
    const refused = entry({ ruleResults: [approval('a'), result('b', { mode: 'SHADOW' }), result('c'), result('d')] });
    expect(refusingRuleResults(refused).map((shown) => shown.authRuleToken)).toEqual(['c', 'd']);
    expect(detailedResultOf(refused)).toBe('AUTH_RULE');
    expect(enforcedRuleTokens(refused)).toEqual(['a', 'c', 'd']);
  });

  it("keeps the result's own detailed result when an earlier check decided it", () => {
    expect(detailedResultOf(entry({ result: 'CARD_PAUSED', ruleResults: [result('c')] }))).toBe('CARD_PAUSED');
  });

  it('shows no refusal when only a shadow rule would have refused', () => {
    const shadowed = entry({ result: 'APPROVED', ruleResults: [result('s', { mode: 'SHADOW' })] });
    expect(refusingRuleResults(shadowed)).toEqual([]);
    expect(detailedResultOf(shadowed)).toBe('APPROVED');
    expect(enforcedRuleTokens(shadowed)).toEqual([]);
  });
});
