/**
 * What sending the very same request again can achieve, as the headers that tell clients:
 * `X-Should-Retry` (Stainless SDKs such as Lithic's obey it before their own rule, which retries
 * every 408, 409, 429 and 5xx) and `Retry-After` (seconds; sent only with 429 and 503). Nothing
 * else in the service sends either.
 */
export type RetryHeaders = Readonly<Record<string, string>>;

/** The same request gets the same answer: the client must change it (or the world must change) first. */
export const FINAL: RetryHeaders = { 'x-should-retry': 'false' };
/** A fault of ours, or a success: no advice either way. */
export const NO_ADVICE: RetryHeaders = {};
/** How long a client should give the service when it is unavailable (503). */
export const UNAVAILABLE_RETRY_AFTER: RetryHeaders = { 'retry-after': '1' };

/**
 * Errors raised at the HTTP edge itself (not by the domain), each named after its class as domain
 * errors are, and each carrying the status and retry headers it is answered with (error-status.ts
 * reads them; nothing lists the classes again), so a feature of the edge declares its own beside the
 * code that raises them (RateLimited, the Idempotency-Key refusals). Unless a class says otherwise,
 * a retry of the same request gets the same answer.
 */
export abstract class EdgeError extends Error {
  /** The message of a class whose every error says the same. */
  static readonly defaultMessage: string = '';
  abstract readonly status: number;
  readonly retry: RetryHeaders = FINAL;

  constructor(message = new.target.defaultMessage) {
    super(message);
    this.name = new.target.name;
  }
}

/** A request the edge refuses before any command or query: 400, with the message saying why. */
export class RequestInvalid extends EdgeError {
  readonly status = 400;
}

/** A known path asked with a method it does not take: 405, with the methods it takes in `Allow`. */
export class MethodNotAllowed extends EdgeError {
  readonly status = 405;

  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`${method} is not allowed here; this path takes ${allowed.join(', ')}`);
  }
}

/** A request body that is not sent as JSON (or as JSON in a charset other than UTF-8): 415. */
export class UnsupportedMediaType extends EdgeError {
  readonly status = 415;
  static override readonly defaultMessage = 'Request body must be JSON sent with Content-Type: application/json';
}

/**
 * Not a failure: the stored outcome of an earlier request with the same Idempotency-Key, which the
 * error filter writes back exactly as stored (status and JSON text, so exact integers stay exact).
 * Every repeat with the key gets the same answer until the key expires, so an error replayed is
 * final whatever it was the first time.
 */
export class IdempotentReplay extends EdgeError {
  override readonly retry: RetryHeaders;

  constructor(
    readonly status: number,
    readonly text: string | undefined,
  ) {
    super(`Idempotent replay (${status})`);
    this.retry = status >= 400 ? FINAL : NO_ADVICE;
  }
}
