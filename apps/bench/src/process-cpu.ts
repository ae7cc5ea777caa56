import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ on every platform Node runs on here (x86_64, arm64): /proc's CPU times are in these ticks. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used, in milliseconds; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is 14th, stime 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number {
  try {
    return Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The PostgreSQL server listening on this port: its postmaster and every process it started (backends, writers). */
function postgresProcesses(port: number): number[] {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  const postmaster = pids.find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return /postgres$/.test(args[0]) && args.includes('-p') && args[args.indexOf('-p') + 1] === String(port);
    } catch {
      return false;
    }
  });
  return postmaster === undefined ? [] : [postmaster, ...pids.filter((pid) => parentOf(pid) === postmaster)];
}

export interface CpuReading {
  readonly serviceMs: number;
  /** Null where the server is not this machine's or not found by its port (DATABASE_URL elsewhere). */
  readonly postgresMs: number | null;
}

/**
 * CPU time of the service and of the PostgreSQL server so far. A backend that exits between two
 * readings takes its time with it; the service's pool keeps its connections, so over a load run
 * that loss is the reconnects' only.
 */
export function cpuReading(servicePid: number, postgresPort: number | null): CpuReading {
  const postgres = postgresPort === null ? [] : postgresProcesses(postgresPort);
  return { serviceMs: cpuMs(servicePid), postgresMs: postgres.length === 0 ? null : postgres.reduce((sum, pid) => sum + cpuMs(pid), 0) };
}

/** CPU milliseconds per answered request between two readings. */
export function cpuPerRequest(before: CpuReading, after: CpuReading, answered: number): CpuReading {
  const per = (a: number, b: number) => Math.round(((b - a) / Math.max(1, answered)) * 1000) / 1000;
  return {
    serviceMs: per(before.serviceMs, after.serviceMs),
    postgresMs: before.postgresMs === null || after.postgresMs === null ? null : per(before.postgresMs, after.postgresMs),
  };
}
