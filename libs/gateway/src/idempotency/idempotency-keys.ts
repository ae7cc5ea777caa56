import { Inject, Injectable, Logger } from '@nestjs/common';
import { CardVault } from '@ledger/card-vault';
import type { ReadModelClient } from '@ledger/read-model';
import { LEDGER_CONFIG, LedgerConfig, READ_MODEL } from '@ledger/runtime';
import { EdgeError, IdempotentReplay, RetryHeaders } from '../http/errors';

/** How long a repeat waits for the first request with its key to finish before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_MS = 25;
const CLEANUP_EVERY_MS = 60_000;

/** The same Idempotency-Key is still being worked on by another request: 409. */
export class IdempotencyKeyInProgress extends EdgeError {
  readonly status = 409;
  // The first request with the key finishes by itself.
  override readonly retry: RetryHeaders = { 'x-should-retry': 'true' };
  static override readonly defaultMessage = 'A request with this Idempotency-Key is still in progress; retry later';
}

/** The Idempotency-Key was first used with another method, path or body: 422. */
export class IdempotencyKeyReused extends EdgeError {
  readonly status = 422;
  static override readonly defaultMessage = 'This Idempotency-Key was used with a different request; use a new key for a new request';
}

/** An outcome to store: what the first request with the key answered, as a replay answers it again (its JSON text as sent, none for an empty answer). */
export type IdempotentOutcome = Pick<IdempotentReplay, 'status' | 'text'>;

/**
 * The first outcome of each program's Idempotency-Keys (docs/decisions.md, "Idempotency keys"), kept
 * in the idempotency_keys table until the key expires, the answer sealed with the card data key
 * (card answers carry the PAN and CVV). IdempotencyGuard claims a key before the handler runs; the
 * answer is stored as it is sent (storeClaimedOutcome).
 */
@Injectable()
export class IdempotencyKeys {
  private readonly logger = new Logger('Idempotency');
  private lastCleanup = 0;

  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly vault: CardVault,
  ) {}

  /**
   * Claims the key for this request (null), or returns the stored outcome of the same request to
   * answer again. The key with another request is 422; while the first still runs, a repeat waits
   * for it, then 409.
   */
  async claim(programToken: string, key: string, hash: string): Promise<IdempotentReplay | null> {
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
  async complete(programToken: string, key: string, hash: string, outcome: IdempotentOutcome, requestId: string): Promise<void> {
    try {
      const body = outcome.text === undefined ? null : this.vault.encrypt(outcome.text);
      await this.readModel.idempotencyKey.updateMany({
        where: { programToken, key, requestHash: hash, status: 'in_progress' },
        data: { status: 'done', responseStatus: outcome.status, responseBody: body },
      });
    } catch (error) {
      this.logger.error({ request_id: requestId, msg: `Could not store the outcome for an Idempotency-Key of program ${programToken}: ${(error as Error)?.stack ?? String(error)}` });
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
