import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVICE_V8_FLAGS } from '@ledger/runtime';
import { load, LoadResult } from './load';
import { cpuReading } from './process-cpu';
import type { TargetRow } from './report';
import { DEFAULT_MAX_HEAP_MB } from './server-process';

/**
 * Issue 24's edge figure: what a request that does nothing costs the served stack (the service's own
 * process, every global hook, guard, interceptor, filter and the request logger) against plain
 * Fastify serving the same path and body. `GET /health/live` is that request: it passes every global
 * stage an API route passes (Fastify hooks, the intake and request-logger middleware, the global
 * guards, the error filter) and does no work of its own; what it skips, the api-key guard, the
 * program API's guards and the body pipes, is per-route work the authorization route's own figures
 * carry.
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
  // Not rounded here: a request costs tens of microseconds, and a ratio of two figures rounded to the
  // microsecond would swing by a tenth from the rounding alone.
  return { load: result, cpuMsPerRequest: (cpuReading(server.pid, null).serviceMs - before.serviceMs) / Math.max(1, result.total) };
}

/** Two runs summed: requests and CPU of both, the latencies of the one that answered more. */
function combined(a: BareRouteRun, b: BareRouteRun): BareRouteRun {
  const total = a.load.total + b.load.total;
  const cpuMsPerRequest = (a.cpuMsPerRequest * a.load.total + b.cpuMsPerRequest * b.load.total) / Math.max(1, total);
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
  const describe = (run: BareRouteRun) => `${run.cpuMsPerRequest.toFixed(4)} ms (${run.load.requestsPerSecond}/s, p99 ${run.load.p99} ms)`;
  return [
    {
      figure: 'bare route: served stack vs plain Fastify, CPU per request',
      measured: `GET ${BARE_ROUTE}: served ${describe(served)}, plain Fastify ${describe(plainFastify)}, ${ratio.toFixed(2)}x`,
      target: '<= 1.5x',
      met: ratio <= 1.5 && served.load.non2xx === 0 && served.load.errors === 0,
    },
  ];
}

/** plain-fastify.ts as its own process, with the heap cap and V8 flags `npm start` gives the service. */
function startPlainFastify(): Promise<MeasuredServer & { stop(): Promise<void> }> {
  const entry = path.join(__dirname, 'plain-fastify.js');
  const child = spawn(process.execPath, [`--max-old-space-size=${DEFAULT_MAX_HEAP_MB}`, ...SERVICE_V8_FLAGS, entry], { env: { ...process.env, BARE_ROUTE }, stdio: ['ignore', 'pipe', 'inherit'] });
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
