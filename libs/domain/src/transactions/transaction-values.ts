/**
 * Spec 2.3-2.6 enumerations and the merchant, as the API spells them. EXPIRED is Lithic's: an
 * authorization whose hold ran out (expire_authorization, or a void of type AUTHORIZATION_EXPIRY).
 */
export const TRANSACTION_STATUSES = ['PENDING', 'VOIDED', 'SETTLING', 'SETTLED', 'BOUNCED', 'DECLINED', 'EXPIRED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/**
 * Lithic's kinds of authorization message beside the plain (dual-message) purchase authorization and
 * the return: each opens a transaction whose first event has the kind's name (docs/decisions.md).
 * Debits are decided by the card like an authorization; credits are money back, like a return.
 */
export const DEBIT_AUTHORIZATION_KINDS = ['BALANCE_INQUIRY', 'FINANCIAL_AUTHORIZATION'] as const;
export const CREDIT_AUTHORIZATION_KINDS = ['CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE', 'FINANCIAL_CREDIT_AUTHORIZATION'] as const;
export type DebitAuthorizationKind = (typeof DEBIT_AUTHORIZATION_KINDS)[number];
export type CreditAuthorizationKind = (typeof CREDIT_AUTHORIZATION_KINDS)[number];
export type AuthorizationKind = DebitAuthorizationKind | CreditAuthorizationKind;

/** Credits that wait for a clearing (dual message): they give nothing back until cleared (Lithic). */
export function isPendingCreditKind(kind: string | undefined): boolean {
  return kind === 'CREDIT_AUTHORIZATION' || kind === 'CREDIT_AUTHORIZATION_ADVICE';
}

/**
 * The spec's five, and Lithic's RETURN_REVERSAL, AUTHORIZATION_EXPIRY and kinds of authorization, and
 * DISPUTE_WON: the credit of a dispute won (Lithic's financial event type; docs/decisions.md, "Disputes").
 */
export const TRANSACTION_EVENT_TYPES = [
  'AUTHORIZATION',
  'AUTHORIZATION_ADVICE',
  'CLEARING',
  'VOID',
  'RETURN',
  'RETURN_REVERSAL',
  'AUTHORIZATION_EXPIRY',
  ...DEBIT_AUTHORIZATION_KINDS,
  ...CREDIT_AUTHORIZATION_KINDS,
  'DISPUTE_WON',
] as const;
export type TransactionEventType = (typeof TRANSACTION_EVENT_TYPES)[number];

export const DECLINE_REASONS = [
  'ACCOUNT_STATE_TRANSACTION_FAIL',
  'BANK_CONNECTION_ERROR',
  'BANK_NOT_VERIFIED',
  'CARD_PAUSED',
  'CARD_CLOSED',
  'FRAUD_ADVICE',
  'GLOBAL_MONTHLY_LIMIT',
  'GLOBAL_TRANSACTION_LIMIT',
  'GLOBAL_WEEKLY_LIMIT',
  'INACTIVE_ACCOUNT',
  'INCORRECT_PIN',
  'INSUFFICIENT_FUNDS',
  'INSUFFICIENT_FUNDS_PRELOAD',
  'INVALID_CARD_DETAILS',
  'MERCHANT_BLACKLIST',
  'SINGLE_USE_RECHARGED',
  'SWITCH_INOPERATIVE_ADVICE',
  'UNAUTHORIZED_MERCHANT',
  'UNKNOWN_HOST_TIMEOUT',
  'USER_TRANSACTION_LIMIT',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** Every value a transaction's or an event's `result` takes: APPROVED or a decline reason (spec 2.6). */
export const TRANSACTION_RESULTS = ['APPROVED', ...DECLINE_REASONS] as const;
export type TransactionResult = (typeof TRANSACTION_RESULTS)[number];

export interface Merchant {
  readonly acceptorId: string;
  readonly city: string;
  readonly country: string;
  readonly descriptor: string;
  readonly mcc: string;
  readonly state: string;
}

const TRANSACTION_STREAM_PREFIX = 'transaction-';

export const transactionStreamId = (transactionToken: string): string => `${TRANSACTION_STREAM_PREFIX}${transactionToken}`;

/** Whether a stream is a transaction's: the category every transactionStreamId is in. */
export const isTransactionStream = (streamId: string): boolean => streamId.startsWith(TRANSACTION_STREAM_PREFIX);
