import { Injectable, Logger } from '@nestjs/common';
import { DECLINE_REASONS, DeclineReason } from '@ledger/domain';
import { EgressFailure, EgressHttpClient, EgressResponse } from '@ledger/egress';
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
 * Asks the program's authorization endpoint, signed like our webhooks, through the egress HTTP client
 * (so only where the egress policy allows, checked at each connection; redirects are not followed).
 * The endpoint's answer decides; a silent one is a timeout (UNKNOWN_HOST_TIMEOUT), an unreachable,
 * refused or unusable one a switch failure (SWITCH_INOPERATIVE_ADVICE), and its INSUFFICIENT_FUNDS is
 * reported as INSUFFICIENT_FUNDS_PRELOAD, as the spec says. The decline reason is all the program
 * learns of a failure; the details go to the server log.
 */
@Injectable()
export class AuthorizationStreamClient {
  private readonly logger = new Logger(AuthorizationStreamClient.name);

  constructor(private readonly http: EgressHttpClient) {}

  async ask(endpoint: { url: string; timeoutMs: number; secret: string }, request: AuthorizationStreamRequest): Promise<AuthorizationStreamVerdict> {
    const body = JSON.stringify(request);
    let response: EgressResponse;
    try {
      response = await this.http.post({
        url: endpoint.url,
        headers: { 'content-type': 'application/json', ...signedHeaders(endpoint.secret, request.token, body) },
        body,
        timeoutMs: endpoint.timeoutMs,
        readBody: true,
      });
    } catch (error) {
      this.logger.warn(`authorization stream failed for ${request.token}: ${String(error)}`);
      return { decline: error instanceof EgressFailure && error.failure === 'timeout' ? 'UNKNOWN_HOST_TIMEOUT' : 'SWITCH_INOPERATIVE_ADVICE' };
    }
    const answer = answerOf(response);
    return answer === undefined ? { decline: 'SWITCH_INOPERATIVE_ADVICE' } : this.verdict(answer, request);
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

/** The endpoint's JSON answer, when it answered 2xx with JSON. */
function answerOf(response: EgressResponse): { result?: unknown; approved_amount?: unknown } | undefined {
  if (response.status < 200 || response.status >= 300) return undefined;
  try {
    const answer: unknown = JSON.parse(response.body);
    return answer !== null && typeof answer === 'object' ? (answer as { result?: unknown; approved_amount?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}
