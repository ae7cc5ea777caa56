/**
 * Errors raised at the HTTP edge itself (not by the domain), each named after its class as domain
 * errors are.
 */
abstract class EdgeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A request the edge refuses before any command or query: 400, with the message saying why. */
export class RequestInvalid extends EdgeError {}

/** A known path asked with a method it does not take: 405, with the methods it takes in `Allow`. */
export class MethodNotAllowed extends EdgeError {
  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`${method} is not allowed here; this path takes ${allowed.join(', ')}`);
  }
}

/** A request body that is not sent as JSON (or as JSON in a charset other than UTF-8): 415. */
export class UnsupportedMediaType extends EdgeError {
  constructor(message = 'Request body must be JSON sent with Content-Type: application/json') {
    super(message);
  }
}

/**
 * A request Node's HTTP parser refused before it became a request (a malformed request line, an
 * invalid header, Content-Length with Transfer-Encoding): 400. Answered on the socket, then closed.
 */
export class MalformedRequest extends EdgeError {}

/** Request line and headers over Node's size limit: 431, answered on the socket, then closed. */
export class RequestHeadersTooLarge extends EdgeError {
  constructor() {
    super('Request headers are too large');
  }
}

/** A request not received within HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS: 408, then the connection closes. */
export class RequestTimedOut extends EdgeError {
  constructor() {
    super('Request was not received in time');
  }
}

/** Over a rate limit: 429 with Privacy's wording; `retryAfterSeconds` is when the window starts over. */
export class RateLimited extends EdgeError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The same Idempotency-Key is still being worked on by another request: 409. */
export class IdempotencyKeyInProgress extends EdgeError {
  constructor() {
    super('A request with this Idempotency-Key is still in progress; retry later');
  }
}

/** The Idempotency-Key was first used with another method, path or body: 422. */
export class IdempotencyKeyReused extends EdgeError {
  constructor() {
    super('This Idempotency-Key was used with a different request; use a new key for a new request');
  }
}

/**
 * Not a failure: the stored outcome of an earlier request with the same Idempotency-Key, which the
 * error filter writes back exactly as stored (status and body).
 */
export class IdempotentReplay extends EdgeError {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Idempotent replay (${status})`);
  }
}

/** A simulated authorization that was declined: 422 with the token of the transaction it recorded. */
export class AuthorizationDeclined extends EdgeError {
  constructor(
    readonly reason: string,
    readonly transactionToken: string,
  ) {
    super(declineMessage(reason));
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
export class AuthorizationNotRecorded extends EdgeError {
  constructor(cause: string) {
    super(`The authorization was not recorded (${cause}); nothing stands under it, so it is safe to send it again`);
  }
}

/**
 * An authorization that failed while the event store could not be reached long enough to find out
 * whether its decision stands: the one 5xx that promises nothing. The token names where to look.
 */
export class AuthorizationOutcomeUnknown extends EdgeError {
  constructor(readonly transactionToken: string) {
    super(`Whether the authorization was recorded is not known (the ledger's database could not be reached); look for transaction ${transactionToken} before sending it again`);
  }
}
