import { HttpException } from '@nestjs/common';
import { Unauthenticated } from '@ledger/auth';
import { DomainError } from '@ledger/domain';
import { ReadModelBehind } from '@ledger/runtime';
import { BODY_LIMIT_BYTES } from './body-limit';
import { EdgeError, FINAL, NO_ADVICE, RetryHeaders, UNAVAILABLE_RETRY_AFTER } from './errors';

export interface MappedError {
  readonly status: number;
  readonly message: string;
  readonly retry: RetryHeaders;
}

/** Every domain error is decided on the state the request met (a closed card, a missing token), so it is final, 409 included. */
const DOMAIN_STATUS: Record<DomainError['kind'], number> = { invalid: 400, not_found: 404, conflict: 409 };

/**
 * The one place an error becomes an HTTP status, a message and retry headers: the edge's own errors
 * carry theirs (errors.ts), the domain's are mapped by kind, and the few errors of other libraries
 * the API answers are named here. Anything else is a fault of ours: 500 with a message that names no
 * internals (the log has the rest under the same request id).
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof EdgeError) return { status: error.status, message: error.message, retry: error.retry };
  if (error instanceof DomainError) return { status: DOMAIN_STATUS[error.kind], message: error.message, retry: FINAL };
  if (error instanceof Unauthenticated) return { status: 401, message: error.message, retry: FINAL };
  // The write was recorded before its read model fell behind: repeating the request would write
  // again, so the advice is to read later, not to retry.
  if (error instanceof ReadModelBehind) {
    return { status: 503, message: `${error.message}; the write is recorded, retry the read`, retry: { ...FINAL, ...UNAVAILABLE_RETRY_AFTER } };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    // Nest's message is its response's, string or `message`. A body over the limit reaches us as
    // HttpException(413) with Fastify's wording; nothing else answers 413, so it gets the API's.
    return { status, message: status === 413 ? `Request body is larger than ${BODY_LIMIT_BYTES} bytes` : error.message, retry: adviceByStatus(status) };
  }
  return { status: 500, message: 'Internal error', retry: NO_ADVICE };
}

/**
 * Errors known only by their status (Nest's and Fastify's, the command transport's 503): a 4xx
 * other than 408 and 429 is the request's own fault and final; 503 is worth a retry after a moment.
 */
function adviceByStatus(status: number): RetryHeaders {
  if (status === 503) return UNAVAILABLE_RETRY_AFTER;
  return status >= 400 && status < 500 && status !== 408 && status !== 429 ? FINAL : NO_ADVICE;
}
