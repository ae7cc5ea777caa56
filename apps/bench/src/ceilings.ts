import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Pool } from 'pg';
import { configureHttp } from '@ledger/gateway';
import { load, LoadResult } from './load';

/**
 * The two ceilings the authorization rate is judged against, measured in the same run at the same
 * concurrency: what the PostgreSQL server sustains in single-row INSERT + COMMIT transactions, and
 * what the same HTTP stack (NestJS on Express, our body parser and validation pipe) answers when a
 * route does no work at all.
 */
export async function commitCeiling(databaseUrl: string, concurrency: number, seconds: number): Promise<{ commitsPerSecond: number }> {
  const pool = new Pool({ connectionString: databaseUrl, max: concurrency });
  await pool.query('create table if not exists bench_commit_ceiling (id bigserial primary key, payload text not null)');
  const until = Date.now() + seconds * 1000;
  let commits = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await pool.query('insert into bench_commit_ceiling (payload) values ($1)', ['x'.repeat(200)]);
        commits++;
      }
    }),
  );
  await pool.query('drop table bench_commit_ceiling');
  await pool.end();
  return { commitsPerSecond: Math.round(commits / seconds) };
}

@Controller()
class BareController {
  @Post('bare')
  @HttpCode(200)
  bare(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

export async function bareRouteCeiling(concurrency: number, seconds: number): Promise<LoadResult> {
  const app = await NestFactory.create(BareModule, { bodyParser: false, logger: false });
  configureHttp(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  try {
    return await load({ url: `http://127.0.0.1:${port}/bare`, connections: concurrency, seconds, body: () => JSON.stringify({ amount: 100 }) });
  } finally {
    await app.close();
  }
}
