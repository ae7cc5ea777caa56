import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { ErrorBody } from '@ledger/contracts';
import { mapError, replayedOutcomeAdvice, retryHeaders, RetryAdvice } from './error-status';
import { IdempotentReplay } from './errors';
import { answer, headersSent, pathOf } from './http-answer';
import { RequestWithId, requestIdOf } from './request-id';

/**
 * The status, JSON body and retry advice an error is answered with (the idempotency interceptor
 * stores the status and body).
 */
export function errorOutcome(error: unknown, request: { requestId?: string }): { status: number; body: ErrorBody; retry: RetryAdvice } {
  const { status, message, retry } = mapError(error);
  const body: ErrorBody = { debugging_request_id: requestIdOf(request), message };
  const token = (error as { transactionToken?: unknown })?.transactionToken;
  if (typeof token === 'string') body.token = token;
  return { status, body, retry };
}

/** Writes every error as the spec's JSON body: debugging_request_id and message, on Fastify's reply. */
export function sendError(error: unknown, request: RequestWithId, response: unknown, logger: Logger): void {
  if (error instanceof IdempotentReplay) {
    if (!headersSent(response)) answer(response, error.status, retryHeaders(replayedOutcomeAdvice(error.status)), error.body);
    return;
  }
  const { status, body, retry } = errorOutcome(error, request);
  // The line names its request itself (docs/decisions.md, "Logs"): no logger is bound to the request.
  if (status >= 500) logger.error({ request_id: body.debugging_request_id, msg: `${request.method} ${pathOf(request)} ${body.debugging_request_id}: ${(error as Error)?.stack ?? String(error)}` });
  if (!headersSent(response)) answer(response, status, retryHeaders(retry), body);
}

@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(error, http.getRequest<RequestWithId>(), http.getResponse<unknown>(), this.logger);
  }
}
