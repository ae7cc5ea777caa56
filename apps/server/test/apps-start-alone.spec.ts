import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { closedPort, describeNeeding, eventually, truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { natsTargets, unreachable } from './infrastructure-probe';
import { copyOfTheBuild, LEDGER_APPS, LedgerProcesses } from './ledger-processes';
import { TEST_CARD_DATA_KEY } from './test-ledger';

/**
 * Issue 15: each of the five apps is a program of its own. On a fresh database and the NATS server,
 * `npm run start:<app>` brings one app up with no other process of the ledger running, its health URL
 * answers ready, its banner names what it runs, and SIGTERM stops it with exit code 0.
 *
 * The gateway's start-up needs the sandbox program, which only the card-service can create: the
 * server app (every role in one process, what `npm start` runs) creates it first, then stops.
 */

const NATS_URL = process.env.NATS_URL;
const suite = describeNeeding(unreachable(natsTargets(NATS_URL || 'nats://127.0.0.1:4222')));

/** What each app's banner says once it is up (the gateway's names the API instead of its roles). */
const BANNERS: Record<(typeof LEDGER_APPS)[number], string> = {
  gateway: 'Card ledger is up.',
  'card-service': 'Card ledger card-service is up.',
  'transaction-service': 'Card ledger transaction-service is up.',
  projector: 'Card ledger projector+publisher is up.',
  webhooks: 'Card ledger webhooks is up.',
};

suite('each app alone, with its own npm script', () => {
  const runId = randomUUID().slice(0, 8);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-apps-alone-'));
  let buildCopy: string | undefined;
  let processes: LedgerProcesses;
  let pool: Pool;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    buildCopy = copyOfTheBuild(`apps-alone-test-${runId}`);
    processes = new LedgerProcesses(buildCopy);
    const databaseUrl = await workerDatabaseUrl();
    pool = new Pool({ connectionString: databaseUrl, max: 1 });
    await truncateAll(pool);
    chmodSync(dataDir, 0o755);
    // Nothing of the caller's shell picks roles, an event store or Kafka: each app runs as its script says.
    const { LEDGER_ROLES: _roles, EVENTSTOREDB_URL: _esdb, KAFKA_BROKERS: _kafka, NATS_URL: _nats, HEALTH_PORT: _health, ...inherited } = process.env;
    env = {
      ...inherited,
      DATABASE_URL: databaseUrl,
      EVENT_STORE: 'postgres',
      SANDBOX_API_KEY: randomUUID(),
      CARD_DATA_KEY: TEST_CARD_DATA_KEY,
      LEDGER_DATA_DIR: dataDir,
      NATS_SUBJECT_PREFIX: `test.${runId}`,
      LOG_LEVEL: 'warn',
    };
    const server = await processes.start('server', 'server', { ...env, PORT: '0' });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);

  afterAll(async () => {
    await processes?.killAll();
    if (pool) {
      await truncateAll(pool);
      await pool.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (buildCopy) rmSync(buildCopy, { recursive: true, force: true });
  });

  it.each(LEDGER_APPS)('%s starts alone, answers ready, and stops on SIGTERM', async (app) => {
    const port = await closedPort();
    // Unset NATS_URL: the script's default (nats://127.0.0.1:4222) is the one under test.
    const script = processes.runScript(app, { ...env, ...(NATS_URL ? { NATS_URL } : {}), ...(app === 'gateway' ? { PORT: String(port) } : { HEALTH_PORT: String(port) }) });
    const gaveUp = script.exited.then((code) => Promise.reject(new Error(`${app} exited with ${code} while starting:\n${script.output()}`)));
    const ready = await Promise.race([
      eventually(`${app} to answer ready on port ${port}`, async () => {
        const answer = await fetch(`http://127.0.0.1:${port}/health/ready`);
        return answer.status === 200 && answer.json();
      }, 45_000),
      gaveUp,
    ]);
    expect(ready).toMatchObject({ status: 'ready' });
    await eventually(`${app}'s banner`, async () => script.output().includes(BANNERS[app]), 5_000);
    script.child.kill('SIGTERM');
    expect({ app, code: await script.exited }).toEqual({ app, code: 0 });
  }, 60_000);

  it('a process whose roles cannot start says why and exits 1', async () => {
    // A key the read models do not know yet: the gateway issues it and waits for a projector, which no process runs.
    const alone = { ...env, PORT: '0', SANDBOX_API_KEY: randomUUID(), LEDGER_ROLES: 'gateway,card-service,transaction-service', READ_YOUR_WRITES_TIMEOUT_MS: '1000' };
    const started = processes.start('without a projector', 'server', alone);
    await expect(started).rejects.toThrow(/exited with 1 while starting:[\s\S]*server could not start: .*no projector; the read models move only while a process with the projector role runs/);
  }, 60_000);
});
