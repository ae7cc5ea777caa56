import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { CardNotFound } from '@ledger/domain';
import { PostgresEventStore, verifyChains } from '@ledger/event-store';
import { describeNeeding, eventually, LocalReceiver, truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { kafkaTargets, natsTargets, unreachable } from './infrastructure-probe';
import { copyOfTheBuild, LedgerAppName, LedgerProcess, LedgerProcesses } from './ledger-processes';
import { NatsTap } from './nats-tap';
import { findSecrets, RunSecrets, secretPatterns } from './secret-scan';
import { TEST_CARD_DATA_KEY } from './test-ledger';

/**
 * The distributed set (issue 6): the apps gateway, card-service, transaction-service, projector (+ publisher)
 * and webhooks as five separate node processes of the built dist, on the PostgreSQL event store of a
 * fresh test database, NATS for commands and the real Kafka broker for integration messages. A card's
 * life goes through the gateway's HTTP API, lists and a webhook receiver see every effect, domain
 * errors cross the wire as the same statuses and bodies, and a card-service SIGKILLed in the middle of
 * a burst of authorizations loses nothing that was acknowledged. The processes reach NATS through a
 * tap that keeps every byte of the run: no PAN, CVV, PIN or api-key crosses a process boundary in clear.
 */

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const KAFKA_BROKERS = process.env.KAFKA_BROKERS;

/** Why the suite cannot run here, or null. Checked before the suite is declared, so a skip says why. */
function missingInfrastructure(): string | null {
  if (!KAFKA_BROKERS) return 'KAFKA_BROKERS is not set; run infra/kafka/start.sh and set KAFKA_BROKERS=127.0.0.1:9092';
  return unreachable([...natsTargets(NATS_URL), ...kafkaTargets(KAFKA_BROKERS)]);
}

const suite = describeNeeding(missingInfrastructure());

// ------------------------------------------------------------------------- the processes

const runId = randomUUID().slice(0, 8);
/** Subjects and queue groups of this run only: parallel runs on one NATS never take each other's commands. */
const subjectPrefix = `test.${runId}`;
const apiKey = randomUUID();
const PIN = '80716253';
const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-distributed-'));
let buildCopy: string | undefined;
let processes: LedgerProcesses;
let baseEnv: NodeJS.ProcessEnv;

/** Starts one app of the built copy; the name tells apart two processes of one app (replicas, restarts). */
function startProcess(name: string, app: LedgerAppName, env: NodeJS.ProcessEnv = {}): Promise<LedgerProcess> {
  return processes.start(name, app, { ...baseEnv, ...env });
}

async function call(baseUrl: string, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: { authorization: `api-key ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

// --------------------------------------------------------------------- a webhook receiver

/** Answers every webhook 200 and keeps what it received. */
const receiver = new LocalReceiver();

/** Whether a webhook of this type about this subject (card or transaction token) has arrived. */
const delivered = (eventType: string, subject: string) =>
  receiver.requests.some((request) => request.body?.event_type === eventType && request.body?.token === subject);

// ------------------------------------------------------------------- a tap on all NATS traffic

/**
 * Every process reaches NATS through this relay, from the first start to the last exit, so it sees
 * every message that crosses a process boundary (see NatsTap for why not a subscriber on `>`).
 */
const natsTap = new NatsTap(
  (() => {
    const url = new URL(NATS_URL.split(',')[0].includes('://') ? NATS_URL.split(',')[0] : `nats://${NATS_URL.split(',')[0]}`);
    return { host: url.hostname, port: Number(url.port || 4222) };
  })(),
);

/** The secrets of this run, as the tests make them: what the recorded traffic must never show. */
const runSecrets = { pans: [] as string[], cvvs: [] as string[], pins: [PIN], apiKeys: [apiKey] } satisfies RunSecrets;

// ---------------------------------------------------------------------------------- the suite

suite('distributed deployment: one process per service over NATS and Kafka', () => {
  const timings: Record<string, number> = {};
  const suiteStart = Date.now();
  let pool: Pool;
  let gateway: LedgerProcess;
  let secondGateway: LedgerProcess;
  let cardService: LedgerProcess;

  beforeAll(async () => {
    let mark = Date.now();
    buildCopy = copyOfTheBuild(`distributed-test-${runId}`);
    processes = new LedgerProcesses(buildCopy);
    timings.build = Date.now() - mark;
    const databaseUrl = await workerDatabaseUrl();
    pool = new Pool({ connectionString: databaseUrl, max: 3 });
    await truncateAll(pool);
    chmodSync(dataDir, 0o755);
    await receiver.start();
    const tappedNatsUrl = await natsTap.start();
    // Each app runs its own roles: a LEDGER_ROLES of the caller's shell must not narrow (or refuse) them.
    const { EVENTSTOREDB_URL: _esdb, LEDGER_ROLES: _roles, ...inherited } = process.env;
    baseEnv = {
      ...inherited,
      DATABASE_URL: databaseUrl,
      EVENT_STORE: 'postgres',
      SANDBOX_API_KEY: apiKey,
      CARD_DATA_KEY: TEST_CARD_DATA_KEY,
      LEDGER_DATA_DIR: dataDir,
      PORT: '0',
      HEALTH_PORT: '0',
      NATS_URL: tappedNatsUrl,
      NATS_SUBJECT_PREFIX: subjectPrefix,
      COMMAND_TIMEOUT_MS: '4000',
      KAFKA_BROKERS,
      WEBHOOK_KAFKA_GROUP_ID: `webhook-dispatcher-distributed-${runId}`,
      WEBHOOK_RETRY_SCHEDULE: '0,200ms,500ms,1s',
      WEBHOOK_POLL_MS: '50',
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    };
    mark = Date.now();
    // The gateways start while no card-service answers yet: they retry the sandbox set-up until one does.
    [gateway, secondGateway, cardService] = await Promise.all([
      startProcess('gateway', 'gateway', { DRAIN_DELAY_MS: '500' }),
      startProcess('gateway-2', 'gateway'),
      startProcess('card-service', 'card-service'),
      startProcess('transaction-service', 'transaction-service'),
      startProcess('projector', 'projector'),
      startProcess('webhooks', 'webhooks'),
    ]);
    timings.startAll = Date.now() - mark;
  }, 90_000);

  afterAll(async () => {
    await processes?.killAll();
    await receiver.stop();
    await natsTap.stop();
    if (pool) {
      await truncateAll(pool);
      await pool.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (buildCopy) rmSync(buildCopy, { recursive: true, force: true });
    timings.total = Date.now() - suiteStart;
    console.info(`[distributed.spec] timings (ms): ${JSON.stringify(timings)}`);
  });

  it('runs each service as its own process, each with liveness and readiness', async () => {
    expect(processes.started.map((process) => process.name).sort()).toEqual(['card-service', 'gateway', 'gateway-2', 'projector', 'transaction-service', 'webhooks']);
    for (const process of processes.started) {
      const live = await fetch(`${process.url}/health/live`);
      expect({ process: process.name, status: live.status }).toEqual({ process: process.name, status: 200 });
      const ready = await fetch(`${process.url}/health/ready`);
      expect({ process: process.name, status: ready.status, body: await ready.json() }).toMatchObject({ process: process.name, status: 200, body: { status: 'ready' } });
    }
    // Only the gateways serve the API.
    expect((await fetch(`${cardService.url}/v1/cards`)).status).toBe(404);
    expect((await call(gateway.url, 'GET', '/v1/cards')).status).toBe(200);
  });

  it("runs a card's life through the gateway; lists and webhooks see every effect; errors cross the wire unchanged", async () => {
    const mark = Date.now();
    const subscription = await call(gateway.url, 'POST', '/v1/event_subscriptions', { url: receiver.url('/hooks'), description: 'distributed' });
    expect(subscription.status).toBe(200);

    const card = await call(gateway.url, 'POST', '/v1/cards', { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER', memo: 'life', pin: PIN });
    expect(card.status).toBe(200);
    const { pan, cvv, exp_month, exp_year, token: cardToken } = card.body;
    runSecrets.pans.push(pan);
    runSecrets.cvvs.push(cvv);
    // Through either gateway: each reaches the same services. The card details travel to the
    // transaction-service, and on to the card-service, which checks them.
    const presented = { pan, cvv, exp_month, exp_year, pin: PIN };
    const authorized = await call(secondGateway.url, 'POST', '/v1/simulate/authorize', { ...presented, amount: 600, descriptor: 'Corner Shop' });
    expect(authorized.status).toBe(200);
    expect((await call(gateway.url, 'POST', '/v1/simulate/clearing', { token: authorized.body.token, amount: 600 })).status).toBe(200);
    const second = await call(gateway.url, 'POST', '/v1/simulate/authorize', { pan, amount: 300, descriptor: 'Corner Shop' });
    expect(second.status).toBe(200);
    expect((await call(secondGateway.url, 'POST', '/v1/simulate/void', { token: second.body.token, amount: 300 })).status).toBe(200);
    const returned = await call(gateway.url, 'POST', '/v1/simulate/return', { pan, amount: 200, descriptor: 'Corner Shop' });
    expect(returned.status).toBe(200);
    const overLimit = await call(gateway.url, 'POST', '/v1/simulate/authorize', { pan, amount: 900, descriptor: 'Corner Shop' });
    expect(overLimit).toMatchObject({ status: 422, body: { message: expect.stringContaining('USER_TRANSACTION_LIMIT'), token: expect.any(String) } });
    expect((await call(gateway.url, 'PATCH', `/v1/cards/${cardToken}`, { state: 'PAUSED' })).body.state).toBe('PAUSED');
    const paused = await call(secondGateway.url, 'POST', '/v1/simulate/authorize', { pan, amount: 10, descriptor: 'Corner Shop' });
    expect(paused).toMatchObject({ status: 422, body: { message: expect.stringContaining('CARD_PAUSED'), token: expect.any(String) } });

    // Domain errors thrown in the services come back as the same classes: same statuses, same bodies.
    const unknownCard = randomUUID();
    expect(await call(gateway.url, 'PATCH', `/v1/cards/${unknownCard}`, { memo: 'x' })).toMatchObject({ status: 404, body: { message: new CardNotFound(unknownCard).message } });
    const unknownTransaction = randomUUID();
    expect(await call(gateway.url, 'POST', '/v1/simulate/void', { token: unknownTransaction, amount: 5 })).toMatchObject({
      status: 404,
      body: { message: `Transaction ${unknownTransaction} not found`, token: unknownTransaction },
    });
    expect(await call(gateway.url, 'POST', '/v1/simulate/void', { token: authorized.body.token, amount: 600 })).toMatchObject({
      status: 409,
      body: { message: `Transaction ${authorized.body.token} is SETTLING; a void needs a PENDING authorization` },
    });
    expect(await call(gateway.url, 'POST', '/v1/simulate/authorize', { pan: '4000000000000002', amount: 1, descriptor: 'x' })).toMatchObject({
      status: 404,
      body: { message: 'No card with this pan was found' },
    });
    expect(await call(gateway.url, 'POST', '/v1/event_subscriptions', { url: 'not a url' })).toMatchObject({ status: 400, body: { message: 'url must be an http or https URL' } });
    for (const answer of [overLimit, paused]) expect(Object.keys(answer.body).sort()).toEqual(['debugging_request_id', 'message', 'token']);

    // The list endpoints show every effect as soon as the calls have answered (read your writes).
    const transactions = (await call(gateway.url, 'GET', `/v1/transactions?card_token=${cardToken}&page_size=100`)).body.data;
    const status = (token: string) => transactions.find((transaction: any) => transaction.token === token)?.status;
    expect({
      authorized: status(authorized.body.token),
      voided: status(second.body.token),
      returned: status(returned.body.token),
      overLimit: status(overLimit.body.token),
      paused: status(paused.body.token),
    }).toEqual({ authorized: 'SETTLING', voided: 'VOIDED', returned: expect.any(String), overLimit: 'DECLINED', paused: 'DECLINED' });
    const cards = (await call(secondGateway.url, 'GET', '/v1/cards?page_size=100')).body.data;
    expect(cards.find((listed: any) => listed.token === cardToken)).toMatchObject({ state: 'PAUSED', memo: 'life' });

    // The webhook receiver gets every effect: projector -> Kafka -> webhooks process -> HTTP.
    const transactionTokens = [authorized.body.token, second.body.token, returned.body.token, overLimit.body.token, paused.body.token];
    await eventually(
      'a webhook for the card and for every transaction',
      async () => delivered('card.created', cardToken) && delivered('card.updated', cardToken) && transactionTokens.every((token) => delivered('card_transaction.updated', token)),
    );
    timings.cardLife = Date.now() - mark;
  });

  it('loses nothing acknowledged when the card-service is SIGKILLed mid-burst; a SIGTERMed transaction-service finishes what it took', async () => {
    let mark = Date.now();
    const cards = await Promise.all(
      [300, 0, 5000].map(async (limit) => (await call(gateway.url, 'POST', '/v1/cards', { type: 'DIGITAL_WALLET', spend_limit: limit, spend_limit_duration: 'FOREVER' })).body),
    );
    runSecrets.pans.push(...cards.map((card) => card.pan));
    runSecrets.cvvs.push(...cards.map((card) => card.cvv));
    const acknowledged: { token: string; status: number }[] = [];
    const unavailable: string[] = [];
    /** When each request started and how long its answer took. */
    const answered: { startedAt: number; ms: number }[] = [];
    const unexpected: string[] = [];
    let stopped = false;
    /** Start times of the requests not answered yet. */
    const pending = new Set<number>();
    const worker = async (index: number) => {
      const via = index % 2 === 0 ? gateway : secondGateway;
      for (let i = 0; !stopped; i++) {
        const card = cards[(index + i) % cards.length];
        const startedAt = Date.now() + index / 100; // unique per worker
        pending.add(startedAt);
        const answer = await call(via.url, 'POST', '/v1/simulate/authorize', { pan: card.pan, amount: 25, descriptor: `Burst ${index}` })
          .catch((error: Error) => ({ status: 0, body: error.message }))
          .finally(() => pending.delete(startedAt));
        answered.push({ startedAt, ms: Date.now() - startedAt });
        if (answer.status === 200 || (answer.status === 422 && typeof answer.body?.token === 'string')) acknowledged.push({ token: answer.body.token, status: answer.status });
        else if (answer.status === 503) {
          unavailable.push(answer.body?.message);
          // Back off: the restarting service shares these two cores with everything else.
          await new Promise((resolve) => setTimeout(resolve, 200));
        } else unexpected.push(`${answer.status}: ${JSON.stringify(answer.body)}`);
      }
    };
    const workers = Array.from({ length: 6 }, (_, index) => worker(index));
    await eventually('40 acknowledged authorizations', async () => acknowledged.length >= 40);
    cardService.child.kill('SIGKILL');
    expect(await cardService.exited).toBeNull();
    const beforeKill = acknowledged.length;
    timings.burstBeforeKill = Date.now() - mark;
    mark = Date.now();
    const restarted = await startProcess('card-service (restarted)', 'card-service');
    timings.cardServiceRestart = Date.now() - mark;
    await eventually('40 more acknowledged after the restart', async () => acknowledged.length >= beforeKill + 40, 30_000);

    // A graceful stop in the middle of the burst: the transaction-service stops taking commands (NATS
    // has no replica to give them to: 503 at once) but answers every one it took: no caller times out.
    mark = Date.now();
    const transactionService = processes.started.find((process) => process.name === 'transaction-service')!;
    // Requests caught by the SIGKILL run into COMMAND_TIMEOUT_MS; let them end first, so that any
    // timeout from here on would be the transaction-service's.
    const restartedAt = Date.now();
    await eventually('the requests of the outage to end', async () => ![...pending].some((startedAt) => startedAt < restartedAt), 10_000);
    transactionService.child.kill('SIGTERM');
    expect(await transactionService.exited).toBe(0);
    timings.transactionServiceDrain = Date.now() - mark;
    const beforeTerm = acknowledged.length;
    // Until the new process is spawned, every command went to the draining one (or found none): a
    // request started before then that timed out was taken and never answered. After it, a timeout
    // could be the new process's first seconds on a loaded machine, which is not what this test claims.
    const respawnedAt = Date.now();
    await startProcess('transaction-service (restarted)', 'transaction-service');
    await eventually('20 more acknowledged after the second restart', async () => acknowledged.length >= beforeTerm + 20, 30_000);
    stopped = true;
    await Promise.all(workers);
    expect(unexpected).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0); // the outage was seen, as 503s, never as a lost 200
    // A command the draining process took and did not run answers "did not answer" after the timeout;
    // one it ran and whose reply it lost answers too, as recorded, once the gateway has looked: both
    // take the whole COMMAND_TIMEOUT_MS.
    expect(answered.filter(({ startedAt, ms }) => startedAt >= restartedAt && startedAt < respawnedAt && ms >= 4000)).toEqual([]);

    mark = Date.now();
    // Every card decision stands with its transaction (both are one write, so the kill cuts none in half),
    // and every acknowledged authorization is listed, with the answer it was given, and can be fetched.
    const listed = new Map<string, any>();
    for (const card of cards) {
      const decisions = async () =>
        (
          await pool.query(`select count(*)::int as n from events where stream_id = $1 and event_type in ('CardAuthorizationApproved', 'CardAuthorizationDeclined')`, [
            `card-${card.token}`,
          ])
        ).rows[0].n as number;
      const forCard = await eventually(`every decision on card ${card.token} listed`, async () => {
        const page = (await call(gateway.url, 'GET', `/v1/transactions?card_token=${card.token}&page_size=1000`)).body.data as any[];
        return page.length === (await decisions()) && page;
      });
      for (const transaction of forCard) listed.set(transaction.token, transaction);
      if (card.spend_limit > 0) {
        const approved = forCard.filter((transaction) => transaction.result === 'APPROVED').reduce((sum, transaction) => sum + transaction.amount, 0);
        expect(approved).toBeLessThanOrEqual(card.spend_limit);
      }
    }
    const missing = acknowledged.filter(({ token, status }) => (listed.get(token)?.result === 'APPROVED' ? 200 : listed.has(token) ? 422 : 'missing') !== status);
    expect(missing).toEqual([]);
    for (let i = 0; i < acknowledged.length; i += 10) {
      const fetched = await Promise.all(acknowledged.slice(i, i + 10).map(({ token }) => call(secondGateway.url, 'GET', `/v1/transactions/${token}`)));
      expect(fetched.filter((answer) => answer.status !== 200)).toEqual([]);
    }

    // The hash chains of every stream still verify.
    const store = new PostgresEventStore(pool);
    try {
      const report = await verifyChains(store);
      expect(report.firstBreak).toBeNull();
      expect(report.events).toBeGreaterThan(acknowledged.length);
    } finally {
      await store.close();
    }
    timings.verify = Date.now() - mark;
    timings.acknowledged = acknowledged.length;
    timings.unavailable = unavailable.length;
    expect((await fetch(`${restarted.url}/health/ready`)).status).toBe(200);
  }, 60_000);

  it('drains on SIGTERM: readiness turns 503 at once, then every process exits 0', async () => {
    const mark = Date.now();
    const running = processes.started.filter((process) => process.child.exitCode === null && process.child.signalCode === null);
    gateway.child.kill('SIGTERM');
    // DRAIN_DELAY_MS=500 on this gateway: readiness answers 503 while it still listens.
    const draining = await eventually('the gateway to report not ready', async () => {
      const answer = await fetch(`${gateway.url}/health/ready`).catch(() => null);
      return answer?.status === 503 && answer.json();
    }, 2_000);
    expect(draining).toMatchObject({ status: 'not_ready', draining: true });
    for (const process of running) if (process !== gateway) process.child.kill('SIGTERM');
    const codes = await Promise.all(running.map(async (process) => [process.name, await process.exited] as const));
    expect(Object.fromEntries(codes)).toEqual(Object.fromEntries(running.map((process) => [process.name, 0])));
    timings.shutdown = Date.now() - mark;
  }, 30_000);
  it('sends nothing in clear over NATS: every command and reply of the run is sealed, no PAN, CVV, PIN or api-key anywhere on the wire', async () => {
    const published = natsTap.published;
    const commands = published.filter((message) => message.subject.startsWith(`${subjectPrefix}.commands.`));
    const replies = published.filter((message) => message.subject.startsWith(`${subjectPrefix}.inbox.`));
    // Not vacuous: the card life and the burst sent hundreds of commands through the tap, and their replies.
    expect(commands.length).toBeGreaterThan(100);
    expect(replies.length).toBeGreaterThan(100);
    expect(commands.filter((message) => !message.reply.startsWith(`${subjectPrefix}.inbox.`))).toEqual([]);
    expect(published.filter((message) => !message.subject.startsWith(`${subjectPrefix}.`))).toEqual([]);

    // Nest's packets around our payloads: the payload (command `data`, reply `response`) is sealed whole.
    const unsealed = published.filter((message) => {
      const { pattern: _pattern, id: _id, isDisposed: _disposed, data, response, ...rest } = JSON.parse(message.data);
      const payload = data ?? response;
      const sealed = payload === undefined || (Object.keys(payload).join() === 'sealed' && typeof payload.sealed === 'string');
      return !sealed || Object.keys(rest).length > 0;
    });
    expect(unsealed).toEqual([]);

    // Every byte both ways, protocol lines and headers included.
    expect(runSecrets.pans.length).toBe(4);
    const patterns = secretPatterns(runSecrets);
    expect(findSecrets('NATS', natsTap.transcripts(), patterns)).toEqual([]);
    // The scan would see them: a command as it was before sealing carried them in clear.
    const clearCommand = JSON.stringify({ name: 'transaction.simulate-authorization', payload: { authorization: { pan: runSecrets.pans[0], presented: { cvv: runSecrets.cvvs[0], pin: PIN } } } });
    expect(findSecrets('a clear command', [clearCommand, `authorization: api-key ${apiKey}`], patterns).length).toBeGreaterThanOrEqual(4);
  });
});
