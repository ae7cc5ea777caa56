import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { API_KEY_DIRECTORY, ApiKeyDirectory, authenticate } from '@ledger/auth';
import { EdgeError, RetryHeaders } from '../http/errors';

/** Privacy's wording, one per window. */
export const RATE_LIMITED_MESSAGES: Record<string, string> = {
  second: 'Rate limited, too many requests per second. Please try again later.',
  minute: 'Rate limited, too many requests per minute. Please try again later.',
};

/** Over a rate limit: 429 with Privacy's wording; `retryAfterSeconds` is when the window starts over. */
export class RateLimited extends EdgeError {
  readonly status = 429;
  override readonly retry: RetryHeaders;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retry = { 'x-should-retry': 'true', 'retry-after': String(retryAfterSeconds) };
  }
}

const TRACKER = Symbol('rate-limit tracker');
const TIGHTEST = Symbol('rate-limit tightest remaining');

interface RateLimitedRequest {
  path?: string;
  url?: string;
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
  [TRACKER]?: Promise<string>;
  [TIGHTEST]?: number;
}

/**
 * Counts every request against its program (the api-key's) or, without a valid key, against the
 * client's IP, in each configured window (`second`, `minute`). The first guard of the program API's
 * controllers and the dashboard's (api-routes.ts), so before the api-key guard: it looks the key up itself. Every answer carries `x-requests-remaining` (of the
 * tightest window); past the limit the answer is 429 with Privacy's message and `Retry-After`
 * (seconds until the window starts over; only a 429 has it, see RateLimited).
 * The probes under /health are never limited: no controller of theirs names this guard.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(API_KEY_DIRECTORY) private readonly directory: ApiKeyDirectory,
  ) {
    super(options, storage, reflector);
  }

  override async onModuleInit(): Promise<void> {
    const configured = Array.isArray(this.options) ? this.options : this.options.throttlers;
    if (configured.length > 0) return super.onModuleInit();
    this.throttlers = []; // RATE_LIMIT_PER_SECOND=0 and RATE_LIMIT_PER_MINUTE=0: limits are off.
    this.commonOptions = {};
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return this.throttlers.length === 0;
  }

  protected override getTracker(req: Record<string, any>): Promise<string> {
    const request = req as RateLimitedRequest;
    const header = request.headers.authorization;
    request[TRACKER] ??= authenticate(this.directory, typeof header === 'string' ? header : undefined).then(
      (programToken) => `program:${programToken}`,
      () => `ip:${normalizeIp(request.ip ?? 'unknown', this.ipv6SubnetPrefix)}`,
    );
    return request[TRACKER];
  }

  /** One counter per window and caller, across every route. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context);
    const request = req as RateLimitedRequest;
    const name = throttler.name ?? 'default';
    const tracker = await getTracker(req, context);
    const record = await this.storageService.increment(generateKey(context, tracker, name), ttl, limit, blockDuration, name);
    const remaining = Math.max(0, limit - record.totalHits);
    if (record.isBlocked || request[TIGHTEST] === undefined || remaining < request[TIGHTEST]) {
      request[TIGHTEST] = remaining;
      this.setResponseHeader(res, 'x-requests-remaining', remaining);
    }
    if (record.isBlocked) {
      throw new RateLimited(RATE_LIMITED_MESSAGES[name] ?? 'Rate limited, too many requests. Please try again later.', Math.max(1, record.timeToBlockExpire));
    }
    return true;
  }
}
