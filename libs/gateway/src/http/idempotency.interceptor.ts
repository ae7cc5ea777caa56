import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { catchError, mergeMap, Observable } from 'rxjs';
import type { AuthenticatedRequest } from '@ledger/auth';
import { canonicalJson } from '@ledger/event-store';
import { IdempotencyKeys, IdempotentOutcome } from '../idempotency/idempotency-keys';
import { errorOutcome } from './error-body.filter';
import { IdempotentReplay, RequestInvalid } from './errors';
import { pathOf } from './request-path';
import { RequestWithId, requestIdOf } from './request-id';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
const METHODS = new Set(['POST', 'PATCH']);
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
/** The success of every route this runs on: Route() puts it on POST and PATCH routes only, and answers both 200. */
const SUCCESS_STATUS = 200;

type Request = RequestWithId & AuthenticatedRequest;

/**
 * `Idempotency-Key` on POST and PATCH (docs/decisions.md): the first outcome, errors included, is
 * kept per program and key (IdempotencyKeys) and answered again for a repeat of the same request,
 * with `Idempotent-Replayed: true`. Runs after the guards, so the program is known and
 * unauthenticated calls never touch a key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly keys: IdempotencyKeys) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (!METHODS.has(request.method) || header === undefined || !request.programToken) return next.handle();
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!VALID_KEY.test(key)) throw new RequestInvalid('Idempotency-Key must be 1 to 255 printable ASCII characters');

    const programToken = request.programToken;
    const hash = requestHash(request);
    const stored = await this.keys.claim(programToken, key, hash);
    if (stored) {
      context.switchToHttp().getResponse<FastifyReply>().header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      throw stored;
    }
    const complete = (outcome: IdempotentOutcome) => this.keys.complete(programToken, key, hash, outcome, requestIdOf(request));
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await complete({ status: SUCCESS_STATUS, body });
        return body;
      }),
      catchError(async (error: unknown) => {
        if (!(error instanceof IdempotentReplay)) await complete(errorOutcome(error, request));
        throw error;
      }),
    );
  }
}

/**
 * SHA-256 of method, path and the body as canonical JSON (object keys sorted at every level, the
 * event store's canonicalJson), so the same request hashes the same whatever the order of its keys.
 */
export function requestHash(request: { method: string; path?: string; url?: string; body?: unknown }): string {
  return createHash('sha256')
    .update(`${request.method}\n${pathOf(request)}\n${canonicalJson(request.body ?? {})}`)
    .digest('hex');
}
