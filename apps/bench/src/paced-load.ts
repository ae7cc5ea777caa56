import { Agent, request } from 'node:http';
import type { LoadResult } from './load';

export interface PacedLoadOptions {
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Requests per second, sent one every 1/rate seconds. */
  readonly rate: number;
  readonly seconds: number;
  /** Keep-alive connections at most; a request due while all are busy waits for one. */
  readonly connections: number;
  /** A fresh JSON body per request. */
  readonly body: () => string;
}

/**
 * POSTs at an even rate, each request sent when it is due whatever the answers before it (an open
 * loop), its latency counted from when it was due, so time spent waiting for a free connection
 * counts. autocannon's `overallRate` is not this: each connection sends its share of a second's
 * requests back to back from the start of every second and then waits, so at 80% of the peak most
 * of each second runs at the peak. Latency in milliseconds.
 */
export function pacedLoad(options: PacedLoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.max(1, Math.floor(options.rate * options.seconds));
  const latencies: number[] = [];
  let [errors, non2xx, answered, sent] = [0, 0, 0, 0];
  const started = performance.now();
  const dueAt = (index: number) => started + (index * 1000) / options.rate;

  return new Promise((resolve) => {
    const settle = (due: number, status: number | null) => {
      latencies.push(performance.now() - due);
      if (status === null) errors++;
      else if (status < 200 || status >= 300) non2xx++;
      if (++answered === total) finish();
    };
    const send = (due: number) => {
      const body = options.body();
      const outgoing = request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...options.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => response.resume().on('end', () => settle(due, response.statusCode ?? null)),
      );
      outgoing.on('error', () => settle(due, null));
      outgoing.end(body);
    };
    // Sends every request already due, then sleeps until the next one is.
    const tick = () => {
      while (sent < total && dueAt(sent) <= performance.now()) send(dueAt(sent++));
      if (sent < total) setTimeout(tick, Math.max(0, dueAt(sent) - performance.now()));
    };
    const finish = () => {
      agent.destroy();
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const at = (quantile: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))]);
      resolve({ requestsPerSecond: Math.round(total / seconds), p50: at(0.5), p99: at(0.99), max: Math.round(latencies[latencies.length - 1]), errors, non2xx, total });
    };
    tick();
  });
}
