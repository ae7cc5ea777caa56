import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { catchError, mergeMap, Observable } from 'rxjs';
import type { AuthenticatedRequest } from '@ledger/auth';
import { CardVault } from '@ledger/card-vault';
import { canonicalJson } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { LEDGER_CONFIG, LedgerConfig, READ_MODEL } from '@ledger/runtime';
import { errorOutcome } from './error-body.filter';
import { IdempotencyKeyInProgress, IdempotencyKeyReused, IdempotentReplay, RequestInvalid } from './errors';
import { writeJson } from './exact-json';
import { pathOf } from './request-path';
import { RequestWithId, requestIdOf } from './request-id';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a repeat waits for the first request with its key to finish before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_MS = 25;
const CLEANUP_EVERY_MS = 60_000;
const METHODS = new Set(['POST', 'PATCH']);
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
/** The success of every route this runs on: Route() puts it on POST and PATCH routes only, and answers both 200. */
const SUCCESS_STATUS = 200;

type Request = RequestWithId & AuthenticatedRequest;

/** An outcome to store: what the first request with the key answered. */
interface Outcome {
  readonly status: number;
  readonly body: unknown;
}

/**
 * `Idempotency-Key` on POST and PATCH (docs/decisions.md): the first outcome, errors included, is
 * kept per program and key and answered again for a repeat of the same request; the key with
 * another request is 422; a repeat while the first still runs waits for it, then 409.
 * Runs after the guards, so the program is known and unauthenticated calls never touch a key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  private lastCleanup = 0;

  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly vault: CardVault,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (!METHODS.has(request.method) || header === undefined || !request.programToken) return next.handle();
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!VALID_KEY.test(key)) throw new RequestInvalid('Idempotency-Key must be 1 to 255 printable ASCII characters');

    const programToken = request.programToken;
    const hash = requestHash(request);
    const stored = await this.claim(programToken, key, hash);
    if (stored) {
      context.switchToHttp().getResponse<FastifyReply>().header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      throw stored;
    }

    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await this.complete(programToken, key, hash, { status: SUCCESS_STATUS, body }, request);
        return body;
      }),
      catchError(async (error: unknown) => {
        if (!(error instanceof IdempotentReplay)) await this.complete(programToken, key, hash, errorOutcome(error, request), request);
        throw error;
      }),
    );
  }

  /** Claims the key for this request (null), or returns the stored outcome of the same request to answer again. */
  private async claim(programToken: string, key: string, hash: string): Promise<IdempotentReplay | null> {
    this.cleanUpNowAndThen();
    const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const now = new Date();
      const expires = new Date(now.getTime() + this.config.idempotencyTtlHours * 3_600_000);
      // A live row with the key wins; an expired one is taken over as if it were not there.
      const claimed = await this.readModel.$queryRawUnsafe<unknown[]>(
        `insert into idempotency_keys (program_token, key, request_hash, status, created, expires_at)
         values ($1::uuid, $2, $3, 'in_progress', $4::timestamptz, $5::timestamptz)
         on conflict (program_token, key) do update
            set request_hash = excluded.request_hash, status = 'in_progress', response_status = null,
                response_body = null, created = excluded.created, expires_at = excluded.expires_at
          where idempotency_keys.expires_at <= excluded.created
         returning 1`,
        programToken,
        key,
        hash,
        now.toISOString(),
        expires.toISOString(),
      );
      if (claimed.length === 1) return null;

      const row = await this.readModel.idempotencyKey.findUnique({ where: { programToken_key: { programToken, key } } });
      if (!row || row.expiresAt.getTime() <= Date.now()) continue; // gone or expired meanwhile: claim again
      if (row.requestHash !== hash) throw new IdempotencyKeyReused();
      if (row.status === 'done' && row.responseStatus !== null) {
        return new IdempotentReplay(row.responseStatus, row.responseBody === null ? undefined : this.vault.decrypt(row.responseBody));
      }
      if (Date.now() >= deadline) throw new IdempotencyKeyInProgress();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /**
   * Stores the outcome and marks the key done. A failure to store is logged and leaves the key in
   * progress (repeats answer 409 until it expires): re-running a request that may have had its
   * effect would be worse.
   */
  private async complete(programToken: string, key: string, hash: string, outcome: Outcome, request: RequestWithId): Promise<void> {
    try {
      const text = writeJson(outcome.body);
      const body = text === undefined ? null : this.vault.encrypt(text);
      await this.readModel.idempotencyKey.updateMany({
        where: { programToken, key, requestHash: hash, status: 'in_progress' },
        data: { status: 'done', responseStatus: outcome.status, responseBody: body },
      });
    } catch (error) {
      this.logger.error({ request_id: requestIdOf(request), msg: `Could not store the outcome for an Idempotency-Key of program ${programToken}: ${(error as Error)?.stack ?? String(error)}` });
    }
  }

  /** Expired keys are ignored anyway; deleting them now and then keeps the table small. */
  private cleanUpNowAndThen(): void {
    if (Date.now() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = Date.now();
    this.readModel.idempotencyKey
      .deleteMany({ where: { expiresAt: { lte: new Date() } } })
      .catch((error: unknown) => this.logger.warn(`Cleaning up expired Idempotency-Keys failed: ${String(error)}`));
  }
}

/**
 * SHA-256 of method, path and the body as canonical JSON (object keys sorted at every level): the
 * event store's canonicalJson, which a parsed JSON body (no undefined anywhere) writes exactly as the
 * copy this file had before, so keys stored earlier still match.
 */
export function requestHash(request: { method: string; path?: string; url?: string; body?: unknown }): string {
  return createHash('sha256')
    .update(`${request.method}\n${pathOf(request)}\n${canonicalJson(request.body ?? {})}`)
    .digest('hex');
}
