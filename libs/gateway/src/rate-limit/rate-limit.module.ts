import { Module } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerOptions } from '@nestjs/throttler';
import { Pool } from 'pg';
import { LEDGER_CONFIG, LedgerConfig } from '@ledger/runtime';
import { PostgresThrottlerStorage } from './postgres-throttler-storage';

/**
 * @nestjs/throttler with the limits from configuration (RATE_LIMIT_PER_SECOND, RATE_LIMIT_PER_MINUTE;
 * 0 turns a window off) and its storage: the throttler's own in-memory storage for one process, or
 * PostgreSQL counters shared by every gateway process (RATE_LIMIT_STORE=postgres).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [LEDGER_CONFIG, Pool],
      useFactory: (config: LedgerConfig, pool: Pool) => {
        const throttlers: ThrottlerOptions[] = [];
        if (config.rateLimitPerSecond > 0) throttlers.push({ name: 'second', ttl: 1000, limit: config.rateLimitPerSecond });
        if (config.rateLimitPerMinute > 0) throttlers.push({ name: 'minute', ttl: 60_000, limit: config.rateLimitPerMinute });
        return { throttlers, storage: config.rateLimitStore === 'postgres' ? new PostgresThrottlerStorage(pool) : undefined };
      },
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
