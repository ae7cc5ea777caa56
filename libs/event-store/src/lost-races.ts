import { ExponentialBackoff, type IBackoff } from 'cockatiel';
import type { WrongExpectedVersionError } from './event-store.port';

/**
 * Enough for dozens of writers racing on one stream in different processes (within one, a stream's
 * commands queue instead: stream-queue.ts).
 */
const MOST_ATTEMPTS = 200;

/**
 * Waits between attempts: cockatiel's exponential backoff with its default decorrelated jitter, so
 * writers that lost to the same append spread out instead of colliding again, from 2 ms up to 50 ms.
 */
const WAITS = new ExponentialBackoff({ initialDelay: 2, maxDelay: 50 });

/**
 * The bounded retry policy of one decision that may lose races to other writers (a stale expected
 * version): attempts are counted and limited, and each loss waits a little longer, at random. An
 * attempt taken on an assumed or kept fold costs no wait: the read that follows is the normal path.
 */
export class LostRaces {
  private attempts = 0;
  private wait: IBackoff<unknown> = WAITS.next();

  /** After a lost race: rethrows it once the attempts are spent, else waits before the next one. */
  async after(error: WrongExpectedVersionError, { assumedFold }: { assumedFold: boolean }): Promise<void> {
    this.attempts += 1;
    if (this.attempts >= MOST_ATTEMPTS) throw error;
    if (assumedFold) return;
    const duration = this.wait.duration;
    this.wait = this.wait.next(undefined);
    await new Promise((resolve) => setTimeout(resolve, duration));
  }
}
