import { LEDGER_ROLES, LedgerRole } from '../ledger-app.module';

/**
 * What makes one process of the distributed set differ from another: which roles it runs and how it
 * reaches the roles it does not run. Unset, it is the embedded default: every role, no transport.
 * (Kept apart from LedgerConfig: these settings belong to the composition, not to any one module.)
 */
export interface ProcessConfig {
  /** LEDGER_ROLES: comma-separated roles; unset, all of them (the embedded default). */
  readonly roles: readonly LedgerRole[];
  /** NATS_URL: commands for roles this process lacks go over NATS; unset, nothing is forwarded. */
  readonly natsUrl: string | null;
  /** NATS_SUBJECT_PREFIX: subjects are `<prefix>.commands.<role>`; lets several ledgers share one NATS. */
  readonly subjectPrefix: string;
  /** COMMAND_TIMEOUT_MS: how long a forwarded command may take before the caller gets 503. */
  readonly commandTimeoutMs: number;
  /** HEALTH_PORT: where a process without the gateway role answers /health/live and /health/ready. */
  readonly healthPort: number;
  /** DRAIN_DELAY_MS: after SIGTERM, readiness is 503 this long before intake stops (load balancers notice). */
  readonly drainDelayMs: number;
  /** SHUTDOWN_TIMEOUT_MS: in-flight work gets this long to finish after SIGTERM; then the process exits anyway. */
  readonly shutdownTimeoutMs: number;
  /** STARTUP_TIMEOUT_MS: how long the gateway retries its start-up commands while no card-service answers. */
  readonly startupTimeoutMs: number;
}

export function loadProcessConfig(env: NodeJS.ProcessEnv = process.env): ProcessConfig {
  return {
    roles: parseRoles(env.LEDGER_ROLES),
    natsUrl: env.NATS_URL || null,
    subjectPrefix: subjectPrefix(env.NATS_SUBJECT_PREFIX),
    commandTimeoutMs: positive('COMMAND_TIMEOUT_MS', env.COMMAND_TIMEOUT_MS, 10_000),
    healthPort: integer('HEALTH_PORT', env.HEALTH_PORT, 0),
    drainDelayMs: integer('DRAIN_DELAY_MS', env.DRAIN_DELAY_MS, 0),
    shutdownTimeoutMs: positive('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 30_000),
    startupTimeoutMs: positive('STARTUP_TIMEOUT_MS', env.STARTUP_TIMEOUT_MS, 120_000),
  };
}

export function parseRoles(text: string | undefined): readonly LedgerRole[] {
  if (text === undefined || text.trim() === '') return LEDGER_ROLES;
  const roles = text.split(',').map((role) => role.trim()).filter(Boolean);
  for (const role of roles) {
    if (!(LEDGER_ROLES as readonly string[]).includes(role)) throw new Error(`LEDGER_ROLES: unknown role ${role}; roles are ${LEDGER_ROLES.join(', ')}`);
  }
  if (roles.length === 0) throw new Error('LEDGER_ROLES names no role');
  // Module order is the canonical one, whatever order the operator wrote.
  return LEDGER_ROLES.filter((role) => roles.includes(role));
}

function subjectPrefix(value: string | undefined): string {
  const prefix = value || 'ledger';
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) throw new Error(`NATS_SUBJECT_PREFIX must be dot-separated tokens of letters, digits, _ and -; got ${prefix}`);
  return prefix;
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return parsed;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  const parsed = integer(name, value, fallback);
  if (parsed === 0) throw new Error(`${name} must be greater than 0`);
  return parsed;
}
