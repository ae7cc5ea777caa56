import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { type AuthRuleDefinition, type ConditionalAttribute } from '../auth-rules/auth-rule-parameters';
import { authRuleDefinition } from '../auth-rules/auth-rule-definition';
import { velocityUsageKey, type RuleToRun } from '../auth-rules/auth-rule-evaluation';
import { authorizationChecks } from '../card-spend/authorization-checks';
import { programDecider } from '../programs/program';
import { cardDecider } from './card';
import type { AuthorizationPos } from './authorization-pos';
import type { AuthorizationChecks, AuthorizeSpend } from './card-authorization';
import { NO_CARD_ACTIVITY } from './card-activity';
import type { CardEvent } from './card-state';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { cardToken, coffeeShop, fundingToken, now, programToken } from '../../test/fixtures';

/**
 * What the simulate endpoints now carry reaches the rules: the point of sale's facts (PAN entry mode,
 * wallet, cash) recorded on the authorization, the account's age from the program's creation, and an
 * ACCOUNT velocity limit's count from its own counter.
 */

const spec = deciderSpecification(cardDecider, { now });
const created = cardCreated({ spendLimit: 0 });

const declineWhen = (attribute: ConditionalAttribute, operation: string, value: string | number | string[]): AuthRuleDefinition =>
  authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute, operation, value }] });
const active = (definition: AuthRuleDefinition, version = 1): RuleToRun => ({ authRuleToken: 'rule-1', name: null, version, mode: 'ACTIVE', definition });
const withRules = (rules: RuleToRun[], extra: Partial<NonNullable<AuthorizationChecks['authRules']>> = {}) =>
  passingChecks({ authRules: { rules, accountCreated: null, activity: NO_CARD_ACTIVITY, ...extra } });

const facts = (pos?: AuthorizationPos) => ({
  cardToken,
  programToken,
  transactionToken: 'tx-now',
  eventToken: 'ev-now',
  amount: 5000,
  merchant: coffeeShop,
  merchantAmount: 5000,
  merchantCurrency: 'USD',
  authorizationCode: '123456',
  ...(pos ? { pos } : {}),
});
const authorize = (checks: AuthorizationChecks, pos?: AuthorizationPos): AuthorizeSpend => ({ type: 'AuthorizeSpend', facts: facts(pos), checks });
const outcome = (events: readonly CardEvent[]) => events.map((event) => (event.type === 'CardAuthorizationDeclined' ? event.data.reason : event.type));

describe('POS facts, account age and account usage in the rules', () => {
  it.each([
    ['PAN_ENTRY_MODE', 'IS_ONE_OF', ['KEY_ENTERED'], { panEntryMode: 'KEY_ENTERED' }, { panEntryMode: 'ICC' }],
    ['WALLET_TYPE', 'IS_ONE_OF', ['APPLE_PAY'], { walletType: 'APPLE_PAY' }, { walletType: 'GOOGLE_PAY' }],
    ['CASH_AMOUNT', 'IS_GREATER_THAN', 2000, { cashAmount: 2500 }, { cashAmount: 2000 }],
  ] as const)('given a rule on %s, when the POS facts match it is declined, when they do not it is approved', (attribute, operation, value, matching, other) => {
    const checks = withRules([active(declineWhen(attribute, operation, value as never))]);
    expect(outcome(cardDecider.decide(authorize(checks, matching), foldEvents(cardDecider, [created]), { now }))).toEqual(['MERCHANT_BLACKLIST']);
    expect(outcome(cardDecider.decide(authorize(checks, other), foldEvents(cardDecider, [created]), { now }))).toEqual(['CardAuthorizationApproved']);
  });

  it('given no POS facts, then the entry mode is UNKNOWN, the wallet NONE and the cash 0, and the facts are recorded without pos', () => {
    const checks = withRules([active(declineWhen('PAN_ENTRY_MODE', 'IS_ONE_OF', ['UNKNOWN']))]);
    spec
      .given([created])
      .when(authorize(withRules([active(declineWhen('WALLET_TYPE', 'IS_ONE_OF', ['APPLE_PAY']))])))
      .then([
        {
          type: 'CardAuthorizationApproved',
          data: {
            ...facts(),
            fundingToken,
            at: now.toISOString(),
            ruleResults: [{ authRuleToken: 'rule-1', name: null, version: 1, mode: 'ACTIVE', decision: 'APPROVED', result: null, detailedResult: 'APPROVED', explanation: null }],
          },
        },
      ]);
    expect(outcome(cardDecider.decide(authorize(checks), foldEvents(cardDecider, [created]), { now }))).toEqual(['MERCHANT_BLACKLIST']);
  });

  it('given POS facts, then they are recorded on the authorization', () => {
    const pos: AuthorizationPos = { panEntryMode: 'ECOMMERCE', walletType: 'NONE', cashAmount: 0 };
    const [event] = cardDecider.decide(authorize(withRules([]), pos), foldEvents(cardDecider, [created]), { now });
    expect(event).toMatchObject({ type: 'CardAuthorizationApproved', data: { pos } });
  });

  it("given a program created 10 days ago, when a rule declines accounts younger than 30 days, then ACCOUNT_AGE reads the program's creation", () => {
    const program = foldEvents(programDecider, [{ type: 'ProgramCreated', data: { programToken, name: 'p', created: new Date(now.getTime() - 10 * 86_400_000).toISOString() } }]);
    if (program.status !== 'active') throw new Error('expected a program');
    const card = foldEvents(cardDecider, [created]);
    if (card.status !== 'issued') throw new Error('expected an issued card');
    const youngAccounts = authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'ACCOUNT_AGE', operation: 'IS_LESS_THAN', value: 30 * 86_400 }] });
    const rule = { status: 'existing', authRuleToken: 'rule-1', programToken, name: null, ruleType: 'CONDITIONAL_ACTION', scope: { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] }, state: 'ACTIVE', current: { version: 1, parameters: youngAccounts.parameters, created: now.toISOString() }, draft: null, versions: [], created: now.toISOString() } as const;
    const checks = authorizationChecks(program, card, coffeeShop, { cvv: null, pinHash: null }, { globalLimitExceeded: null }, [rule as never]);
    expect(checks.authRules?.accountCreated).toBe(program.created);
    expect(outcome(cardDecider.decide(authorize(checks), card, { now }))).toEqual(['MERCHANT_BLACKLIST']);
  });

  it("given an ACCOUNT velocity limit whose counter is full, then the card's authorization is declined; with room, approved", () => {
    const limit = authRuleDefinition('VELOCITY_LIMIT', { scope: 'ACCOUNT', period: { type: 'DAY' }, limit_count: 3 });
    const usage = (count: number) => new Map([[velocityUsageKey('rule-1', 2), { count, amount: 0 }]]);
    const decide = (count: number) => outcome(cardDecider.decide(authorize(withRules([active(limit, 2)], { accountUsage: usage(count) })), foldEvents(cardDecider, [created]), { now }));
    expect(decide(3)).toEqual(['USER_TRANSACTION_LIMIT']);
    expect(decide(2)).toEqual(['CardAuthorizationApproved']);
  });
});
