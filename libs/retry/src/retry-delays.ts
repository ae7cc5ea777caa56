import { ExponentialBackoff, noJitterGenerator, type IBackoff } from 'cockatiel';

/** Exponential waits between attempts: the first, doubled after each failure, never above the longest. */
export interface RetryDelayPolicy {
  readonly firstMs: number;
  readonly longestMs: number;
}

/**
 * The waits of something that keeps trying until it is stopped (a Kafka consumer's session, a LISTEN
 * connection, an event stream): cockatiel's exponential backoff, and back to the first wait after a
 * success. Attempts are not counted: such a loop gives up only when its owner stops it, so the bound
 * is on the wait. No jitter: each process retries one connection of its own, not a crowd of requests
 * against one server, and the waits stay the ones the logs print.
 */
export class RetryDelays {
  private readonly backoff: ExponentialBackoff<number>;
  private upcoming: IBackoff<unknown>;

  constructor(policy: RetryDelayPolicy) {
    if (!(policy.firstMs > 0 && policy.longestMs >= policy.firstMs)) throw new RangeError(`retry delays need 0 < first <= longest, got ${policy.firstMs} and ${policy.longestMs}`);
    this.backoff = new ExponentialBackoff({ initialDelay: policy.firstMs, maxDelay: policy.longestMs, generator: noJitterGenerator });
    this.upcoming = this.backoff.next();
  }

  /** The wait before the next attempt, after a failure; the one after it is longer, up to the longest. */
  next(): number {
    const wait = this.upcoming.duration;
    this.upcoming = this.upcoming.next(undefined);
    return wait;
  }

  /** After a success: the next failure waits the first delay again. */
  reset(): void {
    this.upcoming = this.backoff.next();
  }
}
