import type { DeclineReason } from '@ledger/domain';

/** What each decline reason means to the program, in the message of a declined authorization's 422. */
const DECLINE_MESSAGES: Record<DeclineReason, string> = {
  ACCOUNT_STATE_TRANSACTION_FAIL: 'the account cannot transact; contact support',
  BANK_CONNECTION_ERROR: 'the funding source must be reconnected',
  BANK_NOT_VERIFIED: 'the funding source must be verified',
  CARD_PAUSED: 'the card is paused',
  CARD_CLOSED: 'the card is closed',
  FRAUD_ADVICE: 'declined due to risk (velocity rule)',
  GLOBAL_MONTHLY_LIMIT: 'the platform monthly spend limit was exceeded',
  GLOBAL_TRANSACTION_LIMIT: 'the platform per-transaction limit was exceeded',
  GLOBAL_WEEKLY_LIMIT: 'the platform weekly spend limit was exceeded',
  INACTIVE_ACCOUNT: 'the account is inactive; contact support',
  INCORRECT_PIN: 'the PIN is incorrect',
  INSUFFICIENT_FUNDS: 'the funding source has insufficient funds',
  INSUFFICIENT_FUNDS_PRELOAD: 'the program declined for insufficient funds',
  INVALID_CARD_DETAILS: 'the CVV or expiry date is incorrect',
  MERCHANT_BLACKLIST: 'the merchant is blocked on this program',
  SINGLE_USE_RECHARGED: 'the single-use card was already used',
  SWITCH_INOPERATIVE_ADVICE: 'network error; retry',
  UNAUTHORIZED_MERCHANT: 'the card is locked to another merchant',
  UNKNOWN_HOST_TIMEOUT: 'network timeout; retry',
  USER_TRANSACTION_LIMIT: 'the card spend limit was exceeded',
};

export function declineMessage(reason: string): string {
  return `Authorization declined (${reason}): ${DECLINE_MESSAGES[reason as DeclineReason] ?? 'declined'}`;
}
