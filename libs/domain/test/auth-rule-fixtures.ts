import { foldEvents } from '../src/core/decider';
import { cardDecider } from '../src/cards/card';
import type { CardEvent, IssuedCard } from '../src/cards/card-state';
import type { AuthRuleDefinition, PanEntryMode } from '../src/auth-rules/auth-rule-parameters';
import { type AuthorizationPos, type CardActivity, cardActivityAfter, NO_CARD_ACTIVITY } from '../src/cards/card-activity';
import type { AuthRuleMode, RuleToRun } from '../src/auth-rules/auth-rule-evaluation';
import { ruleCardOf, type RuleAuthorization, type RuleSituation } from '../src/auth-rules/rule-authorization';
import type { Merchant } from '../src/transactions/transaction-values';
import { cardCreated } from './card-fixtures';
import { cardToken, coffeeShop, fundingToken, now, programToken } from './fixtures';

/**
 * What the Auth Rule specs build their situations from: a card's history as the card's own events
 * (approvals and declines at given times), folded by the card decider as in production, and an
 * authorization with nothing unusual about it.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const ago = (ms: number, from: Date = now): string => new Date(from.getTime() - ms).toISOString();

let sequence = 0;
const facts = (at: string, merchant: Merchant, amount: number, transactionToken: string) => ({
  cardToken,
  programToken,
  transactionToken,
  eventToken: `event-${transactionToken}`,
  amount,
  merchant,
  merchantAmount: amount,
  merchantCurrency: 'USD',
  authorizationCode: '123456',
  fundingToken,
  at,
});

/** An approval; with a PAN entry mode, recorded as the authorization's POS facts (card-activity.ts). */
export function approvedAt(at: string, merchant: Merchant = coffeeShop, amount = 100, transactionToken = `tx-${++sequence}`, panEntryMode?: PanEntryMode): CardEvent {
  const pos: AuthorizationPos | undefined = panEntryMode === undefined ? undefined : { panEntryMode };
  const data = { ...facts(at, merchant, amount, transactionToken), ...(pos ? { pos } : {}) };
  return { type: 'CardAuthorizationApproved', data };
}

export function declinedAt(at: string, merchant: Merchant = coffeeShop, amount = 100): CardEvent {
  return { type: 'CardAuthorizationDeclined', data: { ...facts(at, merchant, amount, `tx-${++sequence}`), reason: 'USER_TRANSACTION_LIMIT' } };
}

/** A card with its activity: the card stream folded by the card decider and by the activity's own fold, as the handler reads them. */
export type CardWithActivity = IssuedCard & { readonly activity: CardActivity };

export function cardWith(history: readonly CardEvent[], created: Partial<Parameters<typeof cardCreated>[0]> = {}): CardWithActivity {
  const events = [cardCreated({ spendLimit: 0, ...created }), ...history];
  const card = foldEvents(cardDecider, events);
  if (card.status !== 'issued') throw new Error('expected an issued card');
  return { ...card, activity: events.reduce(cardActivityAfter, NO_CARD_ACTIVITY) };
}

export function authorization(overrides: Partial<RuleAuthorization> = {}): RuleAuthorization {
  return { amount: 100, cashAmount: 0, merchant: coffeeShop, merchantCurrency: 'USD', panEntryMode: 'ECOMMERCE', pinEntered: false, walletType: 'NONE', ...overrides };
}

export function situation(card: CardWithActivity, overrides: Partial<RuleAuthorization> = {}, at: Date = now, accountCreated: string | null = '2025-06-01T00:00:00.000Z'): RuleSituation {
  return { authorization: authorization(overrides), card: ruleCardOf(card, accountCreated, card.activity), now: at };
}

export function toRun(definition: AuthRuleDefinition, mode: AuthRuleMode = 'ACTIVE', authRuleToken = 'rule-1', version = 1): RuleToRun {
  return { authRuleToken, name: null, version, mode, definition };
}
