import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';

export type CheckState = 'ok' | 'failing';

export interface ReadinessReport {
  readonly ready: boolean;
  readonly draining: boolean;
  readonly checks: Record<string, CheckState>;
}

const CHECK_TIMEOUT_MS = 2000;

/**
 * Whether this process should be sent work: its dependencies answer (the database always; the
 * command transport when it has one) and it is not draining. Draining starts at SIGTERM and never
 * ends: from then on readiness is false, so a load balancer or orchestrator stops routing here while
 * in-flight work finishes. Liveness is separate and stays true until the process exits.
 */
@Injectable()
export class Readiness {
  private draining = false;
  private readonly checks = new Map<string, () => Promise<boolean> | boolean>();

  constructor(@Inject(Pool) pool: Pool) {
    this.addCheck('database', async () => {
      await pool.query('select 1');
      return true;
    });
  }

  addCheck(name: string, check: () => Promise<boolean> | boolean): void {
    this.checks.set(name, check);
  }

  beginDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async report(): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]): Promise<[string, CheckState]> => [name, (await passes(check)) ? 'ok' : 'failing']),
    );
    const checks = Object.fromEntries(entries);
    return { ready: !this.draining && entries.every(([, state]) => state === 'ok'), draining: this.draining, checks };
  }
}

async function passes(check: () => Promise<boolean> | boolean): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(check),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
