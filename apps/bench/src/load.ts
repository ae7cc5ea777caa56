import autocannon from 'autocannon';

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly errors: number;
  /** Answers outside 2xx (declines count here when a scenario expects approvals). */
  readonly non2xx: number;
  readonly total: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  /** A fresh body per request (autocannon asks once per request). */
  readonly body?: () => string;
  /** Fixed request rate for the whole run; unset means as fast as the service answers. */
  readonly overallRate?: number;
  readonly path?: () => string;
}

/** autocannon with a body or path made per request; latency in milliseconds. */
export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        overallRate: options.overallRate,
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...(options.headers ?? {}) },
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              ...(options.path ? { path: options.path() } : {}),
              ...(options.body ? { body: options.body() } : {}),
            }),
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          requestsPerSecond: Math.round(result.requests.average),
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          total: result.requests.total,
        });
      },
    );
    instance.on('error', reject);
  });
}
