import { Client, Pool } from 'pg';

/**
 * One database per jest worker, on the PostgreSQL server the global setup chose (the local server on
 * 127.0.0.1:5432 when it answers, an embedded one otherwise). Suites truncate what they wrote, so a
 * worker's database is reused by every suite that worker runs.
 */
export function testAdminUrl(): string {
  return process.env.LEDGER_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** Named after the run (set by the global setup) and the worker, so parallel runs stay apart. */
export function workerDatabaseName(): string {
  return `ledger_test_${process.env.LEDGER_TEST_RUN ?? 'single'}_w${process.env.JEST_WORKER_ID ?? '1'}`;
}

export async function workerDatabaseUrl(): Promise<string> {
  const name = workerDatabaseName();
  const admin = new Client({ connectionString: testAdminUrl() });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      await admin.query(`create database "${name}"`).catch((error: { code?: string }) => {
        // Two suites of one worker never race, but be tolerant of a database that appeared meanwhile.
        if (error.code !== '42P04') throw error;
      });
      // As the service's own connections have it (databasePool, libs/runtime), for every pool a spec
      // makes: on a server built with JIT, each append would otherwise compile itself for ~20 ms.
      await admin.query(`alter database "${name}" set jit = off`);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(testAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Empties every table of the given schemas except the migration bookkeeping. */
export async function truncateAll(pool: Pool, schemas: readonly string[] = ['public']): Promise<void> {
  const tables = await pool.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where schemaname = any($1) and tablename <> '_ledger_migrations'`,
    [schemas],
  );
  if (tables.rows.length === 0) return;
  await pool.query(`truncate ${tables.rows.map((t) => t.name).join(', ')} restart identity cascade`);
}
