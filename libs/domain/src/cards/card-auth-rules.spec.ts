import { deciderSpecification } from '@ledger/test-support';
import type { RuleToRun } from '../auth-rules/auth-rule-evaluation';
import { authRuleDefinition } from '../auth-rules/auth-rule-definition';
import type { Merchant } from '../transactions/transaction-values';
import { cardDecider } from './card';
import type { AuthorizationChecks, AuthorizeSpend } from './card-authorization';
import { type CardActivity, cardActivityAfter, NO_CARD_ACTIVITY } from './card-activity';
import type { CardEvent } from './card-state';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { ago, approvedAt, MINUTE } from '../../test/auth-rule-fixtures';
import { cardToken, coffeeShop, fundingToken, now, programToken } from '../../test/fixtures';

/**
 * The program's Auth Rules in the card's decision: an ACTIVE rule that does not approve declines
 * with its result, a SHADOW one only records what it would have done, and every result is recorded
 * on the authorization; an authorization no rule ran on is recorded exactly as before.
 */

const spec = deciderSpecification(cardDecider, { now });
const casino: Merchant = { acceptorId: '777000777000', city: 'LAS VEGAS', country: 'USA', descriptor: 'LUCKY CASINO', mcc: '7995', state: 'NV' };
const created = cardCreated({ spendLimit: 0 });

const blockGambling = authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] });
const rule = (mode: 'ACTIVE' | 'SHADOW', definition = blockGambling, authRuleToken = 'rule-1'): RuleToRun => ({ authRuleToken, name: 'No gambling', version: 1, mode, definition });
const withRules = (rules: RuleToRun[], overrides: Partial<AuthorizationChecks> = {}, activity: CardActivity = NO_CARD_ACTIVITY) =>
  passingChecks({ authRules: { rules, accountCreated: null, activity }, ...overrides });
/** The card's activity after these events, as the handler folds it beside the card. */
const activityOf = (events: readonly CardEvent[]): CardActivity => events.reduce(cardActivityAfter, NO_CARD_ACTIVITY);

const facts = (merchant: Merchant, amount = 500) => ({
  cardToken,
  programToken,
  transactionToken: 'tx-now',
  eventToken: 'ev-now',
  amount,
  merchant,
  merchantAmount: amount,
  merchantCurrency: 'USD',
  authorizationCode: '123456',
});
const authorize = (merchant: Merchant, checks: AuthorizationChecks, amount = 500): AuthorizeSpend => ({ type: 'AuthorizeSpend', facts: facts(merchant, amount), checks });
const recorded = (merchant: Merchant, amount = 500) => ({ ...facts(merchant, amount), fundingToken, at: now.toISOString() });

const declinedByRule = {
  authRuleToken: 'rule-1',
  name: 'No gambling',
  version: 1,
  decision: 'DECLINED',
  result: 'MERCHANT_BLACKLIST',
  detailedResult: 'AUTH_RULE',
  explanation: 'conditions met: DECLINE',
} as const;
const approvedByRule = { authRuleToken: 'rule-1', name: 'No gambling', version: 1, mode: 'ACTIVE', decision: 'APPROVED', result: null, detailedResult: 'APPROVED', explanation: null } as const;

describe('auth rules in the card decision', () => {
  it('declines with the ACTIVE rule\'s result, recording every result', () => {
    spec
      .given([created])
      .when(authorize(casino, withRules([rule('ACTIVE')])))
      .then([{ type: 'CardAuthorizationDeclined', data: { ...recorded(casino), ruleResults: [{ ...declinedByRule, mode: 'ACTIVE' }], reason: 'MERCHANT_BLACKLIST' } }]);
  });

  it('approves another merchant, recording that the rule approved', () => {
    spec
      .given([created])
      .when(authorize(coffeeShop, withRules([rule('ACTIVE')])))
      .then([{ type: 'CardAuthorizationApproved', data: { ...recorded(coffeeShop), ruleResults: [approvedByRule] } }]);
  });

  it('approves what a SHADOW rule would decline, recording what it would have done', () => {
    spec
      .given([created])
      .when(authorize(casino, withRules([rule('SHADOW')])))
      .then([{ type: 'CardAuthorizationApproved', data: { ...recorded(casino), ruleResults: [{ ...declinedByRule, mode: 'SHADOW' }] } }]);
  });

  it('records an authorization no rule ran on exactly as before: no ruleResults at all', () => {
    spec.given([created]).when(authorize(casino, withRules([]))).then([{ type: 'CardAuthorizationApproved', data: recorded(casino) }]);
  });

  it("comes after the card's own state: a paused card is declined CARD_PAUSED whatever the rules say", () => {
    const paused: CardEvent = { type: 'CardPaused', data: { cardToken } };
    spec
      .given([created, paused])
      .when(authorize(casino, withRules([rule('ACTIVE')])))
      .then([{ type: 'CardAuthorizationDeclined', data: { ...recorded(casino), ruleResults: [{ ...declinedByRule, mode: 'ACTIVE' }], reason: 'CARD_PAUSED' } }]);
  });

  it("comes before the card's spend limit", () => {
    spec
      .given([cardCreated({ spendLimit: 100 })])
      .when(authorize(casino, withRules([rule('ACTIVE')])))
      .then([{ type: 'CardAuthorizationDeclined', data: { ...recorded(casino), ruleResults: [{ ...declinedByRule, mode: 'ACTIVE' }], reason: 'MERCHANT_BLACKLIST' } }]);
  });

  it("limits velocity on the card's own stream: the third approval within the hour is declined", () => {
    const twoAnHour = authRuleDefinition('VELOCITY_LIMIT', { scope: 'CARD', period: { type: 'CUSTOM', duration: 3600 }, limit_count: 2 });
    const given = [created, approvedAt(ago(30 * MINUTE)), approvedAt(ago(10 * MINUTE))];
    const events = cardDecider.decide(authorize(coffeeShop, withRules([rule('ACTIVE', twoAnHour)], {}, activityOf(given))), given.reduce(cardDecider.evolve, cardDecider.initialState()), { now });
    expect(events).toEqual([expect.objectContaining({ type: 'CardAuthorizationDeclined', data: expect.objectContaining({ reason: 'USER_TRANSACTION_LIMIT' }) })]);
    const earlier = [created, approvedAt(ago(70 * MINUTE)), approvedAt(ago(10 * MINUTE))];
    const later = cardDecider.decide(authorize(coffeeShop, withRules([rule('ACTIVE', twoAnHour)], {}, activityOf(earlier))), earlier.reduce(cardDecider.evolve, cardDecider.initialState()), { now });
    expect(later.map((event) => event.type)).toEqual(['CardAuthorizationApproved']);
  });
});
