import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Pool } from 'pg';
import { PostgresEventStore, comparePositions } from '@ledger/event-store';
import { replayReadModels } from '@ledger/projector';
import { startEmbeddedPostgres } from '@ledger/read-model';
import { ProjectionWatcher } from '@ledger/runtime';
import { auditLatency, auditTargets, commitmentOverhead } from './audit-figures';
import { authorizationTargets, databaseCounters, perAuthorization } from './authorization-figures';
import { logReadCeiling } from './log-read-ceiling';
import { pacedLoad } from './paced-load';
import { replayDerivationAlone } from './replay-derivation-alone';
import { replayWriteCeiling } from './replay-write-ceiling';
import { PeakMemoryByPhase } from './peak-memory';
import { BulkSeeder, SeedCard } from './bulk-seed';
import { commitCeiling } from './ceilings';
import { authorizationWriteCeiling } from './authorization-write-ceiling';
import { bareRouteFigures, bareRouteTargets } from './http-stack-figures';
import { longHistoryFigures, longHistoryTargets } from './long-history-figures';
import { backtestFigures, backtestTargets } from './backtest-figures';
import { AuthorizationRun, NARROWED_ROLES, wholeServiceTargets } from './whole-service-figures';
import { readPathTargets } from './read-path-targets';
import { load } from './load';
import { machine } from './machine';
import { cpuPerRequest, cpuReading } from './process-cpu';
import { BenchResult, report } from './report';
import { startServerProcess } from './server-process';

/**
 * npm run bench: on the embedded default (no DATABASE_URL) or on a fresh database beside the given
 * DATABASE_URL, in one run: the commit and HTTP ceilings, simulated authorizations over HTTP on many
 * cards and on one hot card, latency at 80% of the peak, projection lag, replay rate, list latency at
 * growing history sizes and the service's peak memory. Figures go to stdout, bench-results/*.json
 * and a dated table in docs/benchmarks.md.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The commitment's runs each start on a restarted service: this long a load first, not measured (audit-figures.ts). */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
const LIST_SIZES = (process.env.BENCH_LIST_SIZES ?? '100000,1000000').split(',').map(Number).filter((n) => n > 0);
const CARDS = 200;

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(started: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-bench-'));
  chmodSync(dataDir, 0o755);
  const database = await benchDatabase(dataDir);
  const apiKey = randomUUID();
  const serverEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    SANDBOX_API_KEY: apiKey,
    LEDGER_DATA_DIR: dataDir,
    // LOG_LEVEL is left at the service's default (info), as `npm start` runs it: a request line each.
    LOG_LEVEL: undefined,
    // The bench measures the service, not the rate limiter (docs/decisions.md, Rate limits).
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '0',
  };
  let server = await startServerProcess(serverEnv);
  const memory = new PeakMemoryByPhase();
  const pool = new Pool({ connectionString: database.url, max: 8 });
  const auth = { authorization: `api-key ${apiKey}` };
  try {
    log(`service up at ${server.baseUrl} (${database.external ? 'DATABASE_URL' : 'embedded PostgreSQL'})`);
    log(`commit ceiling: ${CONNECTIONS} connections for ${SECONDS} s`);
    const commits = await commitCeiling(database.url, CONNECTIONS, SECONDS);
    log('bare route: the served stack vs plain Fastify, CPU per request, alternating');
    const bareFigures = await bareRouteFigures({ baseUrl: server.baseUrl, pid: server.pid }, CONNECTIONS, SECONDS);
    const bare = bareFigures.served.load;
    // After the bare route, which is measured on a service that has done nothing yet; the ceiling
    // writes to a schema of its own, beside the service's.
    log(`authorization write ceiling: the atomic append alone, ${CONNECTIONS} writers on ${CARDS} cards for ${SECONDS} s`);
    const authorizationWrite = await authorizationWriteCeiling(database.url, database.port, CONNECTIONS, SECONDS, CARDS);
    // In this process, on the pure domain, timed by its CPU: nothing else of the bench runs meanwhile.
    log('one card with 100,000 transactions vs a new card (decide and fold, in process)');
    const longHistory = await longHistoryFigures();

    const cards = await createCards(server.baseUrl, auth, CARDS);
    const hot = cards[0];
    const authorize = (pans: string[]) => {
      let i = 0;
      return () => JSON.stringify({ pan: pans[i++ % pans.length], amount: 100 + (i % 900), descriptor: 'Bench Store' });
    };
    log(`authorizations on ${CARDS} cards`);
    // Warmed as the narrowed-off and commitment runs are, so that every run it is compared with
    // starts from the same state: code compiled, each card's stream read once.
    await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, body: authorize(cards.map((c) => c.pan)) });
    const countersBefore = await databaseCounters(pool);
    const cpuBefore = cpuReading(server.pid, database.port);
    const many = await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: SECONDS, body: authorize(cards.map((c) => c.pan)) });
    const cpuPerAuthorization = cpuPerRequest(cpuBefore, cpuReading(server.pid, database.port), many.total);
    const authorizationCost = perAuthorization(countersBefore, await databaseCounters(pool), many.total);
    log(`authorizations on one hot card`);
    const hotCard = await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: SECONDS, body: authorize([hot.pan]) });
    const target = Math.max(1, Math.floor(many.requestsPerSecond * 0.8));
    log(`authorizations at 80% of the peak (${target}/s)`);
    const atEighty = await load({
      url: `${server.baseUrl}/v1/simulate/authorize`,
      headers: auth,
      connections: CONNECTIONS,
      seconds: SECONDS,
      overallRate: target,
      body: authorize(cards.map((c) => c.pan)),
    });
    log(`authorizations at 80% of the peak, evenly paced (${target}/s)`);
    const atEightyPaced = await pacedLoad({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, rate: target, seconds: SECONDS, connections: CONNECTIONS, body: authorize(cards.map((c) => c.pan)) });
    memory.after('authorizations', server.peakRssMiB());
    const everyRole: AuthorizationRun = { result: many, cpu: cpuPerAuthorization, commits: authorizationCost.commits };

    log(`authorizations with the followers narrowed off (LEDGER_ROLES=${NARROWED_ROLES}, the service restarted)`);
    memory.restarted(server.peakRssMiB());
    await server.stop();
    server = await startServerProcess({ ...serverEnv, LEDGER_ROLES: NARROWED_ROLES });
    await waitForProjector(pool);
    // Warm, as the every-role run was by the runs before it: a restarted service reads each card's stream once.
    await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, body: authorize(cards.map((c) => c.pan)) });
    const narrowedCounters = await databaseCounters(pool);
    const narrowedCpu = cpuReading(server.pid, database.port);
    const narrowedResult = await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: SECONDS, body: authorize(cards.map((c) => c.pan)) });
    const narrowed: AuthorizationRun = {
      result: narrowedResult,
      cpu: cpuPerRequest(narrowedCpu, cpuReading(server.pid, database.port), narrowedResult.total),
      commits: perAuthorization(narrowedCounters, await databaseCounters(pool), narrowedResult.total).commits,
    };

    // The ratio of every role to the followers narrowed off, from runs taken the same way each (the
    // service restarted, caught up and warmed), alternating: the first every-role run above follows
    // the cards' creation in a fresh process and is no such pair for it.
    log('every role and the followers narrowed off, alternating (the service restarted each time)');
    const rateAfterRestart = async (roles: string | null): Promise<number> => {
      memory.restarted(server.peakRssMiB());
      await server.stop();
      server = await startServerProcess(roles === null ? serverEnv : { ...serverEnv, LEDGER_ROLES: roles });
      await waitForProjector(pool);
      await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, body: authorize(cards.map((c) => c.pan)) });
      return (await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: SECONDS, body: authorize(cards.map((c) => c.pan)) })).requestsPerSecond;
    };
    const rolesCompared = { everyRole: [await rateAfterRestart(null)], narrowed: [narrowedResult.requestsPerSecond] };
    rolesCompared.narrowed.push(await rateAfterRestart(NARROWED_ROLES));
    rolesCompared.everyRole.push(await rateAfterRestart(null));

    log('authorizations without and with the ledger commitment (the service restarted each way)');
    const commitment = await commitmentOverhead({
      restart: async (setting) => {
        memory.restarted(server.peakRssMiB());
        await server.stop();
        server = await startServerProcess({ ...serverEnv, LEDGER_COMMITMENT: setting });
      },
      // Off, nothing moves the commitment's checkpoint row: wait for the others only.
      catchUp: (setting) => waitForProjector(pool, 600_000, setting === 'off' ? ['ledger-commitment'] : []),
      warm: async () => {
        await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, body: authorize(cards.map((c) => c.pan)) });
      },
      authorize: async () => {
        const before = cpuReading(server.pid, database.port);
        const result = await load({ url: `${server.baseUrl}/v1/simulate/authorize`, headers: auth, connections: CONNECTIONS, seconds: SECONDS, body: authorize(cards.map((c) => c.pan)) });
        // The tree's last gathering (250 ms of a 10 s run) is still being hashed: left out, a few tenths of a percent of its cost.
        return { result, cpu: cpuPerRequest(before, cpuReading(server.pid, database.port), result.total) };
      },
    });

    memory.after('the commitment runs', server.peakRssMiB());
    await waitForProjector(pool);
    log('projection lag');
    const lag = await projectionLag(pool, cards[1].token);
    log('replay (whole log, compared row by row)');
    await waitForProjector(pool);
    const store = new PostgresEventStore(pool);
    const replay = await replayReadModels(store, pool);
    log('auth rule backtest over 10,000 bulk-seeded authorizations');
    const backtest = await backtestFigures(server.baseUrl, auth, pool, () => waitForProjector(pool));

    const programToken = (await pool.query(`select program_token from cards where token = $1`, [hot.token])).rows[0].program_token as string;
    const seeder = new BulkSeeder(pool, programToken, cards.map((c): SeedCard => ({ cardToken: c.token, fundingToken: c.fundingToken })));
    const lists: BenchResult['lists'] = [];
    let stored = Number((await pool.query(`select count(*) from transactions`)).rows[0].count);
    for (const size of LIST_SIZES) {
      if (size > stored) {
        log(`seeding to ${size} transactions`);
        const started = Date.now();
        await seeder.seed(size - stored, (done) => process.stderr.write(`\r[bench] seeded ${stored + done}`));
        process.stderr.write('\n');
        await waitForProjector(pool, 3_600_000);
        log(`seeded and projected in ${Math.round((Date.now() - started) / 1000)} s`);
        memory.after(`catch-up to ${size}`, server.peakRssMiB());
        // As after any bulk load: fresh planner statistics, rather than waiting for autovacuum's turn.
        await pool.query('analyze');
        stored = Number((await pool.query(`select count(*) from transactions`)).rows[0].count);
      }
      const pages = Math.max(1, Math.floor(Math.min(stored, 5000) / 50));
      const list = await load({
        url: server.baseUrl,
        method: 'GET',
        headers: auth,
        // Latency of one reader at a time: the query's own time, not a queue in front of it.
        connections: 1,
        seconds: Math.min(SECONDS, 10),
        path: () => `/v1/transactions?page_size=50&page=${1 + Math.floor(Math.random() * pages)}`,
      });
      const byCard = await load({
        url: server.baseUrl,
        method: 'GET',
        headers: auth,
        // Latency of one reader at a time: the query's own time, not a queue in front of it.
        connections: 1,
        seconds: Math.min(SECONDS, 10),
        path: () => `/v1/transactions?card_token=${cards[Math.floor(Math.random() * cards.length)].token}&page_size=50`,
      });
      lists.push({ transactions: stored, list, byCard });
    }
    log('audit digest and proof latency on the large log');
    const audit = LIST_SIZES.length > 0 ? await auditLatency(server.baseUrl, auth, pool, programToken, Math.min(SECONDS, 10)) : null;
    log('replay rate on the large log (first 200,000 events)');
    // The replay and the read ceiling run in this process: its CPU and PostgreSQL's, per 1,000 events.
    const replayCpuBefore = cpuReading(process.pid, database.port);
    const bigReplay = await replayReadModels(store, pool, { maxEvents: 200_000, keepSchema: true, onProgress: (events, rate) => process.stderr.write(`\r[bench] replayed ${events} (${Math.round(rate)}/s)`) });
    const replayCpu = cpuPerRequest(replayCpuBefore, cpuReading(process.pid, database.port), bigReplay.events / 1000);
    process.stderr.write('\n');
    log('reading the same events without projecting them (the replay ceiling)');
    const readCpuBefore = cpuReading(process.pid, database.port);
    const readCeiling = await logReadCeiling(store, bigReplay.events);
    const readCeilingCpu = cpuPerRequest(readCpuBefore, cpuReading(process.pid, database.port), readCeiling.events / 1000);
    log('the replay\'s reads and derivation alone, nothing written');
    const derivationAlone = await replayDerivationAlone(store, pool, bigReplay.events);
    log('writing the rows the replay ended with, in PostgreSQL alone (the replay write ceiling)');
    const writeCeiling = await replayWriteCeiling(pool, bigReplay.schema, bigReplay.events);
    await pool.query(`drop schema if exists "${bigReplay.schema}" cascade`);
    await store.close();

    // The service is restarted for the commitment's with/without runs: the peak is over every start.
    memory.after('lists, audit and replay', server.peakRssMiB());
    const peakRssMiB = memory.peakMib;
    // Once: machine() asks git for the commit.
    const measuredOn = machine();
    const largeReplay = {
      events: bigReplay.events,
      eventsPerSecond: Math.round(bigReplay.eventsPerSecond),
      readCeilingEventsPerSecond: readCeiling.eventsPerSecond,
      writeCeilingEventsPerSecond: writeCeiling.eventsPerSecond,
      derivationAloneEventsPerSecond: derivationAlone,
      replayCpu,
      readCeilingCpu,
      cores: measuredOn.cores,
    };
    report({
      machine: measuredOn,
      mode: database.external ? 'DATABASE_URL' : 'embedded PostgreSQL',
      connections: CONNECTIONS,
      seconds: SECONDS,
      ceilings: { commitsPerSecond: commits.commitsPerSecond, bareRoute: bare, authorizationWritesPerSecond: authorizationWrite.writesPerSecond },
      authorizations: { manyCards: many, hotCard, atEightyPercent: { targetRate: target, result: atEighty, paced: atEightyPaced }, cpuPerAuthorization, narrowed },
      projectionLagMs: lag,
      replay: { events: replay.events, eventsPerSecond: Math.round(replay.eventsPerSecond), identical: replay.differences.length === 0 },
      largeReplay,
      lists,
      peakRssMiB,
      peakMemoryPhases: memory.describe(),
      durationSeconds: Math.round((Date.now() - started) / 1000),
      targets: [
        ...bareRouteTargets(bareFigures),
        ...longHistoryTargets(longHistory),
        ...backtestTargets(backtest),
        ...wholeServiceTargets({ everyRole, narrowed, rolesCompared, bareRoute: bare, atEighty, atEightyPaced, largeReplay, writeCeiling: authorizationWrite }),
        ...authorizationTargets({ manyCards: many, hotCard, atEighty: atEighty, perAuthorization: authorizationCost }),
        ...readPathTargets({ lists, largeReplay, peakRssMiB }),
        ...auditTargets(commitment, audit),
      ],
    });
  } finally {
    await pool.end();
    await server.stop();
    await database.drop();
  }
}

async function createCards(baseUrl: string, auth: Record<string, string>, count: number) {
  const cards: { token: string; pan: string; fundingToken: string }[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${baseUrl}/v1/cards`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'DIGITAL_WALLET' }) });
    const card = (await response.json()) as { token: string; pan: string; funding: { token: string } };
    cards.push({ token: card.token, pan: card.pan, fundingToken: card.funding.token });
  }
  return cards;
}

/** Append-to-read-model lag: a memo change appended straight to a card stream, until the projector shows it. */
async function projectionLag(pool: Pool, cardToken: string): Promise<{ samples: number; p50: number; p99: number; max: number }> {
  const { commandHandler } = await import('@ledger/event-store');
  const { cardDecider, cardStreamId } = await import('@ledger/domain');
  const { ledgerCodec } = await import('@ledger/contracts');
  const store = new PostgresEventStore(pool);
  const watcher = new ProjectionWatcher(pool);
  await watcher.start();
  const programToken = (await pool.query(`select program_token from cards where token = $1`, [cardToken])).rows[0].program_token as string;
  const env = { store, codec: ledgerCodec(), now: () => new Date(), newId: randomUUID };
  const samples: number[] = [];
  for (let i = 0; i < 200; i++) {
    const outcome = await commandHandler(env, cardDecider, cardStreamId(cardToken)).handle({ type: 'UpdateCard', cardToken, programToken, memo: `lag ${i}` }, {
      programToken,
      correlationId: randomUUID(),
      causationId: null,
    });
    const appended = process.hrtime.bigint();
    if (outcome.position) await watcher.waitFor(outcome.position, 10_000);
    samples.push(Number(process.hrtime.bigint() - appended) / 1e6);
  }
  await watcher.stop();
  await store.close();
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] * 100) / 100;
  return { samples: samples.length, p50: at(0.5), p99: at(0.99), max: at(1) };
}

/**
 * Waits until every follower that keeps a checkpoint (the read models, the ledger commitment, the
 * Kafka publisher) has passed the log's head, so the next figure is not taken beside their catch-up.
 */
async function waitForProjector(pool: Pool, timeoutMs = 600_000, ignored: readonly string[] = []): Promise<void> {
  const store = new PostgresEventStore(pool);
  const head = await store.headPosition();
  await store.close();
  if (!head) return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{ name: string; c: string; p: string }>(`select name, commit_position::text as c, prepare_position::text as p from projector_checkpoints`);
    const behind = rows.filter((row) => !ignored.includes(row.name) && comparePositions({ commit: BigInt(row.c), prepare: BigInt(row.p) }, head) < 0).map((row) => row.name);
    if (rows.some((row) => row.name === 'read-models') && behind.length === 0) return;
    if (Date.now() > deadline) {
      log(`!! still behind the head after ${Math.round(timeoutMs / 1000)} s: ${behind.join(', ') || 'read-models (no checkpoint yet)'}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * A fresh database beside DATABASE_URL (dropped afterwards), or the embedded PostgreSQL `npm start`
 * runs, started here once for the whole run: the service is restarted for issue 17's figures, and
 * when each service started (and stopped) its own embedded server, a restart caught the last one
 * still shutting down and the run hung.
 */
async function benchDatabase(dataDir: string): Promise<{ url: string; external: boolean; port: number | null; drop(): Promise<void> }> {
  if (!process.env.DATABASE_URL) {
    const port = await freePort();
    const embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port });
    return { url: embedded.url, external: false, port, drop: () => embedded.stop() };
  }
  const given = new URL(process.env.DATABASE_URL);
  const name = `${given.pathname.slice(1) || 'ledger'}_bench_${Date.now()}`;
  const admin = new URL(given);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`create database "${name}"`);
  await client.end();
  const url = new URL(given);
  url.pathname = `/${name}`;
  // Its CPU is read only when it is this machine's own server (the whole server then, other databases included).
  const local = ['127.0.0.1', 'localhost'].includes(given.hostname) ? Number(given.port || 5432) : null;
  return {
    url: url.toString(),
    external: true,
    port: local,
    async drop() {
      // BENCH_KEEP_DATABASE: leave the seeded database for a closer look (replay, EXPLAIN) afterwards.
      if (process.env.BENCH_KEEP_DATABASE) {
        log(`kept the database: ${url.toString()}`);
        return;
      }
      const again = new Client({ connectionString: admin.toString() });
      await again.connect();
      await again.query(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

void (async () => {
  const started = Date.now();
  try {
    await main(started);
    log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
})();
