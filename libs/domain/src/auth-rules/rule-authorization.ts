import type { CardActivity } from '../cards/card-activity';
import type { IssuedCard } from '../cards/card-state';
import type { CardState } from '../cards/card-values';
import { merchantKey } from '../cards/merchant-lock';
import type { Merchant } from '../transactions/transaction-values';
import type { ConditionalAttribute, PanEntryMode, WalletType } from './auth-rule-parameters';

/**
 * What an Auth Rule sees of an authorization: the authorization's own facts, the card it is on (with
 * the card's history) and the moment it is decided. Gathered by the caller, read by the rules; nothing
 * here reads a clock or a store.
 */
export interface RuleAuthorization {
  readonly amount: number;
  readonly cashAmount: number;
  readonly merchant: Merchant;
  readonly merchantCurrency: string;
  readonly panEntryMode: PanEntryMode;
  readonly pinEntered: boolean;
  readonly walletType: WalletType;
}

export interface RuleCard {
  readonly cardToken: string;
  /** The program: an account here is the program itself. */
  readonly accountToken: string;
  readonly state: CardState;
  readonly pinSet: boolean;
  readonly created: string;
  /** When the account (the program) was created; null when unknown, and ACCOUNT_AGE then does not evaluate. */
  readonly accountCreated: string | null;
  readonly activity: CardActivity;
}

/** The card as the rules see it, from its folded state; the account's creation comes from the program. */
export function ruleCardOf(card: IssuedCard, accountCreated: string | null, activity: CardActivity): RuleCard {
  return {
    cardToken: card.cardToken,
    accountToken: card.programToken,
    state: card.state,
    pinSet: card.pinHash !== null,
    created: card.created,
    accountCreated,
    activity,
  };
}

export interface RuleSituation {
  readonly authorization: RuleAuthorization;
  readonly card: RuleCard;
  readonly now: Date;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const CONSECUTIVE_DECLINES_WINDOW_MS = 30 * DAY_MS;

/**
 * An attribute's value for this authorization, as Lithic defines it; null when there is nothing to
 * compare (no approved transaction before, no account creation time), and a condition on it then
 * does not hold. Flags are Lithic's TRUE and FALSE. The windows count what happened before this
 * authorization within the window's length up to now.
 */
export function attributeValue(attribute: ConditionalAttribute, { authorization, card, now }: RuleSituation): string | number | null {
  const at = now.getTime();
  const { activity } = card;
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
      return card.state;
    case 'PIN_ENTERED':
      return flag(authorization.pinEntered);
    case 'PIN_STATUS':
      return card.pinSet ? 'OK' : 'NOT_SET';
    case 'WALLET_TYPE':
      return authorization.walletType;
    case 'IS_FIRST_TRANSACTION':
      return flag(activity.lastApprovedAt === null);
    case 'IS_NEW_COUNTRY':
      return flag(!activity.countries.includes(authorization.merchant.country));
    case 'IS_NEW_MCC':
      return flag(!activity.mccs.includes(authorization.merchant.mcc));
    case 'IS_NEW_MERCHANT':
      return flag(!activity.merchants.includes(merchantKey(authorization.merchant)));
    case 'TRANSACTION_AMOUNT':
      return authorization.amount;
    case 'CASH_AMOUNT':
      return authorization.cashAmount;
    case 'CARD_TRANSACTION_COUNT_15M':
      return countSince(activity.approvals.map((approval) => approval.at), at - 15 * MINUTE_MS);
    case 'CARD_TRANSACTION_COUNT_1H':
      return countSince(activity.approvals.map((approval) => approval.at), at - HOUR_MS);
    case 'CARD_TRANSACTION_COUNT_24H':
      return countSince(activity.approvals.map((approval) => approval.at), at - DAY_MS);
    case 'CARD_DECLINE_COUNT_15M':
      return countSince(activity.declines, at - 15 * MINUTE_MS);
    case 'CARD_DECLINE_COUNT_1H':
      return countSince(activity.declines, at - HOUR_MS);
    case 'CARD_DECLINE_COUNT_24H':
      return countSince(activity.declines, at - DAY_MS);
    case 'CARD_AGE':
      return ageInSeconds(card.created, at);
    case 'ACCOUNT_AGE':
      return card.accountCreated === null ? null : ageInSeconds(card.accountCreated, at);
    case 'CONSECUTIVE_DECLINES':
      return countSince(activity.consecutiveDeclines, at - CONSECUTIVE_DECLINES_WINDOW_MS);
    case 'TIME_SINCE_LAST_TRANSACTION':
      return activity.lastApprovedAt === null ? null : Math.round((at - activity.lastApprovedAt) / DAY_MS);
    case 'DISTINCT_COUNTRY_COUNT':
      return activity.countries.length;
  }
}

function flag(value: boolean): 'TRUE' | 'FALSE' {
  return value ? 'TRUE' : 'FALSE';
}

function countSince(times: readonly number[], since: number): number {
  return times.filter((time) => time > since).length;
}

function ageInSeconds(created: string, at: number): number {
  return Math.floor((at - Date.parse(created)) / 1000);
}
