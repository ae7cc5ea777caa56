import { HttpException } from '@nestjs/common';
import { Unauthenticated } from '@ledger/auth';
import { DomainError } from '@ledger/domain';
import { ReadModelBehind } from '@ledger/runtime';
import { AuthorizationDeclined, IdempotencyKeyInProgress, IdempotencyKeyReused, RequestInvalid } from './errors';

export interface MappedError {
  readonly status: number;
  readonly message: string;
}

const DOMAIN_STATUS: Record<DomainError['kind'], number> = { invalid: 400, not_found: 404, conflict: 409 };

/**
 * The one place an error becomes an HTTP status. Anything not listed is a fault of ours: 500 with a
 * message that names no internals (the log has the rest under the same request id).
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof DomainError) return { status: DOMAIN_STATUS[error.kind], message: error.message };
  if (error instanceof RequestInvalid) return { status: 400, message: error.message };
  if (error instanceof AuthorizationDeclined) return { status: 422, message: error.message };
  if (error instanceof IdempotencyKeyInProgress) return { status: 409, message: error.message };
  if (error instanceof IdempotencyKeyReused) return { status: 422, message: error.message };
  if (error instanceof Unauthenticated) return { status: 401, message: error.message };
  if (error instanceof ReadModelBehind) return { status: 503, message: `${error.message}; the write is recorded, retry the read` };
  if (error instanceof HttpException) return { status: error.getStatus(), message: httpExceptionMessage(error) };
  const parserError = bodyParserError(error);
  if (parserError) return parserError;
  return { status: 500, message: 'Internal error' };
}

function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? error.message);
}

/** body-parser marks its errors with a status and a type; only those are the client's fault. */
function bodyParserError(error: unknown): MappedError | null {
  const candidate = error as { status?: number; type?: string; limit?: number };
  if (typeof candidate?.type !== 'string' || typeof candidate.status !== 'number') return null;
  switch (candidate.type) {
    case 'entity.parse.failed':
      return { status: 400, message: 'Request body is not valid JSON' };
    case 'entity.too.large':
      return { status: 413, message: `Request body is larger than ${candidate.limit} bytes` };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, message: 'Request body must be UTF-8 JSON' };
    default:
      return candidate.status >= 400 && candidate.status < 500 ? { status: candidate.status, message: 'Request body could not be read' } : null;
  }
}
