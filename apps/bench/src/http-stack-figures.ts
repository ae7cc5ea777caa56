import { Controller, HttpCode, INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { configureFastifyHttp, configureHttp, HttpStack, LedgerFastifyAdapter, SERVED_HTTP_STACK } from '@ledger/gateway';
import { load, LoadResult } from './load';
import type { TargetRow } from './report';

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

/** A route that does no work, behind every HTTP rule of ours (ids, 415, JSON parser, input checks, validation, exact JSON) on the given stack. */
async function bareApp(stack: HttpStack): Promise<INestApplication> {
  if (stack === 'fastify') {
    const app = await NestFactory.create(BareModule, new LedgerFastifyAdapter(), { bodyParser: false, logger: false });
    configureFastifyHttp(app);
    return app;
  }
  const app = await NestFactory.create(BareModule, { bodyParser: false, logger: false });
  configureHttp(app);
  return app;
}

export async function bareRoute(stack: HttpStack, concurrency: number, seconds: number): Promise<LoadResult> {
  const app = await bareApp(stack);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  try {
    return await load({ url: `http://127.0.0.1:${port}/bare`, connections: concurrency, seconds, body: () => JSON.stringify({ amount: 100 }) });
  } finally {
    await app.close();
  }
}

export interface HttpStackFigures {
  readonly express: LoadResult;
  readonly fastify: LoadResult;
}

/** Both stacks in the same run, alternating (express, fastify, express, fastify), best of each: the machine's swings hit both alike. */
export async function httpStackFigures(concurrency: number, seconds: number): Promise<HttpStackFigures> {
  const runs: Record<HttpStack, LoadResult[]> = { express: [], fastify: [] };
  for (const stack of ['express', 'fastify', 'express', 'fastify'] as const) runs[stack].push(await bareRoute(stack, concurrency, Math.max(1, Math.round(seconds / 2))));
  const best = (results: LoadResult[]) => results.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  return { express: best(runs.express), fastify: best(runs.fastify) };
}

/** Issue 14's HTTP-stack row: the faster stack serves (the ratio of the two is the figure). */
export function httpStackTargets(figures: HttpStackFigures): TargetRow[] {
  const ratio = figures.fastify.requestsPerSecond / Math.max(1, figures.express.requestsPerSecond);
  const faster: HttpStack = ratio > 1 ? 'fastify' : 'express';
  return [
    {
      figure: 'bare route: NestJS on Express vs on Fastify (same run)',
      measured: `Express ${figures.express.requestsPerSecond}/s (p99 ${figures.express.p99} ms), Fastify ${figures.fastify.requestsPerSecond}/s (p99 ${figures.fastify.p99} ms), ${ratio.toFixed(2)}x; serving with ${SERVED_HTTP_STACK}`,
      target: 'serve with the faster stack',
      met: SERVED_HTTP_STACK === faster,
    },
  ];
}
