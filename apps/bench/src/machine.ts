import { execSync } from 'node:child_process';
import os from 'node:os';

/** What the numbers were measured on: every result names its machine and commit. */
export function machine(): { cores: number; memoryGiB: number; cpu: string; node: string; commit: string; date: string } {
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // Not a checkout: the date and machine still identify the run.
  }
  return {
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    commit,
    date: new Date().toISOString(),
  };
}
