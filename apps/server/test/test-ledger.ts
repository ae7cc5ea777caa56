import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import type { DestinationStream } from 'pino';
import type { HostResolver } from '@ledger/egress';
import { CreateProgramCommand, ProgramCreatedResult } from '@ledger/contracts';
import { FaultPoints, parsePosition } from '@ledger/event-store';
import { loadConfig, ProjectionWatcher } from '@ledger/runtime';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { RunningLedger, startLedger } from '@ledger/host';

/** A fixed card data key for tests; production keys come from configuration. */
export const TEST_CARD_DATA_KEY = '1f'.repeat(32);

export interface ApiAnswer<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export interface TestLedger {
  readonly ledger: RunningLedger;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly pool: Pool;
  /** Calls the API over real HTTP with the given key (the sandbox key by default; null for none). */
  call<T = any>(method: string, path: string, options?: { body?: unknown; rawBody?: string; apiKey?: string | null; headers?: Record<string, string> }): Promise<ApiAnswer<T>>;
  /** Stops the service and starts it again on the same database, data directory and port (tables kept). */
  restart(): Promise<void>;
  /** A further program, as `admin create-program` makes one; returns its api-key and token. */
  createProgram(name: string): Promise<{ apiKey: string; programToken: string }>;
  stop(): Promise<void>;
}

type StartOptions = Parameters<typeof startTestLedger>[1];

/**
 * The ledger of a file or describe block: started before its tests (its own beforeAll, so one
 * registered after this call sees it started) and stopped after them. Tests use it as the
 * TestLedger it stands for.
 */
export function ledgerForTests(env: Record<string, string> = {}, options?: StartOptions): TestLedger {
  const suite = new SuiteLedger();
  beforeAll(async () => {
    suite.started = await startTestLedger(env, options);
  });
  afterAll(async () => {
    await suite.started?.stop();
  });
  return suite;
}

class SuiteLedger implements TestLedger {
  started: TestLedger | undefined;

  private get current(): TestLedger {
    if (!this.started) throw new Error('The test ledger is used before its beforeAll started it');
    return this.started;
  }

  get ledger() {
    return this.current.ledger;
  }
  get baseUrl() {
    return this.current.baseUrl;
  }
  get apiKey() {
    return this.current.apiKey;
  }
  get pool() {
    return this.current.pool;
  }
  call: TestLedger['call'] = (...args) => this.current.call(...args);
  restart = () => this.current.restart();
  createProgram = (name: string) => this.current.createProgram(name);
  stop = () => this.current.stop();
}

/**
 * The whole service on this worker's database, listening on a free port, exactly as `npm start`
 * wires it. Tables are emptied before it starts and after it stops.
 */
export async function startTestLedger(
  env: Record<string, string> = {},
  options: {
    /** Where the JSON log lines go (a test that reads them); without it the ledger logs nothing. */
    logDestination?: DestinationStream;
    /** How outbound calls resolve names (a scripted resolver plays a rebinding DNS server); unset: the system's. */
    hostResolver?: HostResolver;
    /** Failures injected on the authorization path (fault-injection tests). */
    faultPoints?: FaultPoints;
  } = {},
): Promise<TestLedger> {
  const databaseUrl = await workerDatabaseUrl();
  const pool = new Pool({ connectionString: databaseUrl, max: 3 });
  await truncateAll(pool);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-test-'));
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    LEDGER_DATA_DIR: dataDir,
    SANDBOX_API_KEY: randomUUID(),
    CARD_DATA_KEY: TEST_CARD_DATA_KEY,
    ...env,
  });
  const start = (port: number) => startLedger({ ...config, port }, { logger: false, logDestination: options.logDestination, hostResolver: options.hostResolver, faultPoints: options.faultPoints });
  let ledger = await start(config.port);
  const call: TestLedger['call'] = async (method, urlPath, options = {}) => {
    const apiKey = options.apiKey === undefined ? ledger.sandboxApiKey : options.apiKey;
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (apiKey !== null) headers.authorization = headers.authorization ?? `api-key ${apiKey}`;
    let payload: string | undefined = options.rawBody;
    if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = headers['content-type'] ?? 'application/json';
    const response = await fetch(`${ledger.baseUrl}${urlPath}`, { method, headers, body: payload });
    // An event stream never ends: its answer is the status and headers (read it with EventStreamClient).
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, body: undefined as never, headers: response.headers };
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Leave non-JSON answers as text so an assertion shows them.
    }
    return { status: response.status, body: body as never, headers: response.headers };
  };
  return {
    get ledger() {
      return ledger;
    },
    get baseUrl() {
      return ledger.baseUrl;
    },
    apiKey: ledger.sandboxApiKey,
    pool,
    call,
    async restart() {
      const port = Number(new URL(ledger.baseUrl).port);
      await ledger.stop();
      ledger = await start(port);
    },
    async createProgram(name) {
      const result = await ledger.app.get(CommandBus).execute<CreateProgramCommand, ProgramCreatedResult>(new CreateProgramCommand(randomUUID(), name));
      await ledger.app.get(ProjectionWatcher).waitFor(parsePosition(result.position), 10_000);
      return { apiKey: result.apiKey, programToken: result.programToken };
    },
    async stop() {
      await ledger.stop();
      await truncateAll(pool);
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
