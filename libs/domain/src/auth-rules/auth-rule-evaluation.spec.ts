import { foldEvents } from '../core/decider';
import type { Merchant } from '../transactions/transaction-values';
import { authRuleDecider, type AuthRuleEvent, type ExistingAuthRule } from './auth-rule';
import { authRuleDefinition } from './auth-rule-definition';
import { authRuleDecline, evaluateAuthRules, rulesToRun, velocityUsageKey, type AuthRuleResult } from './auth-rule-evaluation';
import type { AuthRuleScope } from './auth-rule-scope';
import { ago, approvedAt, cardWith, DAY, HOUR, MINUTE, situation, toRun } from '../../test/auth-rule-fixtures';
import { cardToken, coffeeShop, now, programToken } from '../../test/fixtures';
import type { CardEvent } from '../cards/card-state';

const bakery: Merchant = { acceptorId: '299887766554', city: 'BOSTON', country: 'USA', descriptor: 'BAKERY', mcc: '5462', state: 'MA' };
const casino: Merchant = { acceptorId: '777000777000', city: 'LAS VEGAS', country: 'USA', descriptor: 'LUCKY CASINO', mcc: '7995', state: 'NV' };

const blockMcc = (mcc: string, action: 'DECLINE' | 'CHALLENGE' = 'DECLINE') =>
  authRuleDefinition('CONDITIONAL_ACTION', { action, conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: [mcc] }] });

/** One rule's result for an authorization on a card with this history. */
function resultOf(definition: ReturnType<typeof authRuleDefinition>, history: readonly CardEvent[], authorization: Parameters<typeof situation>[1] = {}): AuthRuleResult {
  return evaluateAuthRules([toRun(definition)], situation(cardWith(history), authorization), new Map())[0];
}

describe('auth rule evaluation', () => {
  describe('CONDITIONAL_ACTION', () => {
    it('declines when every condition holds, with the merchant-disallowed result', () => {
      expect(resultOf(blockMcc('7995'), [], { merchant: casino })).toMatchObject({ decision: 'DECLINED', result: 'MERCHANT_BLACKLIST', detailedResult: 'AUTH_RULE', mode: 'ACTIVE' });
    });

    it('approves when a condition does not hold', () => {
      expect(resultOf(blockMcc('7995'), [], { merchant: bakery })).toMatchObject({ decision: 'APPROVED', result: null, detailedResult: 'APPROVED' });
    });

    it('needs every condition: a large amount at a casino, not either alone', () => {
      const definition = authRuleDefinition('CONDITIONAL_ACTION', {
        action: 'DECLINE',
        conditions: [
          { attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] },
          { attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: 10_000 },
        ],
      });
      expect(resultOf(definition, [], { merchant: casino, amount: 10_001 }).decision).toBe('DECLINED');
      expect(resultOf(definition, [], { merchant: casino, amount: 10_000 }).decision).toBe('APPROVED');
      expect(resultOf(definition, [], { merchant: bakery, amount: 50_000 }).decision).toBe('APPROVED');
    });

    it('challenges: with no cardholder to ask, the challenge declines', () => {
      expect(resultOf(blockMcc('7995', 'CHALLENGE'), [], { merchant: casino })).toMatchObject({ decision: 'CHALLENGED', result: 'MERCHANT_BLACKLIST', detailedResult: 'CARDHOLDER_CHALLENGED' });
    });
  });

  describe('CONDITIONAL_BLOCK (deprecated)', () => {
    const definition = authRuleDefinition('CONDITIONAL_BLOCK', { conditions: [{ attribute: 'COUNTRY', operation: 'IS_NOT_ONE_OF', value: ['USA', 'CAN'] }] });

    it('declines as a CONDITIONAL_ACTION that declines', () => {
      expect(resultOf(definition, [], { merchant: { ...coffeeShop, country: 'FRA' } })).toMatchObject({ decision: 'DECLINED', result: 'MERCHANT_BLACKLIST' });
    });

    it('approves when the conditions do not hold', () => expect(resultOf(definition, []).decision).toBe('APPROVED'));
  });

  describe('MERCHANT_LOCK', () => {
    const definition = authRuleDefinition('MERCHANT_LOCK', { merchants: [{ merchant_id: coffeeShop.acceptorId, comment: 'the office coffee' }, { descriptor: 'BAKERY' }] });

    it('approves a merchant named by its id', () => expect(resultOf(definition, []).decision).toBe('APPROVED'));
    it('approves a merchant named by its descriptor', () => expect(resultOf(definition, [], { merchant: bakery }).decision).toBe('APPROVED'));

    it('declines any other merchant as an unauthorized one', () => {
      expect(resultOf(definition, [], { merchant: casino })).toMatchObject({ decision: 'DECLINED', result: 'UNAUTHORIZED_MERCHANT', detailedResult: 'AUTH_RULE' });
    });

    it('needs every field an entry gives', () => {
      const both = authRuleDefinition('MERCHANT_LOCK', { merchants: [{ merchant_id: coffeeShop.acceptorId, descriptor: 'COFFEE SHOP' }] });
      expect(resultOf(both, []).decision).toBe('APPROVED');
      expect(resultOf(both, [], { merchant: { ...coffeeShop, descriptor: 'COFFEE SHOP 2' } }).decision).toBe('DECLINED');
    });
  });

  describe('VELOCITY_LIMIT on the card', () => {
    const trailingHour = (limits: { limit_count?: number; limit_amount?: number }, filters?: object) =>
      authRuleDefinition('VELOCITY_LIMIT', { scope: 'CARD', period: { type: 'CUSTOM', duration: 3600 }, ...limits, ...(filters ? { filters } : {}) });

    it('declines the transaction past the count, as a user-set limit', () => {
      const history = [approvedAt(ago(30 * MINUTE)), approvedAt(ago(10 * MINUTE))];
      expect(resultOf(trailingHour({ limit_count: 2 }), history)).toMatchObject({ decision: 'DECLINED', result: 'USER_TRANSACTION_LIMIT', detailedResult: 'CARD_SPEND_LIMIT_EXCEEDED' });
      expect(resultOf(trailingHour({ limit_count: 3 }), history).decision).toBe('APPROVED');
    });

    it('declines the amount past the limit and approves up to it', () => {
      const history = [approvedAt(ago(30 * MINUTE), coffeeShop, 600)];
      expect(resultOf(trailingHour({ limit_amount: 1000 }), history, { amount: 401 }).decision).toBe('DECLINED');
      expect(resultOf(trailingHour({ limit_amount: 1000 }), history, { amount: 400 }).decision).toBe('APPROVED');
    });

    it('counts only the period: an approval an hour or more before is not in a trailing hour', () => {
      expect(resultOf(trailingHour({ limit_count: 1 }), [approvedAt(ago(HOUR + 1))]).decision).toBe('APPROVED');
      expect(resultOf(trailingHour({ limit_count: 1 }), [approvedAt(ago(HOUR))]).decision).toBe('APPROVED');
      expect(resultOf(trailingHour({ limit_count: 1 }), [approvedAt(ago(HOUR - 1))]).decision).toBe('DECLINED');
    });

    it('counts an approval at the amount it counts now, and not once voided', () => {
      const adjusted = (amount: number, cause: 'VOID' | 'CLEARING'): CardEvent => ({
        type: 'CardSpendAdjusted',
        data: { cardToken, transactionToken: 'tx-adjusted', transactionVersion: 2, cause, amount },
      });
      const approval = approvedAt(ago(MINUTE), coffeeShop, 900, 'tx-adjusted');
      expect(resultOf(trailingHour({ limit_amount: 1000 }), [approval, adjusted(300, 'CLEARING')], { amount: 700 }).decision).toBe('APPROVED');
      expect(resultOf(trailingHour({ limit_count: 1 }), [approval, adjusted(0, 'VOID')]).decision).toBe('APPROVED');
      expect(resultOf(trailingHour({ limit_count: 1 }), [approval]).decision).toBe('DECLINED');
    });

    it('counts and limits only what the filters include', () => {
      const onlyCasinos = trailingHour({ limit_count: 1 }, { include_mccs: ['7995'] });
      expect(resultOf(onlyCasinos, [approvedAt(ago(MINUTE))], { merchant: casino }).decision).toBe('APPROVED');
      expect(resultOf(onlyCasinos, [approvedAt(ago(MINUTE), casino)], { merchant: casino }).decision).toBe('DECLINED');
      expect(resultOf(onlyCasinos, [approvedAt(ago(MINUTE), casino)], { merchant: bakery }).decision).toBe('APPROVED');
      const notAbroad = trailingHour({ limit_count: 1 }, { exclude_countries: ['FRA'] });
      expect(resultOf(notAbroad, [approvedAt(ago(MINUTE), { ...coffeeShop, country: 'FRA' })]).decision).toBe('APPROVED');
      const contactless = trailingHour({ limit_count: 0 }, { include_pan_entry_modes: ['CONTACTLESS'] });
      expect(resultOf(contactless, [], { panEntryMode: 'CONTACTLESS' }).decision).toBe('DECLINED');
      expect(resultOf(contactless, [], { panEntryMode: 'ICC' }).decision).toBe('APPROVED');
    });

    it('counts a DAY from midnight Eastern: not the evening before', () => {
      const today = authRuleDefinition('VELOCITY_LIMIT', { scope: 'CARD', period: { type: 'DAY' }, limit_count: 1 });
      // now is 05:15:30 Eastern (10:15:30 UTC, EST): midnight was 5h15m30s ago.
      expect(resultOf(today, [approvedAt(ago(5 * HOUR + 16 * MINUTE))]).decision).toBe('APPROVED');
      expect(resultOf(today, [approvedAt(ago(5 * HOUR + 15 * MINUTE))]).decision).toBe('DECLINED');
    });
  });

  describe('VELOCITY_LIMIT on the account', () => {
    const accountDay = authRuleDefinition('VELOCITY_LIMIT', { scope: 'ACCOUNT', period: { type: 'DAY' }, limit_amount: 5000 });

    it("reads the account's usage as given, not the card's", () => {
      const card = cardWith([]);
      const usage = (amount: number) => new Map([[velocityUsageKey('rule-1', 1), { count: 3, amount }]]);
      expect(evaluateAuthRules([toRun(accountDay)], situation(card, { amount: 1000 }), usage(4001))[0].decision).toBe('DECLINED');
      expect(evaluateAuthRules([toRun(accountDay)], situation(card, { amount: 1000 }), usage(4000))[0].decision).toBe('APPROVED');
    });

    it('refuses to guess a usage it was not given', () => {
      expect(() => evaluateAuthRules([toRun(accountDay)], situation(cardWith([])), new Map())).toThrow('no usage given');
    });
  });

  describe('modes', () => {
    it('records what a SHADOW rule would have done and declines nothing', () => {
      const results = evaluateAuthRules([toRun(blockMcc('7995'), 'SHADOW')], situation(cardWith([]), { merchant: casino }), new Map());
      expect(results).toEqual([{ authRuleToken: 'rule-1', name: null, version: 1, mode: 'SHADOW', decision: 'DECLINED', result: 'MERCHANT_BLACKLIST', detailedResult: 'AUTH_RULE', explanation: 'conditions met: DECLINE' }]);
      expect(authRuleDecline(results)).toBeNull();
    });

    it('declines with the first ACTIVE rule that does not approve', () => {
      const rules = [toRun(blockMcc('7995'), 'SHADOW', 'shadow'), toRun(blockMcc('5462'), 'ACTIVE', 'bakeries'), toRun(blockMcc('7995'), 'ACTIVE', 'casinos'), toRun(blockMcc('7995'), 'ACTIVE', 'casinos-too')];
      const results = evaluateAuthRules(rules, situation(cardWith([]), { merchant: casino }), new Map());
      expect(results.map((result) => [result.authRuleToken, result.decision])).toEqual([
        ['shadow', 'DECLINED'],
        ['bakeries', 'APPROVED'],
        ['casinos', 'DECLINED'],
        ['casinos-too', 'DECLINED'],
      ]);
      expect(authRuleDecline(results)?.authRuleToken).toBe('casinos');
    });
  });

  describe('which rules run on a card', () => {
    const at = now.toISOString();
    const parameters = blockMcc('7995').parameters;
    const rule = (authRuleToken: string, scope: AuthRuleScope, later: readonly AuthRuleEvent[] = [], created = at): ExistingAuthRule => {
      const folded = foldEvents(authRuleDecider, [
        { type: 'AuthRuleCreated', data: { authRuleToken, programToken, name: authRuleToken, ruleType: 'CONDITIONAL_ACTION', scope, parameters, created } },
        ...later.map((event) => ({ ...event, data: { ...event.data, authRuleToken } }) as AuthRuleEvent),
      ]);
      if (folded.status !== 'existing') throw new Error('expected a rule');
      return folded;
    };
    const promoted: AuthRuleEvent = { type: 'AuthRulePromoted', data: { authRuleToken: '', version: 1, at } };
    const drafted: AuthRuleEvent = { type: 'AuthRuleDrafted', data: { authRuleToken: '', version: 2, parameters, at } };
    const deactivated: AuthRuleEvent = { type: 'AuthRuleDeactivated', data: { authRuleToken: '', at } };
    const card = { cardToken, accountToken: programToken };
    const program: AuthRuleScope = { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] };

    it('runs the current version ACTIVE and the draft SHADOW', () => {
      expect(rulesToRun([rule('r', program, [promoted, drafted])], card).map((run) => [run.version, run.mode])).toEqual([
        [1, 'ACTIVE'],
        [2, 'SHADOW'],
      ]);
    });

    it('runs a new rule only in shadow, until it is promoted', () => {
      expect(rulesToRun([rule('r', program)], card).map((run) => run.mode)).toEqual(['SHADOW']);
    });

    it('runs nothing of an INACTIVE rule', () => expect(rulesToRun([rule('r', program, [promoted, drafted, deactivated])], card)).toEqual([]));

    it('runs the rules whose scope takes the card', () => {
      const rules = [
        rule('program', program, [promoted]),
        rule('excluded', { level: 'PROGRAM', excludedCardTokens: [cardToken], excludedAccountTokens: [] }, [promoted]),
        rule('account-excluded', { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [programToken] }, [promoted]),
        rule('account', { level: 'ACCOUNT', accountTokens: [programToken] }, [promoted]),
        rule('this-card', { level: 'CARD', cardTokens: [cardToken] }, [promoted]),
        rule('other-card', { level: 'CARD', cardTokens: ['another-card'] }, [promoted]),
      ];
      expect(rulesToRun(rules, card).map((run) => run.authRuleToken)).toEqual(['account', 'program', 'this-card']);
    });

    it('runs rules in the order they were created', () => {
      const rules = [rule('b', program, [promoted], ago(DAY)), rule('a', program, [promoted]), rule('c', program, [promoted], ago(2 * DAY))];
      expect(rulesToRun(rules, card).map((run) => run.authRuleToken)).toEqual(['c', 'b', 'a']);
    });
  });
});
