import fc from 'fast-check';
import type { CardEvent } from '../cards/card-state';
import type { Merchant } from '../transactions/transaction-values';
import { authRuleDefinition, operationsFor } from './auth-rule-definition';
import { authRuleDecline, evaluateAuthRules, type AuthRuleDecision, type RuleToRun } from './auth-rule-evaluation';
import { CONDITIONAL_ATTRIBUTES, SCOPED_ATTRIBUTES, type AuthRuleDefinition, type ConditionalAttribute, type PanEntryMode, type WalletType } from './auth-rule-parameters';
import type { RuleAuthorization } from './rule-authorization';
import { approvedAt, cardWith, declinedAt, situation } from '../../test/auth-rule-fixtures';

/**
 * Random rule sets against random sequences of authorizations on one card, decided one by one as
 * time goes by: at every authorization, each rule's decision from the domain (the card's folded
 * activity, the evaluation) equals the decision of a plain reference below, which keeps the whole
 * history as a list and reads every attribute straight from it. The authorization is then recorded
 * as the domain decided it (declined when an ACTIVE rule did not approve), so later rules see it.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const CARD_CREATED = Date.parse('2026-01-01T00:00:00.000Z');
const ACCOUNT_CREATED = Date.parse('2025-06-01T00:00:00.000Z');
const START = Date.parse('2026-03-01T12:00:00.000Z');

const MERCHANTS: readonly Merchant[] = [
  { acceptorId: '100', city: 'NEW YORK', country: 'USA', descriptor: 'COFFEE SHOP', mcc: '5812', state: 'NY' },
  { acceptorId: '200', city: 'BOSTON', country: 'USA', descriptor: 'BAKERY', mcc: '5462', state: 'MA' },
  { acceptorId: '300', city: 'PARIS', country: 'FRA', descriptor: 'CAFE', mcc: '5812', state: '' },
  { acceptorId: '400', city: 'LAS VEGAS', country: 'USA', descriptor: 'LUCKY CASINO', mcc: '7995', state: 'NV' },
];
const PAN_MODES: readonly PanEntryMode[] = ['ECOMMERCE', 'CONTACTLESS', 'ICC'];
const WALLETS: readonly WalletType[] = ['NONE', 'APPLE_PAY', 'GOOGLE_PAY'];
const CURRENCIES = ['USD', 'EUR'];

// ---------------------------------------------------------------- generated rules

/** Values worth comparing each attribute with: ones the generated authorizations produce, and others. */
const TEXT_VALUES: Partial<Record<ConditionalAttribute, readonly string[]>> = {
  MCC: ['5812', '5462', '7995', '0000'],
  COUNTRY: ['USA', 'FRA', 'DEU'],
  CURRENCY: CURRENCIES,
  MERCHANT_ID: ['100', '300', '999'],
  DESCRIPTOR: ['COFFEE SHOP', 'CAFE', 'NOWHERE'],
  SERVICE_LOCATION_STATE: ['NY', 'NV', ''],
  PAN_ENTRY_MODE: PAN_MODES,
  CARD_STATE: ['OPEN', 'PAUSED'],
  PIN_STATUS: ['OK', 'NOT_SET'],
  WALLET_TYPE: WALLETS,
};
const PATTERNS = ['^5', 'CAFE|SHOP', 'A$', 'US', '^$'];
const NUMBER_VALUES: Partial<Record<ConditionalAttribute, fc.Arbitrary<number>>> = {
  TRANSACTION_AMOUNT: fc.integer({ min: 0, max: 2000 }),
  CASH_AMOUNT: fc.integer({ min: 0, max: 500 }),
  CARD_AGE: fc.integer({ min: 0, max: 400 }).map((days) => days * 86_400),
  ACCOUNT_AGE: fc.integer({ min: 200, max: 700 }).map((days) => days * 86_400),
  TIME_SINCE_LAST_TRANSACTION: fc.integer({ min: 0, max: 5 }),
};

const valueFor = (attribute: ConditionalAttribute, operation: string): fc.Arbitrary<unknown> => {
  if (operationsFor(attribute).includes('IS_GREATER_THAN')) return NUMBER_VALUES[attribute] ?? fc.integer({ min: 0, max: 5 });
  const texts = TEXT_VALUES[attribute] ?? ['TRUE', 'FALSE'];
  if (operation === 'IS_ONE_OF' || operation === 'IS_NOT_ONE_OF') return fc.uniqueArray(fc.constantFrom(...texts), { minLength: 1, maxLength: 2 });
  if (operation === 'MATCHES' || operation === 'DOES_NOT_MATCH') return fc.constantFrom(...PATTERNS, ...texts.map((text) => `^${text}$`));
  return fc.constantFrom(...texts);
};

/** The history attributes are drawn twice as often: they are where a fold can go wrong. */
const HISTORY_ATTRIBUTES = CONDITIONAL_ATTRIBUTES.filter((attribute) => /COUNT|CONSECUTIVE|TIME_SINCE|IS_NEW|IS_FIRST/.test(attribute));
const condition = fc.constantFrom(...CONDITIONAL_ATTRIBUTES, ...HISTORY_ATTRIBUTES).chain((attribute) =>
  fc.constantFrom(...operationsFor(attribute)).chain((operation) =>
    valueFor(attribute, operation).map((value) => ({ attribute, operation, value, ...(SCOPED_ATTRIBUTES.includes(attribute) ? { parameters: { scope: 'CARD' } } : {}) })),
  ),
);

const conditional = fc.record({
  type: fc.constantFrom('CONDITIONAL_ACTION', 'CONDITIONAL_BLOCK'),
  action: fc.constantFrom('DECLINE', 'CHALLENGE'),
  conditions: fc.array(condition, { minLength: 1, maxLength: 2 }),
});

const velocity = fc
  .record({
    duration: fc.constantFrom(60, 3600, 86_400, 7 * 86_400),
    limit_count: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
    limit_amount: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: null }),
    filters: fc.option(
      fc.record({ include_mccs: fc.constant(['5812']), exclude_countries: fc.constant(['FRA']), include_pan_entry_modes: fc.constant(['CONTACTLESS', 'ICC']) }, { requiredKeys: [] }),
      { nil: undefined },
    ),
  })
  .filter((limits) => limits.limit_count !== null || limits.limit_amount !== null);

const merchantLock = fc.uniqueArray(fc.constantFrom(...MERCHANTS), { minLength: 1, maxLength: 2 }).chain((allowed) =>
  fc.tuple(...allowed.map((merchant) => fc.constantFrom({ merchant_id: merchant.acceptorId }, { descriptor: merchant.descriptor }, { merchant_id: merchant.acceptorId, descriptor: merchant.descriptor }))),
);

const definition: fc.Arbitrary<AuthRuleDefinition> = fc.oneof(
  conditional.map(({ type, action, conditions }) => authRuleDefinition(type, type === 'CONDITIONAL_ACTION' ? { action, conditions } : { conditions })),
  velocity.map(({ duration, filters, ...limits }) => authRuleDefinition('VELOCITY_LIMIT', { scope: 'CARD', period: { type: 'CUSTOM', duration }, ...limits, ...(filters ? { filters } : {}) })),
  merchantLock.map((merchants) => authRuleDefinition('MERCHANT_LOCK', { merchants })),
);

const rules: fc.Arbitrary<RuleToRun[]> = fc
  .array(fc.record({ definition, mode: fc.constantFrom('ACTIVE' as const, 'SHADOW' as const) }), { minLength: 1, maxLength: 4 })
  .map((generated) => generated.map(({ definition, mode }, index) => ({ authRuleToken: `rule-${index}`, name: null, version: 1, mode, definition })));

// ---------------------------------------------------------------- generated authorizations

interface Attempt {
  readonly laterBy: number;
  readonly authorization: RuleAuthorization;
  /** Declined by one of the card's other checks (its spend limit, its state): a decline the rules did not make, which they count all the same. */
  readonly declinedByOtherChecks: boolean;
}

const attempt: fc.Arbitrary<Attempt> = fc.record({
  declinedByOtherChecks: fc.boolean().chain((maybe) => (maybe ? fc.boolean() : fc.constant(false))),
  laterBy: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 20 * MINUTE }) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 30 * HOUR }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 20 * DAY }) }),
  authorization: fc.record({
    amount: fc.integer({ min: 1, max: 2000 }),
    cashAmount: fc.integer({ min: 0, max: 500 }),
    merchant: fc.constantFrom(...MERCHANTS),
    merchantCurrency: fc.constantFrom(...CURRENCIES),
    panEntryMode: fc.constantFrom(...PAN_MODES),
    pinEntered: fc.boolean(),
    walletType: fc.constantFrom(...WALLETS),
  }),
});

// ---------------------------------------------------------------- the reference

interface Past {
  readonly at: number;
  readonly approved: boolean;
  readonly authorization: RuleAuthorization;
}

/** Every attribute read straight from the whole history; null where Lithic's attribute does not evaluate. */
function referenceAttribute(attribute: ConditionalAttribute, history: readonly Past[], authorization: RuleAuthorization, now: number): string | number | null {
  const approvals = history.filter((past) => past.approved);
  const declines = history.filter((past) => !past.approved);
  const within = (pasts: readonly Past[], window: number) => pasts.filter((past) => past.at > now - window).length;
  const yes = (value: boolean) => (value ? 'TRUE' : 'FALSE');
  const last = approvals[approvals.length - 1];
  switch (attribute) {
    case 'MCC':
      return authorization.merchant.mcc;
    case 'COUNTRY':
      return authorization.merchant.country;
    case 'CURRENCY':
      return authorization.merchantCurrency;
    case 'MERCHANT_ID':
      return authorization.merchant.acceptorId;
    case 'DESCRIPTOR':
      return authorization.merchant.descriptor;
    case 'SERVICE_LOCATION_STATE':
      return authorization.merchant.state;
    case 'PAN_ENTRY_MODE':
      return authorization.panEntryMode;
    case 'CARD_STATE':
      return 'OPEN';
    case 'PIN_ENTERED':
      return yes(authorization.pinEntered);
    case 'PIN_STATUS':
      return 'NOT_SET';
    case 'WALLET_TYPE':
      return authorization.walletType;
    case 'IS_FIRST_TRANSACTION':
      return yes(approvals.length === 0);
    case 'IS_NEW_COUNTRY':
      return yes(!approvals.some((past) => past.authorization.merchant.country === authorization.merchant.country));
    case 'IS_NEW_MCC':
      return yes(!approvals.some((past) => past.authorization.merchant.mcc === authorization.merchant.mcc));
    case 'IS_NEW_MERCHANT':
      return yes(!approvals.some((past) => past.authorization.merchant.acceptorId === authorization.merchant.acceptorId));
    case 'TRANSACTION_AMOUNT':
      return authorization.amount;
    case 'CASH_AMOUNT':
      return authorization.cashAmount;
    case 'CARD_TRANSACTION_COUNT_15M':
      return within(approvals, 15 * MINUTE);
    case 'CARD_TRANSACTION_COUNT_1H':
      return within(approvals, HOUR);
    case 'CARD_TRANSACTION_COUNT_24H':
      return within(approvals, DAY);
    case 'CARD_DECLINE_COUNT_15M':
      return within(declines, 15 * MINUTE);
    case 'CARD_DECLINE_COUNT_1H':
      return within(declines, HOUR);
    case 'CARD_DECLINE_COUNT_24H':
      return within(declines, DAY);
    case 'CARD_AGE':
      return Math.floor((now - CARD_CREATED) / SECOND);
    case 'ACCOUNT_AGE':
      return Math.floor((now - ACCOUNT_CREATED) / SECOND);
    case 'CONSECUTIVE_DECLINES': {
      const sinceApproval = last === undefined ? history : history.slice(history.indexOf(last) + 1);
      return within(sinceApproval, 30 * DAY);
    }
    case 'TIME_SINCE_LAST_TRANSACTION':
      return last === undefined ? null : Math.round((now - last.at) / DAY);
    case 'DISTINCT_COUNTRY_COUNT':
      return new Set(approvals.map((past) => past.authorization.merchant.country)).size;
  }
}

function referenceHolds(operation: string, actual: string | number | null, expected: unknown): boolean {
  if (actual === null) return false;
  if (operation === 'IS_ONE_OF') return (expected as string[]).includes(String(actual));
  if (operation === 'IS_NOT_ONE_OF') return !(expected as string[]).includes(String(actual));
  if (operation === 'MATCHES') return new RegExp(expected as string).test(String(actual));
  if (operation === 'DOES_NOT_MATCH') return !new RegExp(expected as string).test(String(actual));
  if (operation === 'IS_EQUAL_TO') return actual === expected;
  if (operation === 'IS_NOT_EQUAL_TO') return actual !== expected;
  const [a, b] = [actual as number, expected as number];
  if (operation === 'IS_GREATER_THAN') return a > b;
  if (operation === 'IS_GREATER_THAN_OR_EQUAL_TO') return a >= b;
  if (operation === 'IS_LESS_THAN') return a < b;
  if (operation === 'IS_LESS_THAN_OR_EQUAL_TO') return a <= b;
  throw new Error(`the reference has no ${operation}`);
}

function referenceDecision(rule: AuthRuleDefinition, history: readonly Past[], authorization: RuleAuthorization, now: number): AuthRuleDecision {
  switch (rule.type) {
    case 'CONDITIONAL_ACTION':
    case 'CONDITIONAL_BLOCK': {
      const met = rule.parameters.conditions.every((c) => referenceHolds(c.operation, referenceAttribute(c.attribute, history, authorization, now), c.value));
      if (!met) return 'APPROVED';
      return rule.type === 'CONDITIONAL_ACTION' && rule.parameters.action === 'CHALLENGE' ? 'CHALLENGED' : 'DECLINED';
    }
    case 'MERCHANT_LOCK': {
      const allowed = rule.parameters.merchants.some(
        (lock) => (lock.merchant_id === undefined || lock.merchant_id === authorization.merchant.acceptorId) && (lock.descriptor === undefined || lock.descriptor === authorization.merchant.descriptor),
      );
      return allowed ? 'APPROVED' : 'DECLINED';
    }
    case 'VELOCITY_LIMIT': {
      const { period, filters, limit_count, limit_amount } = rule.parameters;
      if (period.type !== 'CUSTOM') throw new Error('the reference counts trailing periods only');
      const counts = (a: RuleAuthorization) =>
        (!filters?.include_mccs || filters.include_mccs.includes(a.merchant.mcc)) &&
        (!filters?.exclude_countries || !filters.exclude_countries.includes(a.merchant.country)) &&
        (!filters?.include_pan_entry_modes || filters.include_pan_entry_modes.includes(a.panEntryMode));
      if (!counts(authorization)) return 'APPROVED';
      const counted = history.filter((past) => past.approved && past.at > now - period.duration * SECOND && counts(past.authorization));
      const spent = counted.reduce((sum, past) => sum + past.authorization.amount, 0);
      const over = (limit_count != null && counted.length + 1 > limit_count) || (limit_amount != null && spent + authorization.amount > limit_amount);
      return over ? 'DECLINED' : 'APPROVED';
    }
  }
}

// ---------------------------------------------------------------- the property

describe('auth rule evaluation, against a plain reference', () => {
  it('decides every rule as the reference does, at every authorization of any sequence', () => {
    fc.assert(
      fc.property(rules, fc.array(attempt, { minLength: 1, maxLength: 30, size: 'max' }), (ruleSet, attempts) => {
        const events: CardEvent[] = [];
        const history: Past[] = [];
        let now = START;
        for (const { laterBy, authorization, declinedByOtherChecks } of attempts) {
          now += laterBy;
          const at = new Date(now);
          const card = cardWith(events, { created: new Date(CARD_CREATED).toISOString() });
          const results = evaluateAuthRules(ruleSet, situation(card, authorization, at, new Date(ACCOUNT_CREATED).toISOString()), new Map());
          expect(results.map((result) => result.decision)).toEqual(ruleSet.map((rule) => referenceDecision(rule.definition, history, authorization, now)));

          const declinedByRule = authRuleDecline(results) !== null;
          expect(declinedByRule).toBe(ruleSet.some((rule, index) => rule.mode === 'ACTIVE' && results[index].decision !== 'APPROVED'));
          const declined = declinedByRule || declinedByOtherChecks;
          events.push(declined ? declinedAt(at.toISOString(), authorization.merchant, authorization.amount) : approvedAt(at.toISOString(), authorization.merchant, authorization.amount, undefined, authorization.panEntryMode));
          history.push({ at: now, approved: !declined, authorization });
        }
      }),
      { numRuns: 600 },
    );
  });
});
