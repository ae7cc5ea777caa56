/** Errors raised at the HTTP edge itself (not by the domain). */
export class RequestInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestInvalid';
  }
}

/** A known path asked with a method it does not take: 405, with the methods it takes in `Allow`. */
export class MethodNotAllowed extends Error {
  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`${method} is not allowed here; this path takes ${allowed.join(', ')}`);
    this.name = 'MethodNotAllowed';
  }
}

/** A request body that is not sent as JSON: 415. */
export class UnsupportedMediaType extends Error {
  constructor() {
    super('Request body must be JSON sent with Content-Type: application/json');
    this.name = 'UnsupportedMediaType';
  }
}

/** Over a rate limit: 429 with Privacy's wording; `retryAfterSeconds` is when the window starts over. */
export class RateLimited extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'RateLimited';
  }
}

/** The same Idempotency-Key is still being worked on by another request: 409. */
export class IdempotencyKeyInProgress extends Error {
  constructor() {
    super('A request with this Idempotency-Key is still in progress; retry later');
    this.name = 'IdempotencyKeyInProgress';
  }
}

/** The Idempotency-Key was first used with another method, path or body: 422. */
export class IdempotencyKeyReused extends Error {
  constructor() {
    super('This Idempotency-Key was used with a different request; use a new key for a new request');
    this.name = 'IdempotencyKeyReused';
  }
}

/**
 * Not a failure: the stored outcome of an earlier request with the same Idempotency-Key, which the
 * error filter writes back exactly as stored (status and body).
 */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Idempotent replay (${status})`);
    this.name = 'IdempotentReplay';
  }
}

/** A simulated authorization that was declined: 422 with the token of the transaction it recorded. */
export class AuthorizationDeclined extends Error {
  constructor(
    readonly reason: string,
    readonly transactionToken: string,
  ) {
    super(declineMessage(reason));
    this.name = 'AuthorizationDeclined';
  }
}

const DECLINE_MESSAGES: Record<string, string> = {
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
  return `Authorization declined (${reason}): ${DECLINE_MESSAGES[reason] ?? 'declined'}`;
}

/**
 * An authorization that failed and was then withdrawn: its token is taken, so no decision can be
 * recorded under it any more. Nothing stands, and sending the same request again is safe.
 */
export class AuthorizationNotRecorded extends Error {
  constructor(cause: string) {
    super(`The authorization was not recorded (${cause}); nothing stands under it, so it is safe to send it again`);
    this.name = 'AuthorizationNotRecorded';
  }
}

/**
 * An authorization that failed while the event store could not be reached long enough to find out
 * whether its decision stands: the one 5xx that promises nothing. The token names where to look.
 */
export class AuthorizationOutcomeUnknown extends Error {
  constructor(readonly transactionToken: string) {
    super(`Whether the authorization was recorded is not known (the ledger's database could not be reached); look for transaction ${transactionToken} before sending it again`);
    this.name = 'AuthorizationOutcomeUnknown';
  }
}
