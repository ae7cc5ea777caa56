import { HttpException } from '@nestjs/common';
import { Unauthenticated } from '@ledger/auth';
import { DomainError } from '@ledger/domain';
import { ReadModelBehind } from '@ledger/runtime';
import { BODY_LIMIT_BYTES } from './body-limit';
import { AuthorizationDeclined, AuthorizationNotRecorded, AuthorizationOutcomeUnknown, IdempotencyKeyInProgress, IdempotencyKeyReused, MalformedRequest, MethodNotAllowed, RateLimited, RequestHeadersTooLarge, RequestInvalid, RequestTimedOut, UnsupportedMediaType } from './errors';

/**
 * What sending the very same request again can achieve, told to clients in two headers:
 * `X-Should-Retry` (Stainless SDKs such as Lithic's obey it before their own rule, which retries
 * every 408, 409, 429 and 5xx) and `Retry-After` (seconds; sent only with 429 and 503).
 */
export interface RetryAdvice {
  /** X-Should-Retry: true or false; null sends no header and leaves it to the client's rules. */
  readonly shouldRetry: boolean | null;
  /** Retry-After in seconds, or null for none. */
  readonly retryAfterSeconds: number | null;
}

export interface MappedError {
  readonly status: number;
  readonly message: string;
  readonly retry: RetryAdvice;
}

/** The same request gets the same answer: the client must change it (or the world must change) first. */
const FINAL: RetryAdvice = { shouldRetry: false, retryAfterSeconds: null };
/** A fault of ours, or a success: no advice either way. */
const NO_ADVICE: RetryAdvice = { shouldRetry: null, retryAfterSeconds: null };
/** How long a client should give the service when it is unavailable (503). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

const DOMAIN_STATUS: Record<DomainError['kind'], number> = { invalid: 400, not_found: 404, conflict: 409 };

/**
 * The one place an error becomes an HTTP status, a message and retry advice. Anything not listed is
 * a fault of ours: 500 with a message that names no internals (the log has the rest under the same
 * request id).
 *
 * Retry advice per class: every domain error is decided on the state the request met (a closed card,
 * a missing token, a voided transaction), so it is FINAL, 409 included; so are invalid requests,
 * declines and unknown keys. A rate limit (429) and an Idempotency-Key still in progress (409) pass
 * by themselves. A failed authorization that was withdrawn (503) is safe to send again; one whose
 * outcome could not be found out (503) is not. A read model that is behind (503) comes after the write was recorded: repeating the
 * request would do the write again, so the advice is to read later, not to retry.
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof DomainError) return { status: DOMAIN_STATUS[error.kind], message: error.message, retry: FINAL };
  if (error instanceof RequestInvalid) return { status: 400, message: error.message, retry: FINAL };
  if (error instanceof MalformedRequest) return { status: 400, message: error.message, retry: FINAL };
  if (error instanceof RequestHeadersTooLarge) return { status: 431, message: error.message, retry: FINAL };
  // Sent again at an ordinary pace, the same request may well be received.
  if (error instanceof RequestTimedOut) return { status: 408, message: error.message, retry: NO_ADVICE };
  if (error instanceof MethodNotAllowed) return { status: 405, message: error.message, retry: FINAL };
  if (error instanceof UnsupportedMediaType) return { status: 415, message: error.message, retry: FINAL };
  if (error instanceof AuthorizationDeclined) return { status: 422, message: error.message, retry: FINAL };
  if (error instanceof IdempotencyKeyInProgress) return { status: 409, message: error.message, retry: { shouldRetry: true, retryAfterSeconds: null } };
  if (error instanceof IdempotencyKeyReused) return { status: 422, message: error.message, retry: FINAL };
  if (error instanceof Unauthenticated) return { status: 401, message: error.message, retry: FINAL };
  if (error instanceof RateLimited) return { status: 429, message: error.message, retry: { shouldRetry: true, retryAfterSeconds: error.retryAfterSeconds } };
  // Both come after a failed simulation's outcome was looked for (SimulationOutcomes): withdrawn, so a
  // retry cannot authorize twice; or not settled, so a retry might.
  if (error instanceof AuthorizationNotRecorded) return { status: 503, message: error.message, retry: { shouldRetry: true, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS } };
  if (error instanceof AuthorizationOutcomeUnknown) return { status: 503, message: error.message, retry: { shouldRetry: false, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS } };
  if (error instanceof ReadModelBehind) {
    return {
      status: 503,
      message: `${error.message}; the write is recorded, retry the read`,
      retry: { shouldRetry: false, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS },
    };
  }
  // A body over the limit reaches us as Nest's HttpException(413) with Fastify's wording; nothing
  // else answers 413, so it gets the message the API documents.
  if (error instanceof HttpException) return withStatusAdvice(error.getStatus(), error.getStatus() === 413 ? bodyTooLarge(BODY_LIMIT_BYTES) : httpExceptionMessage(error));
  return { status: 500, message: 'Internal error', retry: NO_ADVICE };
}

/**
 * Errors known only by their status (Nest's and Fastify's, the command transport's 503): a 4xx
 * other than 408 and 429 is the request's own fault and FINAL; 503 is worth a retry after a moment.
 */
function withStatusAdvice(status: number, message: string): MappedError {
  if (status === 503) return { status, message, retry: { shouldRetry: null, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS } };
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { status, message, retry: FINAL };
  return { status, message, retry: NO_ADVICE };
}

/**
 * A stored Idempotency-Key outcome answered again: every repeat with the key gets the same answer
 * until the key expires, so an error replayed is FINAL whatever it was the first time.
 */
export function replayedOutcomeAdvice(status: number): RetryAdvice {
  return status >= 400 ? FINAL : NO_ADVICE;
}

/** Writes the advice as headers; nothing else in the service sends X-Should-Retry or Retry-After. */
export function retryHeaders(advice: RetryAdvice): Record<string, string> {
  const headers: Record<string, string> = {};
  if (advice.shouldRetry !== null) headers['x-should-retry'] = String(advice.shouldRetry);
  if (advice.retryAfterSeconds !== null) headers['retry-after'] = String(advice.retryAfterSeconds);
  return headers;
}

function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? error.message);
}

function bodyTooLarge(limit: number): string {
  return `Request body is larger than ${limit} bytes`;
}
