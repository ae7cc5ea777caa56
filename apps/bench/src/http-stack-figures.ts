import { Controller, HttpCode, INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { configureFastifyHttp, configureHttp, HttpStack, LedgerFastifyAdapter, SERVED_HTTP_STACK } from '@ledger/gateway';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { load, LoadResult } from './load';
import { cpuPerRequest, cpuReading } from './process-cpu';
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

/**
 * Issue 24's edge figure: what a request that does nothing costs the served stack (the service's own
 * process, every global hook, guard, interceptor, filter and the request logger) against plain
 * Fastify serving the same path and body. `GET /health/live` is that request: it passes every global
 * stage an API route passes (Fastify hooks, the intake and pino-http middleware, the rate-limit
 * guard, the declared-input, idempotency and reads-after-writes interceptors, the error filter) and
 * does no work of its own; what it skips, the api-key guard and the body pipes, is per-route work the
 * authorization route's own figures carry.
 */
export const BARE_ROUTE = '/health/live';

/** A server to measure: where it answers and the process whose CPU it spends. */
export interface MeasuredServer {
  readonly baseUrl: string;
  readonly pid: number;
}

export interface BareRouteRun {
  readonly load: LoadResult;
  /** The server process's CPU (user + system) per answered request, in milliseconds. */
  readonly cpuMsPerRequest: number;
}

export interface BareRouteFigures {
  readonly served: BareRouteRun;
  readonly plainFastify: BareRouteRun;
}

const WARM_UP_SECONDS = 1;

/** Load on the bare route, the server's CPU read from /proc before and after. */
async function measureBareRoute(server: MeasuredServer, connections: number, seconds: number): Promise<BareRouteRun> {
  const url = `${server.baseUrl}${BARE_ROUTE}`;
  const before = cpuReading(server.pid, null);
  const result = await load({ url, method: 'GET', connections, seconds });
  return { load: result, cpuMsPerRequest: cpuPerRequest(before, cpuReading(server.pid, null), result.total).serviceMs };
}

/** Two runs summed: requests and CPU of both, the latencies of the one that answered more. */
function combined(a: BareRouteRun, b: BareRouteRun): BareRouteRun {
  const total = a.load.total + b.load.total;
  const cpuMsPerRequest = Math.round(((a.cpuMsPerRequest * a.load.total + b.cpuMsPerRequest * b.load.total) / Math.max(1, total)) * 1000) / 1000;
  const better = b.load.requestsPerSecond > a.load.requestsPerSecond ? b : a;
  return { load: { ...better.load, total, errors: a.load.errors + b.load.errors, non2xx: a.load.non2xx + b.load.non2xx }, cpuMsPerRequest };
}

/**
 * The running service (as main.ts started it) and plain Fastify in a process of its own, under the
 * same load, alternating (service, Fastify, service, Fastify) so the machine's swings hit both alike;
 * each is warmed up first (the JIT), unmeasured.
 */
export async function bareRouteFigures(service: MeasuredServer, connections: number, seconds: number): Promise<BareRouteFigures> {
  const fastify = await startPlainFastify();
  try {
    const half = Math.max(1, Math.round(seconds / 2));
    for (const server of [service, fastify]) await load({ url: `${server.baseUrl}${BARE_ROUTE}`, method: 'GET', connections, seconds: WARM_UP_SECONDS });
    const served = await measureBareRoute(service, connections, half);
    const plain = await measureBareRoute(fastify, connections, half);
    const servedAgain = await measureBareRoute(service, connections, half);
    const plainAgain = await measureBareRoute(fastify, connections, half);
    return { served: combined(served, servedAgain), plainFastify: combined(plain, plainAgain) };
  } finally {
    await fastify.stop();
  }
}

/** Issue 24's row: a route that does nothing costs the served stack at most 1.5x plain Fastify's CPU. */
export function bareRouteTargets(figures: BareRouteFigures): TargetRow[] {
  const { served, plainFastify } = figures;
  const ratio = served.cpuMsPerRequest / Math.max(0.001, plainFastify.cpuMsPerRequest);
  const describe = (run: BareRouteRun) => `${run.cpuMsPerRequest} ms (${run.load.requestsPerSecond}/s, p99 ${run.load.p99} ms)`;
  return [
    {
      figure: 'bare route: served stack vs plain Fastify, CPU per request',
      measured: `GET ${BARE_ROUTE}: served ${describe(served)}, plain Fastify ${describe(plainFastify)}, ${ratio.toFixed(2)}x`,
      target: '<= 1.5x',
      met: ratio <= 1.5 && served.load.non2xx === 0 && served.load.errors === 0,
    },
  ];
}

/** plain-fastify.ts as its own process, with the heap settings `npm start` gives the service. */
function startPlainFastify(): Promise<MeasuredServer & { stop(): Promise<void> }> {
  const entry = path.join(__dirname, 'plain-fastify.js');
  const child = spawn(process.execPath, ['--max-old-space-size=192', '--max-semi-space-size=8', entry], { env: { ...process.env, BARE_ROUTE }, stdio: ['ignore', 'pipe', 'inherit'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = () =>
    new Promise<void>((done) => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on (\d+)/.exec(output)?.[1];
      if (port) resolve({ baseUrl: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop });
    });
    child.once('exit', (code) => reject(new Error(`plain Fastify exited with ${code}: ${output}`)));
  });
}
