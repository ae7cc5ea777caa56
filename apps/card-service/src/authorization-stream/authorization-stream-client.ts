import { Injectable, Logger } from '@nestjs/common';
import { DECLINE_REASONS, DeclineReason } from '@ledger/domain';
import { signedHeaders } from '@ledger/messaging';

/** What the program's endpoint is asked: the authorization as the card saw it. */
export interface AuthorizationStreamRequest {
  readonly token: string;
  readonly status: 'AUTHORIZATION';
  readonly amount: number;
  readonly merchant_amount: number;
  readonly merchant_currency: string;
  readonly merchant: { acceptor_id: string; city: string; country: string; descriptor: string; mcc: string; state: string };
  readonly card: { token: string; last_four: string; memo: string; state: string; type: string; spend_limit: number; spend_limit_duration: string; hostname: string };
  readonly partial_approval_capable: boolean;
  readonly created: string;
}

export interface AuthorizationStreamVerdict {
  /** null: the endpoint approved. */
  readonly decline: DeclineReason | null;
  /** A smaller approved amount, when the request allowed partial approval and the endpoint gave one. */
  readonly approvedAmount?: number;
}

const KNOWN_REASONS = new Set<string>(DECLINE_REASONS);

/**
 * Asks the program's authorization endpoint, signed like our webhooks. The endpoint's answer
 * decides; a silent one is a timeout (UNKNOWN_HOST_TIMEOUT), an unreachable or unusable one a
 * switch failure (SWITCH_INOPERATIVE_ADVICE), and its INSUFFICIENT_FUNDS is reported as
 * INSUFFICIENT_FUNDS_PRELOAD, as the spec says.
 */
@Injectable()
export class AuthorizationStreamClient {
  private readonly logger = new Logger(AuthorizationStreamClient.name);

  async ask(endpoint: { url: string; timeoutMs: number; secret: string }, request: AuthorizationStreamRequest): Promise<AuthorizationStreamVerdict> {
    const body = JSON.stringify(request);
    let response: Response;
    try {
      response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(endpoint.secret, request.token, body) },
        body,
        signal: AbortSignal.timeout(endpoint.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      this.logger.warn(`authorization stream ${timedOut ? 'timed out' : 'unreachable'} for ${request.token}: ${(error as Error).message}`);
      return { decline: timedOut ? 'UNKNOWN_HOST_TIMEOUT' : 'SWITCH_INOPERATIVE_ADVICE' };
    }
    const answer = await this.answerOf(response);
    if (answer === undefined) return { decline: 'SWITCH_INOPERATIVE_ADVICE' };
    if (answer === 'timeout') return { decline: 'UNKNOWN_HOST_TIMEOUT' };
    return this.verdict(answer, request);
  }

  private async answerOf(response: Response): Promise<{ result?: unknown; approved_amount?: unknown } | 'timeout' | undefined> {
    if (!response.ok) return undefined;
    try {
      return (await response.json()) as { result?: unknown; approved_amount?: unknown };
    } catch (error) {
      return (error as Error).name === 'TimeoutError' ? 'timeout' : undefined;
    }
  }

  private verdict(answer: { result?: unknown; approved_amount?: unknown }, request: AuthorizationStreamRequest): AuthorizationStreamVerdict {
    if (answer.result === 'APPROVED') {
      const partial = answer.approved_amount;
      const usable = request.partial_approval_capable && Number.isInteger(partial) && (partial as number) > 0 && (partial as number) < request.amount;
      return usable ? { decline: null, approvedAmount: partial as number } : { decline: null };
    }
    if (answer.result === 'INSUFFICIENT_FUNDS') return { decline: 'INSUFFICIENT_FUNDS_PRELOAD' };
    if (typeof answer.result === 'string' && KNOWN_REASONS.has(answer.result)) return { decline: answer.result as DeclineReason };
    return { decline: 'SWITCH_INOPERATIVE_ADVICE' };
  }
}
