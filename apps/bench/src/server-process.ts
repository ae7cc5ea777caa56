import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_V8_FLAGS } from '@ledger/runtime';

/** What `npm start` gives the service (package.json); the bench must run what users run. */
export const DEFAULT_MAX_HEAP_MB = 192;

export interface ServerProcess {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly pid: number;
  /** Peak resident memory of the service process so far (VmHWM), in MiB. */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

/**
 * The service under test runs as its own process, as `npm start` runs it (same heap cap), so its memory and CPU are
 * its own and not the load generator's.
 */
export function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const root = process.cwd();
  // BENCH_CPU_PROF_DIR: a V8 CPU profile of the service for the whole run, written there when it stops.
  const profile = env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF_DIR}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, `--max-old-space-size=${env.LEDGER_MAX_HEAP_MB ?? DEFAULT_MAX_HEAP_MB}`, ...SERVICE_V8_FLAGS, path.join(root, 'dist/apps/server/src/main.js')], {
    cwd: root,
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The service must not outlive the bench (a bench stopped by a signal left services running on their databases).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  // BENCH_SERVICE_LOG: the service's output appended to this file, for a look at what it said during the run.
  const keep = env.BENCH_SERVICE_LOG ? (chunk: Buffer) => appendFileSync(env.BENCH_SERVICE_LOG as string, chunk) : null;
  if (keep) {
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /base URL:\s+(\S+)/.exec(output);
      const key = /sandbox api-key:\s+(\S+)/.exec(output);
      if (url && key) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep draining so a chatty log never blocks the service on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({
          baseUrl: url[1],
          apiKey: key[1],
          pid: child.pid ?? 0,
          peakRssMiB: () => peakRss(child.pid ?? 0),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}:\n${output}`)));
  });
}

function peakRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    return Math.round(kib / 1024);
  } catch {
    return 0;
  }
}
