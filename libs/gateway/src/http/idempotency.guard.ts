import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '@ledger/auth';
import { canonicalJson } from '@ledger/event-store';
import { IdempotencyKeys, IdempotentOutcome } from '../idempotency/idempotency-keys';
import { RequestInvalid } from './errors';
import { pathOf } from './request-path';

const METHODS = new Set(['POST', 'PATCH']);

/**
 * Whether requests of this method may carry an Idempotency-Key: Route() puts IdempotencyGuard on
 * these routes alone, and configureFastifyHttp the hook that stores their answers.
 */
export function takesIdempotencyKey(method: string): boolean {
  return METHODS.has(method);
}
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** The requests that claimed a key, each with the storing of its outcome as the answer is sent (`storeClaimedOutcome`). */
const claims = new WeakMap<object, (outcome: IdempotentOutcome) => Promise<void>>();

/**
 * `Idempotency-Key` on POST and PATCH (docs/decisions.md): the first outcome, errors included, is
 * kept per program and key (IdempotencyKeys) and answered again for a repeat of the same request,
 * with `Idempotent-Replayed: true`. The last guard of the route, so the program is known and
 * unauthenticated calls never touch a key; the outcome is stored by the Fastify onSend hook, before
 * the answer leaves, whatever answered (the handler, a pipe's 400, the error filter).
 *
 * A guard and a hook rather than an interceptor: a route with any Nest interceptor pays its chain
 * (an AsyncResource and an RxJS pipeline) on every request, with the header or without.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(private readonly keys: IdempotencyKeys) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const { programToken } = request;
    const header = request.headers['idempotency-key'];
    if (!takesIdempotencyKey(request.method) || header === undefined || !programToken) return true;
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!VALID_KEY.test(key)) throw new RequestInvalid('Idempotency-Key must be 1 to 255 printable ASCII characters');

    const hash = requestHash(request);
    const stored = await this.keys.claim(programToken, key, hash);
    if (stored) {
      context.switchToHttp().getResponse<FastifyReply>().header('Idempotent-Replayed', 'true');
      throw stored;
    }
    claims.set(request, (outcome) => this.keys.complete(programToken, key, hash, outcome, request.id));
    return true;
  }
}

/**
 * Fastify onSend hook: the answer to a request that claimed a key, as its client gets it (status and
 * JSON text), stored before it is sent. It rides on the POST and PATCH routes alone (configureFastifyHttp);
 * a request there that claimed no key passes at the cost of a WeakMap lookup.
 */
export function storeClaimedOutcome(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const store = claims.get(request);
  if (!store) return done(null, payload);
  claims.delete(request);
  void store({ status: reply.statusCode, text: typeof payload === 'string' ? payload : undefined }).then(() => done(null, payload));
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
