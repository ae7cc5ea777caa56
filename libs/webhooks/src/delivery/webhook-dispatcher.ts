import { Logger } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';
import type { CardVault } from '@ledger/card-vault';
import { MarkEventSubscriptionFailingCommand, MarkEventSubscriptionRecoveredCommand, WebhookAttemptError, webhookAttemptToken, type CommandOrigin } from '@ledger/contracts';
import { EgressFailure, EgressHttpClient } from '@ledger/egress';
import { PRIVACY_HMAC_HEADER, privacyHmac, signedHeaders } from '@ledger/messaging';
import { pgTransactions } from '@ledger/runtime';

export interface DispatcherSettings {
  /** Entry n: the wait before attempt n+1 of a round (attempt 1 waits entry 0 after enqueueing). */
  readonly retrySchedule: readonly number[];
  readonly pollMs: number;
  readonly timeoutMs: number;
  /** Messages claimed per round trip; also how many are delivered at once. */
  readonly batchSize?: number;
}

/** A message claimed for one attempt, with what its subscription says now. */
interface ClaimedMessage {
  readonly id: string;
  readonly subscription_token: string;
  readonly program_token: string;
  readonly event_type: string;
  readonly body: string;
  readonly url: string;
  readonly secret_sealed: string;
  readonly failing: boolean;
}

export interface AttemptOutcome {
  readonly at: Date;
  /** The receiver's status, or null when none came. */
  readonly status: number | null;
  /** The failure's class, all the program sees of it (the details go to the server log); null when delivered. */
  readonly error: WebhookAttemptError | null;
  readonly durationMs: number;
}

export const WEBHOOK_USER_AGENT = 'card-ledger-webhooks/1';
/** How long a claimed message stays invisible to other dispatchers beyond the delivery timeout. */
const LEASE_MARGIN_MS = 30_000;

/**
 * Works off the webhook outbox. Each round claims the due pending messages of enabled subscriptions
 * (`for update skip locked`, then their due time is pushed out by a lease, so several dispatchers share
 * the table and a crashed one's messages come due again), POSTs each one signed with the Standard
 * Webhooks headers (and X-Privacy-HMAC for transaction messages), and records the attempt in the
 * delivery log. A 2xx answer delivers the message; anything else (another status, a refused
 * connection, a timeout, a destination the egress policy refuses) schedules the next attempt from the
 * retry schedule, and after the last one the message is failed and its subscription marked failing
 * through its aggregate. A later delivery to a failing subscription marks it recovered. Every POST
 * goes through the egress HTTP client, which checks the address each connection really goes to.
 */
export class WebhookDispatcher {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private running: Promise<void> | null = null;
  private stopping = false;
  private wakeUp: (() => void) | null = null;
  private woken = false;

  constructor(
    private readonly pool: Pool,
    private readonly vault: Pick<CardVault, 'decrypt'>,
    private readonly commands: Pick<CommandBus, 'execute'>,
    private readonly http: Pick<EgressHttpClient, 'post'>,
    private readonly settings: DispatcherSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Lets the deliveries in hand finish, then stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
    this.running = null;
  }

  /** New or resent messages are due: look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private get batchSize(): number {
    return this.settings.batchSize ?? 20;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.dispatchDue();
      } catch (error) {
        this.logger.error(`webhook dispatch round failed: ${String(error)}`);
      }
      if (claimed < this.batchSize) await this.sleep(this.settings.pollMs);
    }
  }

  private async sleep(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
    this.wakeUp = null;
    this.woken = false;
  }

  /** One round: claim what is due, deliver it all, record every attempt. Answers how many were claimed. */
  async dispatchDue(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((message) => this.deliver(message)));
    return claimed.length;
  }

  private async claim(): Promise<ClaimedMessage[]> {
    const now = this.now();
    const lease = new Date(now.getTime() + this.settings.timeoutMs + LEASE_MARGIN_MS);
    const result = await this.pool.query<ClaimedMessage>(
      `with due as (
         select m.id from webhook_messages m
           join event_subscriptions s on s.token = m.subscription_token
          where m.status = 'pending' and m.next_attempt_at <= $1 and not s.disabled
          order by m.next_attempt_at, m.created
          limit $2
          for update of m skip locked
       )
       update webhook_messages m set next_attempt_at = $3
         from due, event_subscriptions s
        where m.id = due.id and s.token = m.subscription_token
       returning m.id, m.subscription_token, m.program_token, m.event_type, m.body, s.url, s.secret_sealed, s.failing`,
      [now, this.batchSize, lease],
    );
    return result.rows;
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    try {
      const outcome = await this.post(message);
      const after = await this.record(message, outcome);
      await this.tellSubscription(message, after);
    } catch (error) {
      // The lease brings the message back later; nothing is lost.
      this.logger.error(`webhook message ${message.id}: ${String(error)}`);
    }
  }

  /** One HTTP attempt; never throws for the receiver's sake. */
  async post(message: Pick<ClaimedMessage, 'id' | 'event_type' | 'body' | 'url' | 'secret_sealed'>): Promise<AttemptOutcome> {
    const secret = this.vault.decrypt(message.secret_sealed);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      ...signedHeaders(secret, message.id, message.body, this.now()),
    };
    if (message.event_type === 'card_transaction.updated') headers[PRIVACY_HMAC_HEADER] = privacyHmac(secret, JSON.parse(message.body));
    const at = this.now();
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    try {
      const { status } = await this.http.post({ url: message.url, headers, body: message.body, timeoutMs: this.settings.timeoutMs });
      return { at, status, error: status >= 200 && status < 300 ? null : 'http_status', durationMs: took() };
    } catch (error) {
      if (!(error instanceof EgressFailure)) throw error;
      // The details (errno, address, port) are for the operator only; the attempt log keeps the class.
      const log = error.failure === 'refused_by_egress_policy' ? 'warn' : 'log';
      this.logger[log](`webhook message ${message.id} attempt failed: ${error.message}`);
      return { at, status: null, error: error.failure, durationMs: took() };
    }
  }

  /**
   * Writes the attempt and the message's next state in one transaction, from the row as it is now
   * (a resend may have reset its round meanwhile). Answers the status the message moved to.
   */
  private async record(message: ClaimedMessage, outcome: AttemptOutcome): Promise<'delivered' | 'failed' | 'pending' | 'unchanged'> {
    // Nothing to change (the message is gone) commits an unchanged transaction, as a rollback would leave it.
    return pgTransactions(this.pool).run(async ({ tx: client }) => {
      const current = (
        await client.query<{ status: string; attempts: number; round_attempts: number }>(
          'select status, attempts, round_attempts from webhook_messages where id = $1 for update',
          [message.id],
        )
      ).rows[0];
      if (!current) return 'unchanged';
      const attempt = current.attempts + 1;
      const round = current.round_attempts + 1;
      const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      let status: 'delivered' | 'failed' | 'pending' | 'unchanged';
      if (current.status !== 'pending') status = 'unchanged';
      else if (delivered) status = 'delivered';
      else if (round >= this.settings.retrySchedule.length) status = 'failed';
      else status = 'pending';
      await this.update(client, message.id, outcome, attempt, round, status);
      await client.query(
        `insert into webhook_attempts (message_id, attempt, subscription_token, at, url, response_status, error, duration_ms, token)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict do nothing`,
        [message.id, attempt, message.subscription_token, outcome.at, message.url, outcome.status, outcome.error, outcome.durationMs, webhookAttemptToken(message.id, attempt)],
      );
      return status;
    });
  }

  private async update(client: PoolClient, id: string, outcome: AttemptOutcome, attempt: number, round: number, status: string): Promise<void> {
    const finished = this.now();
    switch (status) {
      case 'delivered':
        await client.query(
          `update webhook_messages set status = 'delivered', attempts = $2, round_attempts = $3, last_response_status = $4,
                  next_attempt_at = null, delivered_at = $5 where id = $1`,
          [id, attempt, round, outcome.status, finished],
        );
        return;
      case 'failed':
        await client.query(
          `update webhook_messages set status = 'failed', attempts = $2, round_attempts = $3, last_response_status = $4,
                  next_attempt_at = null where id = $1`,
          [id, attempt, round, outcome.status],
        );
        return;
      case 'pending': {
        const next = new Date(finished.getTime() + this.settings.retrySchedule[round]);
        await client.query(
          `update webhook_messages set attempts = $2, round_attempts = $3, last_response_status = $4, next_attempt_at = $5 where id = $1`,
          [id, attempt, round, outcome.status, next],
        );
        return;
      }
      default:
        // Delivered or failed by another attempt meanwhile: only the count and the log grow.
        await client.query('update webhook_messages set attempts = $2 where id = $1', [id, attempt]);
    }
  }

  /** After the attempt is recorded: a failed message marks its subscription failing, a delivery to a failing one recovers it. */
  private async tellSubscription(message: ClaimedMessage, status: string): Promise<void> {
    const origin: CommandOrigin = { programToken: message.program_token, correlationId: message.id, causationId: null };
    if (status === 'failed') {
      this.logger.warn(`webhook message ${message.id} failed after its last retry; event subscription ${message.subscription_token} is failing`);
      await this.commands.execute(new MarkEventSubscriptionFailingCommand(origin, message.subscription_token, message.id));
    } else if (status === 'delivered' && message.failing) {
      await this.commands.execute(new MarkEventSubscriptionRecoveredCommand(origin, message.subscription_token, message.id));
    }
  }
}
