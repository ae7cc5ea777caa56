import { CREDIT_AUTHORIZATION_KINDS, type TransactionEventType, type TransactionResult } from './transaction-values';

/**
 * What Lithic's per-event fields say of one event of a transaction, from the event's type and
 * result alone: which way it moves money, whether it moves any, and the detailed result.
 */

/**
 * Authorizations (of every debit kind), advices, clearings and return reversals take money from the
 * cardholder; voids, expiries, returns and credits give it back (an expiry releases the hold as a void does).
 */
export function effectivePolarity(type: TransactionEventType): 'CREDIT' | 'DEBIT' {
  return CREDIT_EVENT_TYPES.includes(type) ? 'CREDIT' : 'DEBIT';
}

/** Voids, expiries, returns, Lithic's credit authorizations and a dispute's credit (money back). */
const CREDIT_EVENT_TYPES: readonly TransactionEventType[] = ['VOID', 'AUTHORIZATION_EXPIRY', 'RETURN', ...CREDIT_AUTHORIZATION_KINDS, 'DISPUTE_WON'];

/**
 * Only these move funds (Lithic: only financial events carry a settlement amount); the others hold
 * or release. Single-message (financial) authorizations move funds as they are approved.
 */
export function isFinancialEvent(type: TransactionEventType): boolean {
  return type === 'CLEARING' || type === 'RETURN' || type === 'RETURN_REVERSAL' || type === 'FINANCIAL_AUTHORIZATION' || type === 'FINANCIAL_CREDIT_AUTHORIZATION' || type === 'DISPUTE_WON';
}

/**
 * Lithic's detailed result for each of the spec's results. Where Lithic has no value of the same
 * meaning the general DECLINED stands, never a near miss: BANK_* (the funding source, not its
 * balance), GLOBAL_WEEKLY_LIMIT and GLOBAL_TRANSACTION_LIMIT (Lithic's account limits are daily,
 * monthly and lifetime), INVALID_CARD_DETAILS (CVV or expiry: the result does not say which) and
 * SWITCH_INOPERATIVE_ADVICE (an unreachable stream as well as a malformed answer).
 */
export const DETAILED_RESULTS = {
  APPROVED: 'APPROVED',
  ACCOUNT_STATE_TRANSACTION_FAIL: 'ACCOUNT_INACTIVE',
  BANK_CONNECTION_ERROR: 'DECLINED',
  BANK_NOT_VERIFIED: 'DECLINED',
  CARD_PAUSED: 'CARD_PAUSED',
  CARD_CLOSED: 'CARD_CLOSED',
  FRAUD_ADVICE: 'SUSPECTED_FRAUD',
  GLOBAL_MONTHLY_LIMIT: 'ACCOUNT_MONTHLY_SPEND_LIMIT_EXCEEDED',
  GLOBAL_TRANSACTION_LIMIT: 'DECLINED',
  GLOBAL_WEEKLY_LIMIT: 'DECLINED',
  INACTIVE_ACCOUNT: 'ACCOUNT_PAUSED',
  INCORRECT_PIN: 'CARD_PIN_INCORRECT',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  INSUFFICIENT_FUNDS_PRELOAD: 'CUSTOM_ASA_RESULT',
  INVALID_CARD_DETAILS: 'DECLINED',
  MERCHANT_BLACKLIST: 'MERCHANT_NOT_PERMITTED',
  SINGLE_USE_RECHARGED: 'SINGLE_USE_CARD_REATTEMPTED',
  SWITCH_INOPERATIVE_ADVICE: 'DECLINED',
  UNAUTHORIZED_MERCHANT: 'MERCHANT_LOCKED_CARD_ATTEMPTED_ELSEWHERE',
  UNKNOWN_HOST_TIMEOUT: 'CUSTOMER_ASA_TIMEOUT',
  USER_TRANSACTION_LIMIT: 'CARD_SPEND_LIMIT_EXCEEDED',
} as const satisfies Record<TransactionResult, string>;
export type DetailedResult = (typeof DETAILED_RESULTS)[TransactionResult];
