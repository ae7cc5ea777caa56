import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@ledger/contracts';
import { mapError } from './error-status';
import { IdempotentReplay, RetryHeaders } from './errors';
import { pathOf } from './request-path';

/** The status, JSON body and retry headers an error is answered with. */
export function errorOutcome(error: unknown, request: { id: string }): { status: number; body: ErrorBody; retry: RetryHeaders } {
  const { status, message, retry } = mapError(error);
  const body: ErrorBody = { debugging_request_id: request.id, message };
  const token = (error as { transactionToken?: unknown })?.transactionToken;
  if (typeof token === 'string') body.token = token;
  return { status, body, retry };
}

/**
 * Writes every error as the spec's JSON body (debugging_request_id and message) on Fastify's reply,
 * whose serializer is the exact JSON writer; a replayed Idempotency-Key outcome is written as stored.
 */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, logger: Logger): void {
  const sent = reply.sent || reply.raw.headersSent;
  if (error instanceof IdempotentReplay) {
    if (sent) return;
    reply.code(error.status).headers(error.retry);
    if (error.text === undefined) reply.send();
    else reply.type('application/json; charset=utf-8').send(error.text);
    return;
  }
  const { status, body, retry } = errorOutcome(error, request);
  // The line names its request itself (docs/decisions.md, "Logs"): no logger is bound to the request.
  if (status >= 500) logger.error({ request_id: body.debugging_request_id, msg: `${request.method} ${pathOf(request)} ${body.debugging_request_id}: ${(error as Error)?.stack ?? String(error)}` });
  if (!sent) reply.code(status).headers(retry).send(body);
}

@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.logger);
  }
}
