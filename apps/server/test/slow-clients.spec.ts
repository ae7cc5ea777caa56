import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunningLedger, startLedger } from '@ledger/host';
import { loadConfig } from '@ledger/runtime';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { Pool } from 'pg';
import { startTestLedger, TEST_CARD_DATA_KEY, TestLedger } from './test-ledger';

/**
 * Clients that send a request slowly (slowloris: the headers a byte at a time; or a body far slower
 * than announced) are cut off by the server within the configured bounds, on the API and on the
 * health listener of a process without the gateway. Raw sockets: an HTTP client sends at its own pace.
 */
const TIMEOUTS = { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1500' };
/** How far past its bound a connection may stay open: Node checks the bounds on an interval. */
const SLACK_MS = 1500;
const BYTE_EVERY_MS = 200;

interface Closed {
  readonly closed: boolean;
  readonly afterMs: number;
  readonly received: string;
}

/**
 * Opens a connection that writes `head` at once, then `trickle` one byte every BYTE_EVERY_MS, and
 * reports when the server closed it, or that it was still open at `withinMs`.
 */
function trickle(url: string, head: string, trickle: string, withinMs: number): Promise<Closed> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const socket: Socket = connect(Number(port), hostname, () => {
      if (head) socket.write(head);
      timer = setInterval(() => {
        if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++]);
      }, BYTE_EVERY_MS);
    });
    const finish = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ closed, afterMs: Date.now() - started, received });
    };
    const deadline = setTimeout(() => finish(false), withinMs);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

/** Headers that never end: a new header line forever, a byte at a time. */
const ENDLESS_HEADERS = 'X-Slow: ' + 'a'.repeat(10_000);

function expectCutOff(outcome: Closed, boundMs: number): void {
  expect(outcome.closed).toBe(true);
  expect(outcome.afterMs).toBeLessThan(boundMs + SLACK_MS);
  // Node answers 408 before closing when it can; a bare close is also a refusal.
  if (outcome.received) expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
}

describe('slow clients on the API listener', () => {
  let t: TestLedger;
  beforeAll(async () => {
    t = await startTestLedger(TIMEOUTS);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('closes 50 connections that send their headers a byte every 200 ms within the headers timeout', async () => {
    const bound = Number(TIMEOUTS.HEADERS_TIMEOUT_MS);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => trickle(t.baseUrl, 'GET /health/live HTTP/1.1\r\nHost: x\r\n', ENDLESS_HEADERS, bound + SLACK_MS)),
    );
    for (const outcome of outcomes) expectCutOff(outcome, bound);
  });

  it('answers 408 and closes a body announced as 100,000 bytes sent a byte every 200 ms within the request timeout', async () => {
    const bound = Number(TIMEOUTS.REQUEST_TIMEOUT_MS);
    const head = `POST /v1/cards HTTP/1.1\r\nHost: x\r\nAuthorization: api-key ${t.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"type":"`;
    const outcome = await trickle(t.baseUrl, head, 'V'.repeat(99_000), bound + SLACK_MS);
    expectCutOff(outcome, bound);
  });

  it('still answers a request sent at an ordinary pace', async () => {
    expect((await t.call('GET', '/health/live')).status).toBe(200);
  });
});

describe('slow clients on the health listener of a process without the gateway', () => {
  let ledger: RunningLedger;
  let pool: Pool;
  let dataDir: string;
  beforeAll(async () => {
    const databaseUrl = await workerDatabaseUrl();
    pool = new Pool({ connectionString: databaseUrl, max: 1 });
    await truncateAll(pool);
    dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-test-'));
    const config = loadConfig({ DATABASE_URL: databaseUrl, PORT: '0', LEDGER_DATA_DIR: dataDir, SANDBOX_API_KEY: randomUUID(), CARD_DATA_KEY: TEST_CARD_DATA_KEY, ...TIMEOUTS });
    ledger = await startLedger(config, { roles: ['projector'], process: { healthPort: 0 }, logger: false });
  });
  afterAll(async () => {
    await ledger?.stop();
    await pool?.end();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('closes a connection that sends its headers a byte every 200 ms within the headers timeout', async () => {
    const bound = Number(TIMEOUTS.HEADERS_TIMEOUT_MS);
    expectCutOff(await trickle(ledger.baseUrl, 'GET /health/live HTTP/1.1\r\nHost: x\r\n', ENDLESS_HEADERS, bound + SLACK_MS), bound);
  });
});
