import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Pool } from 'pg';

/** What @nestjs/throttler expects back from a storage (its ThrottlerStorageRecord). */
export interface RateLimitRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

/** Expired windows are deleted once every this many increments. */
const SWEEP_EVERY = 1000;

/**
 * Fixed-window counters in PostgreSQL (`rate_limit_windows`), shared by every gateway process
 * (RATE_LIMIT_STORE=postgres). One row per throttler and caller: a hit in an ended window starts a
 * new window of `ttl` ms; a hit beyond `limit` is blocked until the window ends. The database clock
 * decides, so processes with skewed clocks still share one window. Times are returned in seconds,
 * rounded up, like the throttler's in-memory storage.
 */
export class PostgresThrottlerStorage implements ThrottlerStorage {
  private increments = 0;

  constructor(private readonly pool: Pool) {}

  // window_ends is kept to the millisecond (rounded), hence the 1 ms of slack before rounding up.
  // clock_timestamp(), not now(): now() is when the statement's transaction began, and a hit that
  // waited on the row lock of a window created meanwhile saw that window end more than a whole
  // window after its own start (a Retry-After of 2 s for a 1 s window).
  async increment(key: string, ttl: number, limit: number, _blockDuration: number, _throttlerName: string): Promise<RateLimitRecord> {
    const { rows } = await this.pool.query<{ hits: number; seconds_left: number }>(
      `insert into rate_limit_windows as w (key, hits, window_ends)
            values ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
       on conflict (key) do update set
            hits = case when w.window_ends <= clock_timestamp() then 1 else w.hits + 1 end,
            window_ends = case when w.window_ends <= clock_timestamp() then clock_timestamp() + $2 * interval '1 millisecond' else w.window_ends end
       returning hits, least(ceil($2 / 1000.0), greatest(1, ceil(extract(epoch from (window_ends - clock_timestamp())) - 0.001)))::int as seconds_left`,
      [key, ttl],
    );
    if (++this.increments % SWEEP_EVERY === 0) void this.sweep().catch(() => undefined);
    const { hits, seconds_left: secondsLeft } = rows[0];
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }

  /** Windows that ended a minute ago or more are only dead weight. */
  async sweep(): Promise<void> {
    await this.pool.query(`delete from rate_limit_windows where window_ends < now() - interval '1 minute'`);
  }
}
