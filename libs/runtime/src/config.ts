import path from 'node:path';
import { EgressPolicy, parseAllowlist, SANDBOX_EGRESS_ALLOWLIST } from '@ledger/egress';

/**
 * Everything an operator can set, read once from the environment. The README's configuration table
 * lists the same names.
 */
export interface LedgerConfig {
  readonly port: number;
  readonly host: string;
  /** Unset: an embedded PostgreSQL keeps its data under dataDir. */
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly embeddedPostgresPort: number;
  readonly sandboxApiKey: string | null;
  /** Simulation endpoints answer only in sandbox mode; elsewhere they are 404. */
  readonly sandbox: boolean;
  /** 32-byte key for card secrets; unset: generated once and kept under dataDir. */
  readonly cardDataKey: string | null;
  /** PAN encryption keys, newest first (CARD_ENCRYPTION_KEYS); empty: derived from the card data key. */
  readonly cardEncryptionKeys: readonly string[];
  /** Ed25519 key that signs audit digests (LEDGER_SIGNING_KEY, PEM or base64 PKCS#8); unset: generated once and kept under dataDir. */
  readonly ledgerSigningKey: string | null;
  /** Retired digest keys' public keys (LEDGER_VERIFY_KEYS, comma-separated raw hex, PEM or base64 SPKI), so old digests still verify. */
  readonly ledgerVerifyKeys: readonly string[];
  /** How often the publisher role puts a signed digest of the log on Kafka (LEDGER_DIGEST_INTERVAL_MS); 0: never. */
  readonly ledgerDigestIntervalMs: number;
  /**
   * Whether the ledger-wide commitment is kept (LEDGER_COMMITMENT, on by default). Off, the tree is
   * not followed, no digest is published and the audit digest routes answer 503: for the bench's
   * measurement of what the commitment costs authorizations, not for running a ledger.
   */
  readonly ledgerCommitment: boolean;
  /** How long an audit request waits for the kept tree to reach the log's head (LEDGER_COMMITMENT_WAIT_MS). */
  readonly ledgerCommitmentWaitMs: number;
  readonly cardBin: string;
  readonly eventStore: 'postgres' | 'eventstoredb';
  readonly eventStoreDbUrl: string | null;
  /** How long a write waits for the read models to show it before answering. */
  readonly readYourWritesTimeoutMs: number;
  /** Kafka brokers ("host:port,..."); unset: no Kafka, webhooks are fed from a PostgreSQL outbox. */
  readonly kafkaBrokers: readonly string[] | null;
  /**
   * Webhook retry schedule, in ms: entry n is the wait before attempt n+1 (the first after the
   * message is enqueued); after the last entry's attempt fails the message is failed.
   */
  readonly webhookRetrySchedule: readonly number[];
  /** How often the webhook dispatcher looks for due messages. */
  readonly webhookPollMs: number;
  /** How long one webhook delivery may take before it counts as failed. */
  readonly webhookTimeoutMs: number;
  /** How long an event stream (GET /v1/events/stream) stays silent before a heartbeat comment. */
  readonly eventStreamHeartbeatMs: number;
  /** Kafka consumer group of the webhook feeder (Kafka mode only). */
  readonly webhookKafkaGroupId: string;
  /** How long the outcome of a request sent with an Idempotency-Key is kept and replayed. */
  readonly idempotencyTtlHours: number;
  /**
   * Requests per second each program (or, without a valid api-key, each client IP) may make; 0: no
   * limit. Unset: 100, or no limit in sandbox mode (see RATE_LIMIT_DEFAULTS).
   */
  readonly rateLimitPerSecond: number;
  /** Requests per minute, counted the same way; 0: no limit. Unset: 3000, or no limit in sandbox mode. */
  readonly rateLimitPerMinute: number;
  /** Where rate-limit counters live: this process's memory, or PostgreSQL (shared by every gateway process). */
  readonly rateLimitStore: 'memory' | 'postgres';
  /** pino level of the JSON log lines on stdout (fatal, error, warn, info, debug, trace, silent). */
  readonly logLevel: string;
  /**
   * Bounds on every HTTP connection the process listens with (the API and the health probes), so a
   * client that sends slowly or not at all cannot hold a connection: the request line and headers
   * must arrive within headersMs and the whole request, body included, within requestMs (408, then
   * the connection closes); a connection with no bytes either way for idleMs is closed; a keep-alive
   * connection waits keepAliveMs for its next request.
   */
  readonly httpTimeouts: HttpTimeouts;
  /**
   * What outbound calls (webhooks, the authorization stream) may reach besides public addresses:
   * host names, host:port, IP addresses and CIDR ranges (EGRESS_ALLOWLIST). Unset: loopback in
   * sandbox mode, nothing otherwise; `none`: nothing, in sandbox mode too.
   */
  readonly egressAllowlist: readonly string[];
  /** Whether egressAllowlist is the sandbox's default (said at start-up: loopback is open). */
  readonly egressAllowlistIsSandboxDefault: boolean;
}

export interface HttpTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly idleMs: number;
  readonly keepAliveMs: number;
}

function httpTimeouts(env: NodeJS.ProcessEnv): HttpTimeouts {
  const timeouts: HttpTimeouts = {
    headersMs: positive('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 10_000),
    requestMs: positive('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 30_000),
    // Longer than the event stream's heartbeat and the longest a route waits before answering, so
    // only a connection on which nothing happens is closed.
    idleMs: positive('CONNECTION_TIMEOUT_MS', env.CONNECTION_TIMEOUT_MS, 120_000),
    // Longer than the idle timeouts of common load balancers (60 s), which must close first.
    keepAliveMs: positive('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, 72_000),
  };
  // Node refuses a server whose headers may take longer than the whole request.
  if (timeouts.headersMs > timeouts.requestMs) throw new Error(`HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must not be more than REQUEST_TIMEOUT_MS (${timeouts.requestMs})`);
  return timeouts;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  const parsed = integer(name, value, fallback);
  if (parsed === 0) throw new Error(`${name} must be a positive integer, got ${value}`);
  return parsed;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new Error(`Not a boolean: ${value}`);
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return parsed;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got ${value}`);
  return value as T;
}

/**
 * The rate limits of a service that was not told any. A production service protects itself with
 * generous limits; the sandbox is where test suites run, and 40 parallel authorizations with the
 * calls around them already passed 100 a second, so by default it has none. An explicit
 * RATE_LIMIT_PER_SECOND or RATE_LIMIT_PER_MINUTE applies in either mode.
 */
export const RATE_LIMIT_DEFAULTS = {
  sandbox: { perSecond: 0, perMinute: 0 },
  production: { perSecond: 100, perMinute: 3000 },
} as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): LedgerConfig {
  const eventStoreDbUrl = env.EVENTSTOREDB_URL || null;
  const eventStore = (env.EVENT_STORE || (eventStoreDbUrl ? 'eventstoredb' : 'postgres')) as LedgerConfig['eventStore'];
  if (eventStore !== 'postgres' && eventStore !== 'eventstoredb') throw new Error(`EVENT_STORE must be postgres or eventstoredb`);
  if (eventStore === 'eventstoredb' && !eventStoreDbUrl) throw new Error('EVENT_STORE=eventstoredb needs EVENTSTOREDB_URL');
  const cardBin = env.CARD_BIN || '424242';
  if (!/^\d{6,8}$/.test(cardBin)) throw new Error('CARD_BIN must be 6 to 8 digits');
  const sandbox = flag(env.SANDBOX, true);
  const rateLimits = sandbox ? RATE_LIMIT_DEFAULTS.sandbox : RATE_LIMIT_DEFAULTS.production;
  return {
    port: integer('PORT', env.PORT, 3000),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || null,
    dataDir: path.resolve(env.LEDGER_DATA_DIR || path.join(process.cwd(), '.data')),
    embeddedPostgresPort: integer('EMBEDDED_POSTGRES_PORT', env.EMBEDDED_POSTGRES_PORT, 54320),
    sandboxApiKey: env.SANDBOX_API_KEY || null,
    sandbox,
    cardDataKey: env.CARD_DATA_KEY || null,
    cardEncryptionKeys: (env.CARD_ENCRYPTION_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean),
    ledgerSigningKey: env.LEDGER_SIGNING_KEY?.trim() || null,
    ledgerDigestIntervalMs: integer('LEDGER_DIGEST_INTERVAL_MS', env.LEDGER_DIGEST_INTERVAL_MS, 300_000),
    ledgerCommitment: oneOf('LEDGER_COMMITMENT', env.LEDGER_COMMITMENT, ['on', 'off'] as const, 'on') === 'on',
    ledgerCommitmentWaitMs: integer('LEDGER_COMMITMENT_WAIT_MS', env.LEDGER_COMMITMENT_WAIT_MS, 5000),
    ledgerVerifyKeys: (env.LEDGER_VERIFY_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean),
    cardBin,
    eventStore,
    eventStoreDbUrl,
    readYourWritesTimeoutMs: integer('READ_YOUR_WRITES_TIMEOUT_MS', env.READ_YOUR_WRITES_TIMEOUT_MS, 10_000),
    kafkaBrokers: env.KAFKA_BROKERS ? env.KAFKA_BROKERS.split(',').map((broker) => broker.trim()).filter(Boolean) : null,
    webhookRetrySchedule: parseDurations('WEBHOOK_RETRY_SCHEDULE', env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_WEBHOOK_RETRY_SCHEDULE),
    webhookPollMs: integer('WEBHOOK_POLL_MS', env.WEBHOOK_POLL_MS, 1000),
    webhookTimeoutMs: integer('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 15_000),
    eventStreamHeartbeatMs: integer('EVENT_STREAM_HEARTBEAT_MS', env.EVENT_STREAM_HEARTBEAT_MS, 15_000),
    httpTimeouts: httpTimeouts(env),
    webhookKafkaGroupId: env.WEBHOOK_KAFKA_GROUP_ID || 'webhook-dispatcher',
    idempotencyTtlHours: integer('IDEMPOTENCY_TTL_HOURS', env.IDEMPOTENCY_TTL_HOURS, 24),
    rateLimitPerSecond: integer('RATE_LIMIT_PER_SECOND', env.RATE_LIMIT_PER_SECOND, rateLimits.perSecond),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, rateLimits.perMinute),
    rateLimitStore: oneOf('RATE_LIMIT_STORE', env.RATE_LIMIT_STORE, ['memory', 'postgres'] as const, 'memory'),
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL, ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    egressAllowlist: egressAllowlist(env.EGRESS_ALLOWLIST, sandbox),
    egressAllowlistIsSandboxDefault: sandbox && !env.EGRESS_ALLOWLIST,
  };
}

/** The entries as written (each one checked now, so a typo stops the start instead of opening nothing). */
function egressAllowlist(value: string | undefined, sandbox: boolean): readonly string[] {
  if (!value) return sandbox ? SANDBOX_EGRESS_ALLOWLIST : [];
  if (value.trim().toLowerCase() === 'none') return [];
  return parseAllowlist(value).map((entry) => entry.text);
}

/** What outbound calls (webhooks, the authorization stream) may reach, for the start-up log and banner. */
export function describeEgress(config: Pick<LedgerConfig, 'egressAllowlist' | 'egressAllowlistIsSandboxDefault'>): string {
  const reach = EgressPolicy.of(config.egressAllowlist).describe();
  return config.egressAllowlistIsSandboxDefault ? `${reach} (the sandbox default: receivers on this machine are reachable; EGRESS_ALLOWLIST changes it)` : reach;
}

/** The Standard Webhooks schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "0,200ms,5s,5m,2h": comma-separated durations; a bare number is milliseconds. */
export function parseDurations(name: string, text: string): number[] {
  const durations = text.split(',').map((part) => {
    const match = /^(\d+)(ms|s|m|h)?$/.exec(part.trim());
    if (!match) throw new Error(`${name} must be comma-separated durations such as 0,5s,5m,2h or 200ms; got ${text}`);
    return Number(match[1]) * DURATION_UNITS[match[2] ?? 'ms'];
  });
  if (durations.length === 0) throw new Error(`${name} must name at least one attempt`);
  return durations;
}
