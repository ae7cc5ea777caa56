import type { CardEvent } from '../cards/card-state';
import type { Merchant } from '../transactions/transaction-values';
import { authRuleDefinition, operationsFor } from './auth-rule-definition';
import { evaluateAuthRules } from './auth-rule-evaluation';
import { CONDITIONAL_ATTRIBUTES, type AuthRuleCondition, type ConditionalAttribute, type ConditionalOperation } from './auth-rule-parameters';
import type { RuleAuthorization } from './rule-authorization';
import { ago, approvedAt, cardWith, DAY, declinedAt, HOUR, MINUTE, situation, toRun } from '../../test/auth-rule-fixtures';
import { coffeeShop, now } from '../../test/fixtures';

/**
 * Every conditional attribute, each with every operation that suits it: given the card's history,
 * when an authorization comes, the attribute reads one value, and each operation holds exactly as it
 * should for that value. A rule of one condition declines when the condition holds and approves when
 * it does not, so the specs run the whole evaluation, not the comparison alone.
 */

const paris: Merchant = { acceptorId: '900100200300', city: 'PARIS', country: 'FRA', descriptor: 'CAFE DE FLORE', mcc: '5814', state: '' };
const berlin: Merchant = { acceptorId: '400500600700', city: 'BERLIN', country: 'DEU', descriptor: 'KIOSK', mcc: '5994', state: '' };

interface Scenario {
  readonly attribute: ConditionalAttribute;
  readonly given: string;
  readonly history?: readonly CardEvent[];
  readonly authorization?: Partial<RuleAuthorization>;
  readonly card?: Parameters<typeof cardWith>[1];
  readonly accountCreated?: string | null;
  /** What the attribute reads in this scenario; null: it does not evaluate. */
  readonly reads: string | number | null;
}

const scenarios: readonly Scenario[] = [
  { attribute: 'MCC', given: "the merchant's category", reads: '5812' },
  { attribute: 'COUNTRY', given: "the merchant's country", authorization: { merchant: paris }, reads: 'FRA' },
  { attribute: 'CURRENCY', given: "the merchant's currency", authorization: { merchantCurrency: 'EUR' }, reads: 'EUR' },
  { attribute: 'MERCHANT_ID', given: "the card acceptor's id", reads: '174030075991' },
  { attribute: 'DESCRIPTOR', given: "the merchant's descriptor", reads: 'COFFEE SHOP' },
  { attribute: 'SERVICE_LOCATION_STATE', given: "the acceptor's state", reads: 'NY' },
  { attribute: 'PAN_ENTRY_MODE', given: 'how the PAN was entered', authorization: { panEntryMode: 'CONTACTLESS' }, reads: 'CONTACTLESS' },
  { attribute: 'CARD_STATE', given: 'a paused card', history: [{ type: 'CardPaused', data: { cardToken: '7ef7d65c-9023-4da3-b113-3b8583fd7951' } }], reads: 'PAUSED' },
  { attribute: 'PIN_ENTERED', given: 'a PIN presented', authorization: { pinEntered: true }, reads: 'TRUE' },
  { attribute: 'PIN_ENTERED', given: 'no PIN presented', reads: 'FALSE' },
  { attribute: 'PIN_STATUS', given: 'a card with a PIN', card: { pinHash: 'hash-of-1234' }, reads: 'OK' },
  { attribute: 'PIN_STATUS', given: 'a card without a PIN', reads: 'NOT_SET' },
  { attribute: 'WALLET_TYPE', given: 'a wallet token', authorization: { walletType: 'APPLE_PAY' }, reads: 'APPLE_PAY' },
  { attribute: 'IS_FIRST_TRANSACTION', given: 'only a decline before', history: [declinedAt(ago(HOUR))], reads: 'TRUE' },
  { attribute: 'IS_FIRST_TRANSACTION', given: 'an approval a year ago', history: [approvedAt(ago(400 * DAY))], reads: 'FALSE' },
  { attribute: 'IS_NEW_COUNTRY', given: 'approvals in the USA, a decline in France, now France', history: [approvedAt(ago(DAY)), declinedAt(ago(HOUR), paris)], authorization: { merchant: paris }, reads: 'TRUE' },
  { attribute: 'IS_NEW_COUNTRY', given: 'an approval in the USA, now the USA', history: [approvedAt(ago(DAY))], reads: 'FALSE' },
  { attribute: 'IS_NEW_MCC', given: 'approvals at 5812, now 5814', history: [approvedAt(ago(DAY))], authorization: { merchant: paris }, reads: 'TRUE' },
  { attribute: 'IS_NEW_MCC', given: 'an approval at 5812 long ago, now 5812', history: [approvedAt(ago(300 * DAY))], reads: 'FALSE' },
  { attribute: 'IS_NEW_MERCHANT', given: 'an approval elsewhere, now here', history: [approvedAt(ago(DAY), paris)], reads: 'TRUE' },
  { attribute: 'IS_NEW_MERCHANT', given: 'an approval here', history: [approvedAt(ago(DAY))], reads: 'FALSE' },
  { attribute: 'TRANSACTION_AMOUNT', given: '25.00', authorization: { amount: 2500 }, reads: 2500 },
  { attribute: 'CASH_AMOUNT', given: '20.00 cash', authorization: { cashAmount: 2000 }, reads: 2000 },
  {
    attribute: 'CARD_TRANSACTION_COUNT_15M',
    given: 'approvals 20, 10 and 1 minutes ago and a decline',
    history: [approvedAt(ago(20 * MINUTE)), approvedAt(ago(10 * MINUTE)), declinedAt(ago(5 * MINUTE)), approvedAt(ago(MINUTE))],
    reads: 2,
  },
  {
    attribute: 'CARD_TRANSACTION_COUNT_1H',
    given: 'approvals 2 hours, 50 and 10 minutes ago and a decline',
    history: [approvedAt(ago(2 * HOUR)), approvedAt(ago(50 * MINUTE)), declinedAt(ago(20 * MINUTE)), approvedAt(ago(10 * MINUTE))],
    reads: 2,
  },
  {
    attribute: 'CARD_TRANSACTION_COUNT_24H',
    given: 'approvals 25, 23 and 1 hours ago and a decline',
    history: [approvedAt(ago(25 * HOUR)), approvedAt(ago(23 * HOUR)), declinedAt(ago(2 * HOUR)), approvedAt(ago(HOUR))],
    reads: 2,
  },
  {
    attribute: 'CARD_DECLINE_COUNT_15M',
    given: 'declines 20, 10 and 1 minutes ago and an approval',
    history: [declinedAt(ago(20 * MINUTE)), declinedAt(ago(10 * MINUTE)), approvedAt(ago(5 * MINUTE)), declinedAt(ago(MINUTE))],
    reads: 2,
  },
  {
    attribute: 'CARD_DECLINE_COUNT_1H',
    given: 'declines 2 hours, 50 and 10 minutes ago and an approval',
    history: [declinedAt(ago(2 * HOUR)), declinedAt(ago(50 * MINUTE)), approvedAt(ago(20 * MINUTE)), declinedAt(ago(10 * MINUTE))],
    reads: 2,
  },
  {
    attribute: 'CARD_DECLINE_COUNT_24H',
    given: 'declines 25, 23 and 1 hours ago and an approval',
    history: [declinedAt(ago(25 * HOUR)), declinedAt(ago(23 * HOUR)), approvedAt(ago(2 * HOUR)), declinedAt(ago(HOUR))],
    reads: 2,
  },
  { attribute: 'CARD_AGE', given: 'a card created 15m30s ago', card: { created: ago(930_000) }, reads: 930 },
  { attribute: 'ACCOUNT_AGE', given: 'an account created a day ago', accountCreated: ago(DAY), reads: 86_400 },
  { attribute: 'ACCOUNT_AGE', given: 'an account of unknown age', accountCreated: null, reads: null },
  {
    attribute: 'CONSECUTIVE_DECLINES',
    given: 'a decline, an approval, then three declines',
    history: [declinedAt(ago(6 * DAY)), approvedAt(ago(5 * DAY)), declinedAt(ago(3 * DAY)), declinedAt(ago(2 * DAY)), declinedAt(ago(HOUR))],
    reads: 3,
  },
  { attribute: 'CONSECUTIVE_DECLINES', given: 'declines 31 days and 1 day ago, none approved since', history: [declinedAt(ago(31 * DAY)), declinedAt(ago(DAY))], reads: 1 },
  { attribute: 'TIME_SINCE_LAST_TRANSACTION', given: 'an approval 3.6 days ago, a decline since', history: [approvedAt(ago(3.6 * DAY)), declinedAt(ago(HOUR))], reads: 4 },
  { attribute: 'TIME_SINCE_LAST_TRANSACTION', given: 'an approval 3.4 days ago', history: [approvedAt(ago(3.4 * DAY))], reads: 3 },
  { attribute: 'TIME_SINCE_LAST_TRANSACTION', given: 'no approval yet', history: [declinedAt(ago(HOUR))], reads: null },
  {
    attribute: 'DISTINCT_COUNTRY_COUNT',
    given: 'approvals in the USA, France and the USA, a decline in Germany',
    history: [approvedAt(ago(3 * DAY)), approvedAt(ago(2 * DAY), paris), approvedAt(ago(DAY)), declinedAt(ago(HOUR), berlin)],
    reads: 2,
  },
];

/** What an operation should answer for a value that reads `reads`, with a value that equals it or differs from it. */
function expectations(reads: string | number | null): { operation: ConditionalOperation; value: AuthRuleCondition['value']; holds: boolean }[] {
  if (typeof reads === 'number') {
    return [
      { operation: 'IS_EQUAL_TO', value: reads, holds: true },
      { operation: 'IS_EQUAL_TO', value: reads + 1, holds: false },
      { operation: 'IS_NOT_EQUAL_TO', value: reads + 1, holds: true },
      { operation: 'IS_NOT_EQUAL_TO', value: reads, holds: false },
      { operation: 'IS_GREATER_THAN', value: reads - 1, holds: true },
      { operation: 'IS_GREATER_THAN', value: reads, holds: false },
      { operation: 'IS_GREATER_THAN_OR_EQUAL_TO', value: reads, holds: true },
      { operation: 'IS_GREATER_THAN_OR_EQUAL_TO', value: reads + 1, holds: false },
      { operation: 'IS_LESS_THAN', value: reads + 1, holds: true },
      { operation: 'IS_LESS_THAN', value: reads, holds: false },
      { operation: 'IS_LESS_THAN_OR_EQUAL_TO', value: reads, holds: true },
      { operation: 'IS_LESS_THAN_OR_EQUAL_TO', value: reads - 1, holds: false },
    ];
  }
  if (typeof reads === 'string') {
    const escaped = reads.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return [
      { operation: 'IS_ONE_OF', value: ['OTHER', reads], holds: true },
      { operation: 'IS_ONE_OF', value: ['OTHER'], holds: false },
      { operation: 'IS_NOT_ONE_OF', value: ['OTHER'], holds: true },
      { operation: 'IS_NOT_ONE_OF', value: [reads], holds: false },
      { operation: 'MATCHES', value: `^${escaped}$`, holds: true },
      { operation: 'MATCHES', value: '^OTHER$', holds: false },
      { operation: 'DOES_NOT_MATCH', value: '^OTHER$', holds: true },
      { operation: 'DOES_NOT_MATCH', value: `^${escaped}$`, holds: false },
      { operation: 'IS_EQUAL_TO', value: reads, holds: true },
      { operation: 'IS_EQUAL_TO', value: 'OTHER', holds: false },
      { operation: 'IS_NOT_EQUAL_TO', value: 'OTHER', holds: true },
      { operation: 'IS_NOT_EQUAL_TO', value: reads, holds: false },
    ];
  }
  return [];
}

const SCOPED = new Set(['IS_NEW_COUNTRY', 'IS_NEW_MCC', 'IS_FIRST_TRANSACTION', 'CONSECUTIVE_DECLINES', 'TIME_SINCE_LAST_TRANSACTION', 'DISTINCT_COUNTRY_COUNT']);

function decisionFor(scenario: Scenario, operation: ConditionalOperation, value: AuthRuleCondition['value']): string {
  const condition = { attribute: scenario.attribute, operation, value, ...(SCOPED.has(scenario.attribute) ? { parameters: { scope: 'CARD' } } : {}) };
  const definition = authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [condition] });
  const card = cardWith(scenario.history ?? [], scenario.card);
  const [result] = evaluateAuthRules([toRun(definition)], situation(card, scenario.authorization, now, scenario.accountCreated === undefined ? '2025-06-01T00:00:00.000Z' : scenario.accountCreated), new Map());
  return result.decision;
}

describe('conditional attributes', () => {
  it('covers every attribute the service evaluates', () => {
    expect(new Set(scenarios.map((scenario) => scenario.attribute))).toEqual(new Set(CONDITIONAL_ATTRIBUTES));
  });

  describe.each(scenarios)('$attribute, given $given', (scenario) => {
    const cases = expectations(scenario.reads);

    if (scenario.reads === null) {
      it.each(operationsFor(scenario.attribute))('does not evaluate: %s holds for no value', (operation) => {
        const value = scenario.attribute === 'ACCOUNT_AGE' || scenario.attribute === 'TIME_SINCE_LAST_TRANSACTION' ? 0 : 'X';
        expect(decisionFor(scenario, operation, value)).toBe('APPROVED');
      });
      return;
    }

    it('is tested with every operation that suits it', () => {
      expect(new Set(cases.map((expected) => expected.operation))).toEqual(new Set(operationsFor(scenario.attribute)));
    });

    it.each(cases)('$operation $value holds: $holds', ({ operation, value, holds }) => {
      expect(decisionFor(scenario, operation, value)).toBe(holds ? 'DECLINED' : 'APPROVED');
    });
  });

  it('reads a descriptor pattern anywhere in the text unless anchored', () => {
    const card = cardWith([]);
    const rule = (pattern: string) => toRun(authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'DESCRIPTOR', operation: 'MATCHES', value: pattern }] }));
    expect(evaluateAuthRules([rule('SHOP')], situation(card), new Map())[0].decision).toBe('DECLINED');
    expect(evaluateAuthRules([rule('^SHOP')], situation(card), new Map())[0].decision).toBe('APPROVED');
  });

  it('keeps the merchant a card is new to by its acceptor id, else its descriptor', () => {
    const noId = { ...coffeeShop, acceptorId: '' };
    const card = cardWith([approvedAt(ago(DAY), noId)]);
    const rule = toRun(authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'IS_NEW_MERCHANT', operation: 'IS_EQUAL_TO', value: 'TRUE' }] }));
    expect(evaluateAuthRules([rule], situation(card, { merchant: noId }), new Map())[0].decision).toBe('APPROVED');
    expect(evaluateAuthRules([rule], situation(card, { merchant: { ...noId, descriptor: 'OTHER SHOP' } }), new Map())[0].decision).toBe('DECLINED');
  });
});
