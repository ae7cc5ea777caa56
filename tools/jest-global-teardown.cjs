// Drops this run's worker databases and stops the embedded server if the setup started one.
const { Client } = require('pg');
const { stopTestBrokers } = require('./test-brokers.cjs');

module.exports = async function globalTeardown() {
  const run = process.env.LEDGER_TEST_RUN;
  const adminUrl = process.env.LEDGER_TEST_PG_ADMIN_URL;
  if (run && adminUrl) {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    const mine = await admin.query(`select datname from pg_database where datname like $1`, [`ledger_test_${run}_w%`]);
    for (const { datname } of mine.rows) await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => undefined);
    await admin.end();
  }
  if (globalThis.__LEDGER_TEST_BROKERS__) stopTestBrokers(globalThis.__LEDGER_TEST_BROKERS__);
  const server = globalThis.__LEDGER_EMBEDDED_PG__;
  if (server) await server.stop();
};
